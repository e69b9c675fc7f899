package dev.latencylab.lab.page;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import dev.latencylab.lab.Lab;
import dev.latencylab.lab.capacity.Capacity;
import dev.latencylab.lab.docs.Published;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.summary.MachineCeiling;
import dev.latencylab.lab.summary.Stages;
import dev.latencylab.lab.summary.Points;
import dev.latencylab.lab.summary.Summary;
import dev.latencylab.lab.sweep.Sweep;

/**
 * The verdict read from the published sweeps' own runs names, for each target and load, the bound the queueing model
 * predicts from the target's settings: the offered load N/(L+Z) below a pool's knee N = T(L+Z)/L, the pool's T/L past
 * it, and this machine's CPU where the points are flagged so.
 */
class VerdictTest {

    private static List<Summary.PointRow> points(String sweep) {
        List<Summary.RunRow> runs = Sweep.rows(new SweepFolder(Lab.repo().resolve(sweep)));
        return Points.of(runs, MachineCeiling.of(runs));
    }

    private static Map<String, List<Stages.Stage>> stages(String sweep) {
        return Stages.of(points(sweep)).stream().collect(Collectors.toMap(Stages.TargetStages::target, Stages.TargetStages::stages));
    }

    private static String span(Stages.Stage s) {
        return s.bound() + " " + s.first().identity().users() + "-" + s.last().identity().users();
    }

    @Test
    void eachTargetOfTheDefaultSweepIsBoundWhereTheModelSays() {
        Map<String, List<Stages.Stage>> stages = stages("docs/results");
        // 200 threads at L 100 ms, Z 1.5 s: knee 3,200 users; 400 threads: 6,400
        assertThat(stages.get("mvc-t200")).extracting(VerdictTest::span).containsExactly("OFFERED_LOAD 1000-3000", "POOL 5000-20000");
        assertThat(stages.get("mvc-t400")).extracting(VerdictTest::span).containsExactly("OFFERED_LOAD 1000-5000", "POOL 10000-20000");
        assertThat(stages.get("mvc-t200").get(1).first().model().modelPoolBound()).isEqualTo(2000);
        // no pool: the offered load until the machine; mvc-virtual below the model where Tomcat's connection cap refused users
        assertThat(stages.get("webflux")).extracting(VerdictTest::span).containsExactly("OFFERED_LOAD 1000-10000", "MACHINE 20000-20000");
        assertThat(stages.get("mvc-virtual")).extracting(VerdictTest::span)
                .containsExactly("OFFERED_LOAD 1000-5000", "BELOW_MODEL 10000-10000", "MACHINE 20000-20000");
        assertThat(stages.get("mvc-virtual").get(1).first().requests().topKoReason()).contains("connect timeout");
        assertThat(Verdict.markdown(points("docs/results"))).as("and the words name the cap, a bound of Tomcat's settings: no finding")
                .contains("below the model at 10,000 users: Tomcat's connection cap (max-connections=8192 accept-count=100) (")
                .containsPattern("Tomcat's connection cap \\(max-connections=8192 accept-count=100\\) \\([^)]*\\([^)]*\\)[^)]*; the model\\)");
    }

    @Test
    void theTargetsAreSetSideBySideAtTheMostLoadTheMachineCarried() {
        Stages.SideBySide at = Stages.sideBySide(points("docs/results")).get(0);
        assertThat(at.at().identity().users()).as("20,000 users: this machine's CPU bounded two targets").isEqualTo(10000);
        assertThat(at.machineBound()).isFalse();
        assertThat(at.points()).extracting(r -> r.identity().target())
                .as("most goodput first: no pool, then the pools by size").startsWith("webflux").endsWith("mvc-t400", "mvc-t200");
    }

    @Test
    void withADatabaseTheConnectionPoolBoundsEveryStack() {
        Map<String, List<Stages.Stage>> stages = stages("docs/results-db");
        for (String target : List.of("mvc-t200-db", "mvc-virtual-db", "webflux-db")) {
            // 10 connections at 100 ms: T/L 100 req/s, knee 160 users
            assertThat(stages.get(target)).as(target).extracting(VerdictTest::span).containsExactly("OFFERED_LOAD 100-100", "POOL 200-1600");
        }
        String markdown = Verdict.markdown(points("docs/results-db"));
        assertThat(markdown).contains("- **mvc-virtual-db**: the offered load at 100 users (").contains("its connection pool from 200 users (T/L 100 req/s");
    }

    /** With max_connections below the pool, PostgreSQL's is the T of T/L, and the words say so. */
    @Test
    void postgresMaxConnectionsIsNamedWhereItIsTheBound() {
        assertThat(Verdict.markdown(points("docs/results-db-maxconn")))
                .contains("- **mvc-virtual-db-p50-pg20**: the offered load at 200 users (")
                .contains("PostgreSQL's max_connections (20) from 400 users (T/L 200 req/s");
    }

