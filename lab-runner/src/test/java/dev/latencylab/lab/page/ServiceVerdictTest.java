package dev.latencylab.lab.page;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.latencylab.load.result.Result;
import dev.latencylab.lab.capacity.Capacity;
import dev.latencylab.lab.capacity.CapacitySearch;
import dev.latencylab.lab.summary.PoolEvidence;
import dev.latencylab.lab.summary.ServiceRows;
import dev.latencylab.lab.summary.Stages;
import dev.latencylab.lab.summary.Flags;
import dev.latencylab.lab.summary.Points;
import dev.latencylab.lab.summary.Summary;
import dev.latencylab.lab.run.Status;

/**
 * The rules that name what bounded a service of the user's (no model: its path names no latency), from what it said of
 * its own pools: a pool full on the plateau decides, with its bound beside the goodput; a response time risen past the
 * lightest load's with none full is "not explained", never a guess; this machine's CPU, when busy, comes first.
 */
class ServiceVerdictTest {

    private static final PoolEvidence NONE_FULL = ServiceRows.evidence(null, null, null, null);
    private static final PoolEvidence HIKARI_FULL = ServiceRows.evidence("HikariCP", 10.0, 101.3, 98.7);

    private static Summary.RunRow run(int users, int run, double goodput, long p50, double machineCpu, PoolEvidence evidence) {
        return ServiceRows.run(users, run, goodput, p50, machineCpu, evidence);
    }

    private static List<Stages.Stage> stages(List<Summary.RunRow> runs) {
        return Stages.of(Points.of(runs, Map.of())).get(0).stages();
    }

    private static List<String> spans(List<Summary.RunRow> runs) {
        return stages(runs).stream().map(s -> s.bound() + " " + s.first().identity().users() + "-" + s.last().identity().users()).toList();
    }

    @Test
    void aFullPoolDecidesFromTheLoadItFirstFilledAndItsBoundIsSaidBesideTheGoodput() {
        List<Summary.RunRow> runs = new ArrayList<>();
        for (int r = 1; r <= 2; r++) {
            runs.add(run(20, r, 12.3, 108, 0.1, NONE_FULL));
            runs.add(run(100, r, 62.5, 109, 0.2, NONE_FULL));
            runs.add(run(200, r, 97.9, 950, 0.24, HIKARI_FULL));
            runs.add(run(400, r, 97.8, 3000, 0.24, HIKARI_FULL));
        }
        assertThat(spans(runs)).containsExactly("UNMODELLED 20-100", "SERVICE_POOL 200-400");
        String markdown = Verdict.markdown(Points.of(runs, Map.of()));
        assertThat(markdown).contains("HikariCP from 200 users").contains("10 connections held 101 ms each: at most 99 req/s").contains("98 req/s")
                .as("the knee: its bound times L + Z, 20 users / 12.3 req/s at the lightest load")
                .contains("the knee at " + Verdict.rate(98.7 * 20 / 12.3) + " users by L + Z = 1.63 s at 20 users");
        assertThat(markdown).doesNotContain("not explained");
    }

    /**
     * A service whose metrics were not read: its pools are unseen, never "it publishes no pool", which a service whose
     * metrics name no pool is told; on a run's line and in a sweep's verdict alike.
     */
    @Test
    void aServiceWithoutMetricsHasItsPoolsUnseenNotNonePublished() {
        PoolEvidence unread = new PoolEvidence(null, null, null, null, null, null, null, PoolEvidence.NO_METRICS, null, null, null, null);
        Summary.RunRow blind = run(20, 1, 12.3, 108, 0.1, unread);
        Summary.RunRow bare = run(20, 1, 12.3, 108, 0.1, PoolEvidence.NONE);
        assertThat(dev.latencylab.lab.sweep.RunLines.verdict(blind)).endsWith("; unseen: " + PoolEvidence.NO_METRICS)
                .doesNotContain("publishes");
        assertThat(dev.latencylab.lab.sweep.RunLines.verdict(bare)).endsWith("; it publishes no pool");
        assertThat(Verdict.markdown(Points.of(List.of(blind), Map.of()))).contains("unseen: " + PoolEvidence.NO_METRICS)
                .doesNotContain("publishes");
        assertThat(Verdict.markdown(Points.of(List.of(bare), Map.of()))).contains("it publishes no pool");
    }