    /** An open sweep's load is its rate: a pool holds at T/L while the arrivals come faster. */
    @Test
    void anOpenSweepIsJudgedAtItsRate() {
        Map<String, List<Stages.Stage>> stages = stages("docs/results-injectors-open/k1");
        assertThat(stages.get("mvc-t200")).extracting(s -> s.bound()).containsExactly(Stages.Cause.POOL);
        assertThat(Verdict.markdown(points("docs/results-injectors-open/k1")))
                .contains("- **mvc-t200**: its thread pool at a rate of 2,400 req/s (T/L 2,000 req/s; the model).");
    }

    @Test
    void theWordsSayWhatDecidedEachStage() {
        String markdown = Verdict.markdown(points("docs/results"));
        assertThat(markdown.lines()).hasSize(1 + 5);
        assertThat(markdown).contains("- **mvc-t200**: the offered load up to 3,000 users (")
                .contains("; the model); its thread pool from 5,000 users (T/L 2,000 req/s")
                .contains("- **webflux**: the offered load up to 10,000 users (").contains("this machine's CPU at 20,000 users (");
        String html = Verdict.html(points("docs/results"));
        assertThat(html).startsWith("<section class=\"verdict\">")
                .contains("<li><strong>mvc-t200</strong>: followed the offered load from 1,000 users to 3,000 users")
                .contains("held at the T/L of its thread pool, 2,000 req/s, from 5,000 users to 20,000 users");
    }

    /** A finished search with these numbers (what the capacity verdict reads), nothing else. */
    private static Capacity.Search search(String target, Double model, Double ceiling, Double capacity, Double firstMiss) {
        return new Capacity.Search(new Capacity.Settings(target, 100, null, 200, 0, "uniform", 10, 3, null), new Capacity.Bounds(model, ceiling),
                new Capacity.Answer(capacity, firstMiss, firstMiss != null, null, null), List.of(), List.of(), null, null, null, null);
    }

    @Test
    void aCapacityIsThePoolsWhereItReachesTLTheMachinesNearItsCeilingElseAFinding() {
        assertThat(Verdict.capacityBound(search("mvc-t200", 2000.0, 7000.0, 2000.0, 2080.0)))
                .startsWith("its thread pool, 2,000 req/s (100% of T/L 2,000, 29% of this machine's ceiling 7,000; 2,080 missed; the model)");
        assertThat(Verdict.capacityBound(search("webflux-db-p50", 500.0, 900.0, 480.0,
                500.0))).startsWith("its connection pool, 480 req/s (96% of T/L 500");
        assertThat(Verdict.capacityBound(search("webflux", null, 13000.0, 11000.0, 12000.0)))
                .isEqualTo("this machine's CPU, 11,000 req/s (85% of this machine's ceiling 13,000, no pool; 12,000 missed; this machine)");
        assertThat(Verdict.capacityBound(search("mvc-t400", 4000.0, 4200.0, 3500.0, 3600.0)))
                .as("88% of T/L, 83% of the ceiling: the machine").contains("this machine's CPU, 3,500 req/s", "below T/L 4,000");
        assertThat(Verdict.capacityBound(search("mvc-virtual", null, 9000.0, 6400.0, 6560.0)))
                .isEqualTo("neither a pool (none) nor this machine's CPU, 6,400 req/s (71% of this machine's ceiling 9,000; 6,560 missed; a finding)");
        assertThat(Verdict.capacityBound(search("webflux", null, null, 20000.0, null)))
                .isEqualTo("neither a pool (none) nor this machine's CPU, 20,000 req/s or more (no machine ceiling measured; "
                        + "no level missed up to the ladder's top; a finding)");
        assertThat(Verdict.capacityBound(search("webflux", null, null, null, 250.0))).isEqualTo("none: its first level missed the SLO");
        // the same causes a sweep's points are told by, one type for both
        assertThat(search("webflux-db-p50", 500.0, 900.0, 480.0, 500.0).bound()).isEqualTo(Stages.Cause.POOL);
        assertThat(search("mvc-t400", 4000.0, 4200.0, 3500.0, 3600.0).bound()).isEqualTo(Stages.Cause.MACHINE);
        assertThat(search("mvc-virtual", null, 9000.0, 6400.0, 6560.0).bound()).isEqualTo(Stages.Cause.UNEXPLAINED);
        assertThat(search("webflux", null, null, null, 250.0).bound()).as("none found").isNull();
        // T/L between the last rate met and the first missed: the pool, whatever the levels' spacing left unsaid
        assertThat(search("mvc-t4", 40.0, 395.0, 33.3, 41.7).bound()).isEqualTo(Stages.Cause.POOL);
        assertThat(Verdict.capacityBound(search("mvc-t4", 40.0, 395.0, 33.3, 41.7))).startsWith("its thread pool, 33.3 req/s (83% of T/L 40")
                .endsWith("41.7 missed; the model)");
        assertThat(search("mvc-t4", 40.0, 395.0, 33.3, 36.0).bound()).as("missed at 90% of T/L: still the pool").isEqualTo(Stages.Cause.POOL);
        assertThat(search("mvc-t4", 40.0, 395.0, 25.0, 33.3).bound()).as("missed below 90% of T/L: a finding").isEqualTo(Stages.Cause.UNEXPLAINED);
        assertThat(search("mvc-t4", 40.0, 395.0, 33.3, null).bound()).as("never missed, below T/L: a finding").isEqualTo(Stages.Cause.UNEXPLAINED);
    }