    /** A model calibrated on a load whose runs disagree (flagged unstable) says so beside the knee it draws from it. */
    @Test
    void aKneeFromALoadWhoseRunsDisagreeSaysSo() {
        List<Summary.RunRow> runs = new ArrayList<>();
        for (int r = 1; r <= 2; r++) {
            runs.add(run(20, r, r == 1 ? 11.7 : 12.7, 108, 0.1, NONE_FULL));
            runs.add(run(200, r, 97.9, 950, 0.24, HIKARI_FULL));
        }
        assertThat(Points.of(runs, Map.of()).get(0).flags().all()).contains(Flags.UNSTABLE);
        assertThat(Verdict.markdown(Points.of(runs, Map.of())))
                .containsPattern("the knee at [0-9,]+ users by L \\+ Z = [0-9.]+ s at 20 users, whose runs disagree");
        runs.replaceAll(row -> row.identity().users() == 20 ? run(20, row.identity().run(), 12.2, 108, 0.1, NONE_FULL) : row);
        assertThat(Verdict.markdown(Points.of(runs, Map.of()))).contains("at 20 users").doesNotContain("whose runs disagree");
    }

    /**
     * A lightest load whose users were never all active at once offered less than N/(L+Z): its L + Z would be too long,
     * so no model is calibrated on it (no knee is drawn from it), and the verdict says its goodput is no plateau's.
     */
    @Test
    void aLoadWhoseUsersWereNeverAllActiveIsSaidSoAndCalibratesNoModel() {
        List<Summary.RunRow> runs = new ArrayList<>();
        for (int r = 1; r <= 2; r++) {
            runs.add(ServiceRows.run(20, r, 6.1, 108, 0.1, NONE_FULL, true));
            runs.add(run(100, r, 62.5, 109, 0.2, NONE_FULL));
            runs.add(run(200, r, 97.9, 950, 0.24, HIKARI_FULL));
        }
        List<Summary.PointRow> points = Points.of(runs, Map.of());
        assertThat(points.get(0).flags().all()).contains(dev.latencylab.lab.summary.Flags.NOT_ALL_ACTIVE);
        assertThat(dev.latencylab.lab.summary.ServiceModel.of(points)).isEmpty();
        String markdown = Verdict.markdown(points);
        assertThat(markdown).contains("6 req/s, never all its users active at once: no plateau;").contains("HikariCP at 200 users")
                .doesNotContain("the knee at");
        // the same loads, all active: the lightest calibrates the model, and no such words
        List<Summary.RunRow> active = runs.stream().map(r -> r.identity().users() == 20 ? run(20, r.identity().run(), 12.3, 108, 0.1, NONE_FULL) : r)
                .toList();
        assertThat(Verdict.markdown(Points.of(active, Map.of()))).contains("the knee at").doesNotContain("never all its users active");
    }

    @Test
    void aRisenResponseTimeWithNothingFullIsNotExplainedAndThisMachinesCpuComesFirst() {
        List<Summary.RunRow> runs = List.of(run(20, 1, 12.3, 108, 0.1, NONE_FULL), run(100, 1, 62.5, 112, 0.2, NONE_FULL),
                run(200, 1, 70.0, 900, 0.3, NONE_FULL), run(400, 1, 70.0, 3000, 0.95, HIKARI_FULL));
        assertThat(spans(runs)).as("112 ms against 108 is no queue; 900 is").containsExactly("UNMODELLED 20-100", "UNEXPLAINED 200-200",
                "MACHINE 400-400");
        assertThat(Verdict.markdown(Points.of(runs, Map.of()))).contains("not explained by any pool this service publishes at 200 users")
                .contains("this machine's CPU at 400 users (70 req/s, machine CPU 95%; this machine)").doesNotContain(" of -");
    }

    /**
     * Tomcat's threads unseen (no mbean registry), their size given: where the goodput stops at size / L (L the p50 of
     * the lightest load, nothing full there) with the response time risen and nothing published full, the given pool is
     * named, as the model's; the knee at its bound times L + Z, Z from Little's law at the lightest load.
     */
    @Test
    void aGivenPoolIsNamedOnlyWhereTheGoodputStopsAtItsBoundOverL() {
        List<Summary.RunRow> runs = new ArrayList<>();
        for (int r = 1; r <= 2; r++) {
            runs.add(run(20, r, 12.2, 105, 0.1, ServiceRows.tomcatGiven(10)));
            runs.add(run(100, r, 61.0, 108, 0.2, ServiceRows.tomcatGiven(10)));
            runs.add(run(200, r, 94.0, 900, 0.3, ServiceRows.tomcatGiven(10)));
            runs.add(run(400, r, 94.5, 3000, 0.95, ServiceRows.tomcatGiven(10)));
        }
        assertThat(spans(runs)).as("10 threads over L 105 ms: 95 req/s; this machine's CPU first where busy")
                .containsExactly("UNMODELLED 20-100", "GIVEN_POOL 200-200", "MACHINE 400-400");
        double bound = 10 * 1000.0 / 105;
        String markdown = Verdict.markdown(Points.of(runs, Map.of()));
        assertThat(markdown).contains("Tomcat's threads at 200 users (10 threads given, over L 105 ms: at most " + Verdict.rate(bound)
                + " req/s, the knee at " + Verdict.rate(bound * 20 / 12.2) + " users").contains("its metrics do not show it");

        List<Summary.RunRow> far = List.of(run(20, 1, 12.2, 105, 0.1, ServiceRows.tomcatGiven(200)),
                run(200, 1, 70.0, 900, 0.3, ServiceRows.tomcatGiven(200)));
        assertThat(spans(far)).as("200 threads bound 1,905 req/s: not what 70 req/s is").containsExactly("UNMODELLED 20-20", "UNEXPLAINED 200-200");
        assertThat(Verdict.markdown(Points.of(far, Map.of()))).contains("not explained by any pool this service publishes")
                .contains("given: Tomcat's threads 200, whose bound over L, " + Verdict.rate(200 * 1000.0 / 105) + " req/s, is not what it served");

        List<Summary.RunRow> none = List.of(run(20, 1, 12.2, 105, 0.1, ServiceRows.tomcatGiven(null)),
                run(200, 1, 94.0, 900, 0.3, ServiceRows.tomcatGiven(null)));
        assertThat(spans(none)).as("nothing given: nothing to name").containsExactly("UNMODELLED 20-20", "UNEXPLAINED 200-200");

        List<Summary.RunRow> queuedAtLightest = List.of(run(20, 1, 12.2, 105, 0.1, HIKARI_FULL), run(200, 1, 94.0, 900, 0.3, ServiceRows.tomcatGiven(10)));
        assertThat(spans(queuedAtLightest)).as("a lightest load with a pool full calibrates nothing").containsExactly("SERVICE_POOL 20-20",
                "UNEXPLAINED 200-200");
    }

    @Test
    void aPoolFullInOnlyHalfThePointsRunsDecidesNothing() {
        List<Summary.RunRow> runs = List.of(run(20, 1, 12.3, 108, 0.1, NONE_FULL), run(200, 1, 97.9, 140, 0.2, HIKARI_FULL),
                run(200, 2, 97.9, 120, 0.2, NONE_FULL));
        assertThat(spans(runs)).containsExactly("UNMODELLED 20-200");
        assertThat(stages(runs).get(0).last().evidence().fullPool()).isNull();
    }