    @Test
    void thePublishedCapacitySearchesAreTheModelsForPoolsAndThisMachinesForWebflux() {
        String verdict = Verdict.capacity(Published.capacitySearches(Lab.repo()));
        assertThat(verdict.lines()).first().asString().startsWith("- Within the SLO (p99 <= 200 ms from each arrival's due time, no KO): **webflux**");
        assertThat(verdict).contains("- **mvc-t200**: its thread pool, 2,000 req/s (100% of T/L 2,000",
                "- **mvc-t400**: its thread pool, 4,000 req/s",
                "- **webflux**: this machine's CPU, ", "- **mvc-virtual**: neither a pool (none) nor this machine's CPU");
    }

    /**
     * The words owe a figure to the model only where its point carries no flag of this machine's (its CPU busy, near
     * its ceiling), and a pool's KO under shared connections (this machine's open-files limit) never to the pool: in
     * every published sweep, each target's line has as many stages owed to the model as its flags allow, and no KO
     * inside them where the flags name another cause. Counted from the flags here, not from the generator's rule.
     */
    @Test
    void noFigureIsOwedToTheModelWhereItsPointIsFlaggedForThisMachine() {
        for (String sweep : dev.latencylab.lab.docs.Published.SWEEPS) {
            List<Summary.PointRow> points = points(sweep);
            List<String> lines = Verdict.markdown(points).lines().toList();
            for (Stages.TargetStages t : Stages.of(points)) {
                String line = lines.stream().filter(l -> l.startsWith("- **" + t.target() + "**")).filter(l -> t.open() == l.contains("open)")
                        || lines.stream().filter(o -> o.startsWith("- **" + t.target() + "**")).count() == 1).findFirst().orElseThrow();
                long owedToModel = 0;
                for (Stages.Stage s : t.stages()) {
                    Summary.PointRow cited = s.bound() == Stages.Cause.POOL ? s.first() : s.last();
                    boolean machine = cited.flags().has("machine-cpu-bound") || cited.flags().has("near-machine-ceiling");
                    // below the model where Tomcat's connection cap refused users (connect timeouts on MVC): its settings' bound
                    boolean cap = s.bound() == Stages.Cause.BELOW_MODEL && t.target().startsWith("mvc") && cited.requests().topKoReason() != null
                            && cited.requests().topKoReason().contains("connect timeout");
                    if ((s.bound() == Stages.Cause.OFFERED_LOAD || s.bound() == Stages.Cause.POOL || cap) && !machine) {
                        owedToModel++;
                    }
                    if (s.bound() == Stages.Cause.POOL) { // the first load Tomcat's cap refused connects at, not only the last (issue 64)
                        s.points().stream().filter(p -> p.requests().topKoReason() != null && p.requests().topKoReason().contains("connect timeout"))
                                .findFirst().ifPresent(p -> assertThat(line).as("%s: %s".formatted(sweep, line))
                                        .contains("%.1f%% at %,d users".formatted(p.requests().koPercent(), p.identity().users())));
                    }
                    if (s.bound() == Stages.Cause.POOL && s.last().flags().has("connections-switched")
                            && s.last().requests().koPercent() != null && s.last().requests().koPercent() > 0) {
                        assertThat(line).as("%s: %s's KO at %,d users is not the pool's".formatted(sweep, t.target(), s.last().identity().users()))
                                .doesNotContainPattern("KO at [0-9,]+ users: [^;]*; the model\\)");
                    }
                }
                assertThat(line.split("; the model\\)", -1).length - 1L).as("%s: %s".formatted(sweep, line)).isEqualTo(owedToModel);
            }
        }
        // the two lines the reader found contradicting the findings (issue 47)
        assertThat(Verdict.markdown(points("docs/results"))).contains("**mvc-virtual-uncapped**: the offered load at 10,000 users (5,839 req/s, its "
                + "runs disagree, near this machine's ceiling; this machine)")
                .contains("KO from Tomcat's connection cap (max-connections=8192 accept-count=100): 3.6% at 10,000 users, 23.0% at 20,000 users");
    }
}