    /** A search of a service whose ladders reached these top levels (the server's pools there), nothing else. */
    private static Capacity.Search search(Double capacity, Double firstMiss, Capacity.TopLevel... tops) {
        List<Capacity.Round> rounds = new ArrayList<>();
        for (int i = 0; i < tops.length; i++) {
            rounds.add(new Capacity.Round(i + 1, List.of(), "round-" + (i + 1), null, Status.DONE, null, tops[i]));
        }
        return new Capacity.Search(new Capacity.Settings("clinic", 0, null, 500, 0, "uniform", 5, 1, null), new Capacity.Bounds(null, 400.0),
                new Capacity.Answer(capacity, firstMiss, firstMiss != null, null, null), rounds, List.of(), null, null, null, null);
    }

    /** The same, with one level of the first ladder: at this rate, within the SLO, this p50 from due. */
    private static Capacity.Search withLevel(Capacity.Search s, double rate, long p50) {
        CapacitySearch.Level level = new CapacitySearch.Level(1, rate, true, rate, new CapacitySearch.Latency(p50, p50 + 20, p50, p50 + 20, p50 + 30),
                0, 0L, 1L, new Result.Cpu(0.1, 0.1, 0.2), "within");
        return new Capacity.Search(s.settings(), s.bounds(), s.answer(), s.rounds(), List.of(level), null, null, null, null);
    }

    /**
     * Nothing published full at the first rate missed, Tomcat's threads given: named where their bound, size / L (L the
     * lowest rate's p50), lies between the capacity and that rate; else said not to be where it missed.
     */
    @Test
    void aSearchOfAServiceNamesAGivenPoolOnlyWhereItsBoundLiesAtTheMiss() {
        Capacity.TopLevel missed = new Capacity.TopLevel(56, "HikariCP 10", null, List.of(new Result.GivenPool("Tomcat's threads", "threads", 5)));
        assertThat(Verdict.capacityBound(withLevel(search(48.0, 56.0, missed), 10, 106)))
                .startsWith("Tomcat's threads (5 threads given, over L 106 ms at its lowest rate: at most 47 req/s; none it publishes full at 56 req/s")
                .contains("the model: its metrics do not show it");
        Capacity.TopLevel many = new Capacity.TopLevel(56, "HikariCP 10", null, List.of(new Result.GivenPool("Tomcat's threads", "threads", 200)));
        assertThat(Verdict.capacityBound(withLevel(search(48.0, 56.0, many), 10, 106))).as("200 / L: 1,887 req/s, far above the miss")
                .startsWith("not explained by any pool this service publishes").contains("given: Tomcat's threads (200 threads given");
        assertThat(Verdict.capacityBound(search(48.0, 56.0, missed))).as("no level within the SLO: no L").startsWith("not explained");
    }

    private static Result.Pool hikari(double fullShare) {
        Result.Stat none = new Result.Stat(null, null, 0);
        return new Result.Pool("HikariCP", "connections", 10.0, none, none, fullShare, 101.0, 99.0, null);
    }

    @Test
    void aSearchOfAServiceIsBoundByThePoolFullAtTheFirstRateMissedAndOnlyThere() {
        Capacity.TopLevel met = new Capacity.TopLevel(80, "HikariCP 10", null);
        Capacity.TopLevel missed = new Capacity.TopLevel(160, "HikariCP 10", hikari(1.0));
        assertThat(Verdict.capacityBound(search(80.0, 160.0, met, missed))).startsWith("HikariCP, 80 req/s (full at 160 req/s, the first rate missed");
        assertThat(Verdict.capacityBound(search(80.0, 160.0, missed, new Capacity.TopLevel(160, "HikariCP 10", null))))
                .as("the first ladder that reached the rate missed").startsWith("HikariCP, ");
        assertThat(Verdict.capacityBound(search(80.0, 160.0, met, new Capacity.TopLevel(160, "HikariCP 10", null))))
                .startsWith("not explained by any pool this service publishes (HikariCP 10; none full at 160 req/s");
        assertThat(Verdict.capacityBound(search(80.0, 160.0, met))).as("no ladder's metrics at the miss").startsWith("nothing the lab can name");
        assertThat(Verdict.capacityBound(search(160.0, null, missed))).as("nothing missed: no bound met").startsWith("nothing yet: no rate missed");
    }
}
