package dev.latencylab.lab.summary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.latencylab.load.result.Json;
import dev.latencylab.lab.run.Point;
import dev.latencylab.lab.sweep.RunLines;
import dev.latencylab.lab.sweep.SweepPlan;
import dev.latencylab.lab.run.Status;

/** The arithmetic of repeats: median and range, when runs disagree, CPU per request and the machine's ceiling. */
class RepeatsArithmeticTest {

    private static final int CORES = 2;

    /** A finished run with the numbers a case chooses (the model's: N/(L+Z) with L = 100 ms, Z = 1.5 s). */
    private static Summary.RunRow run(String target, int users, int run, double goodput, double throughput, long p95,
            double serverCpu, double injectorCpu, boolean saturated, long ko, String... flags) {
        return new Summary.RunRow(new Summary.RunRow.Identity(Point.pointId(target, 100, users, null) + "-r" + run, target, users, null, 100, run),
                new Summary.RunRow.Outcome(Status.DONE, null), new Summary.Pool(null, "", "per-user"),
                new Summary.RunRow.Rates(goodput, throughput, throughput, (long) throughput),
                new Summary.RunRow.Latencies(101L, 101L, p95, p95, p95, p95), new Summary.RunRow.Requests(1000L, ko, ko / 10.0, ko > 0
                        ? "HTTP 503" : null),
                new Summary.RunRow.Threads(20.0, 10.0), new Summary.RunRow.Cpu(serverCpu, injectorCpu, serverCpu + injectorCpu, CORES,
                        MachineCeiling.cpuMsPerRequest(serverCpu, CORES, goodput), MachineCeiling.cpuMsPerRequest(injectorCpu, CORES, goodput),
                        0.001, 1.0, 1400.0),
                new Summary.RunRow.Peaks(100.0, 100.0, 100.0), new Summary.Model(users / 1.6, null, users / 1.6, null, 100.0, saturated),
                PoolEvidence.NONE, new Summary.RunRow.Notes(RowFlags.of(flags), null, 90L, null));
    }

    private static Summary.RunRow clean(String target, int users, int run, double throughput, long p95) {
        return run(target, users, run, throughput, throughput, p95, 0.15, 0.1, false, 0);
    }

    /** One line says what a run measured, what bounds it by the model, and whether it followed the model. */
    @Test
    void aRunsLineSaysWhatBoundsItAndWhetherItFollowedTheModel() {
        // 1,000 users of L = 100 ms, Z = 1.5 s: offered 625 req/s, no pool
        assertThat(RunLines.headline(clean("webflux", 1000, 1, 625, 104)))
                .isEqualTo("goodput 625 req/s  p50/p95/p99 101/104/104 ms  0 KO  model 625 req/s, bounded by the offered load: follows it");
        assertThat(RunLines.headline(run("webflux", 1000, 1, 500, 510, 104, 0.6, 0.38, false, 12, "machine-cpu-bound", "ko 1.2% (HTTP 503)")))
                .isEqualTo("goodput 500 req/s  p50/p95/p99 101/104/104 ms  12 KO (1.2%, most HTTP 503)  model 625 req/s, bounded by the "
                        + "offered load: this machine's CPU bounded it first  flags: machine-cpu-bound; ko 1.2% (HTTP 503)");
        assertThat(RunLines.verdict(run("webflux", 1000, 1, 400, 400, 104, 0.2, 0.1, false, 0, "disagrees-with-model")))
                .isEqualTo("model 625 req/s, bounded by the offered load: disagrees with it (a finding: see the flags)");
    }

    /** The time a sweep says it has left: the planned load of the points to run, then their measured overhead too. */
    @Test
    void aSweepsTimeLeftIsItsPlannedLoadPlusTheOverheadMeasuredSoFar() {
        // the default scenario: 5 s warm-up, 30 s ramp, 30 requests of 100 ms each after 1.5 s of thinking on average
        SweepPlan plan = plan(List.of("mvc-t200", "webflux"), List.of(1000), 1, 0, List.of(20.0), 60, 1);
        List<Point> points = plan.points();
        assertThat(plan.planned(points.get(0))).isEqualTo(java.time.Duration.ofSeconds(5 + 30 + 30 * 16 / 10));
        assertThat(plan.planned(points.get(2))).as("an open point holds its level").isEqualTo(java.time.Duration.ofSeconds(5 + 30 + 60));

        // 83 + 83 + 95 + 95 = 356 s planned; then the last three (273 s) and 20 s of overhead each
        assertThat(RunLines.timeLeft(java.time.Duration.ZERO, points, null, plan))
                .isEqualTo("elapsed 0:00 min; about 5:56 min left plus each point's start and drain, measured after the first");
        assertThat(RunLines.timeLeft(java.time.Duration.ofSeconds(100), points.subList(1, 4), java.time.Duration.ofSeconds(20), plan))
                .isEqualTo("elapsed 1:40 min; about 5:33 min left");
    }

    @Test
    void aSweepRunsWholeRoundsAndRepeatsOnlyThePointsFromItsThreshold() {
        SweepPlan plan = plan(List.of("mvc-t200", "webflux"), List.of(1000, 5000), 3, 5000, List.of(), 60, 1);
        assertThat(plan.points()).extracting(Point::id).containsExactly(
                "mvc-t200-l100-u1000-r1", "webflux-l100-u1000-r1", "mvc-t200-l100-u5000-r1", "webflux-l100-u5000-r1",
                "mvc-t200-l100-u5000-r2", "webflux-l100-u5000-r2",
                "mvc-t200-l100-u5000-r3", "webflux-l100-u5000-r3");
        SweepPlan every = plan(List.of("webflux"), List.of(1000, 5000), 2, 0, List.of(), 60, 1);
        assertThat(every.points()).extracting(Point::id).containsExactly(
                "webflux-l100-u1000-r1", "webflux-l100-u5000-r1", "webflux-l100-u1000-r2", "webflux-l100-u5000-r2");
        assertThat(every.changeFrom(plan)).as("targets differ").startsWith("targets was");
        assertThat(plan(List.of("webflux"), List.of(1000, 5000), 3, 5000, List.of(), 60, 1).changeFrom(every)).as("more runs: the same sweep").isNull();

        SweepPlan open = plan(List.of("webflux"), List.of(1000), 2, 5000, List.of(500.0, 1500.5), 20, 1);
        assertThat(open.points()).as("open points after the closed ones, in every round").extracting(Point::id).containsExactly(
                "webflux-l100-u1000-r1", "webflux-l100-rate500-r1", "webflux-l100-rate1500.5-r1",
                "webflux-l100-rate500-r2", "webflux-l100-rate1500.5-r2");
        assertThat(open.settings(open.points().get(1)).toProperties()).containsEntry("sim.injection", "open")
                .containsEntry("sim.rate", "500").containsEntry("sim.level.seconds", "20").doesNotContainKey("sim.users");
        // a sweep.json from before the open model has neither rates nor levelSeconds: the same closed sweep
        tools.jackson.databind.node.ObjectNode old = Json.MAPPER.valueToTree(every);
        old.remove("rates");
        old.remove("levelSeconds");
        old.remove("injectors");
        assertThat(every.changeFrom(Json.MAPPER.treeToValue(old, SweepPlan.class))).as("nor injectors: one").isNull();
        SweepPlan split = plan(List.of("webflux"), List.of(1000, 5000), 2, 0, List.of(), 60, 2);
        assertThat(split.changeFrom(every)).isEqualTo("injectors was 1, now 2");
        assertThat(split.settings(split.points().get(0)).split().injectors()).isEqualTo(2);
        assertThat(open.changeFrom(every)).startsWith("users was");
    }

    @Test
    void medianAndRangeOfTheRunsThatHaveTheMeasure() {
        Spread odd = Spread.of(Arrays.asList(3.0, 1.0, null, 2.0));
        assertThat(odd).isEqualTo(new Spread(2.0, 1.0, 3.0, 3));
        assertThat(Spread.of(List.of(4, 1, 3, 2)).median()).as("even: the mean of the middle two").isEqualTo(2.5);
        assertThat(Spread.of(Arrays.asList(null, null))).isEqualTo(Spread.NONE);
        assertThat(Spread.of(List.of(7.0)).format("%,.0f")).as("one run: no range").isEqualTo("7");
        assertThat(Spread.of(List.of(3105.0, 3111.0, 3116.0)).format("%,.0f")).isEqualTo("3,111 (3,105–3,116)");
        assertThat(Spread.of(List.of(0.2, 0.3)).times(100)).isEqualTo(new Spread(25.0, 20.0, 30.0, 2));
        assertThat(Spread.NONE.format("%.0f")).isEmpty();
    }

    @Test
    void runsDisagreeBeyondBothTheShareAndTheAbsoluteTolerance() {
        Spread p95 = Spread.of(List.of(101.0, 262.0, 159.0));
        assertThat(p95.relativeRange()).isCloseTo(161 / 159.0, within(1e-9));
        assertThat(p95.widerThan(0.25, 10)).isTrue();
        assertThat(Spread.of(List.of(101.0, 104.0)).widerThan(0.25, 10)).as("3 ms apart").isFalse();
        assertThat(Spread.of(List.of(4.0, 8.0)).widerThan(0.25, 10)).as("wide, but 4 ms only").isFalse();
        assertThat(Spread.of(List.of(12345.0, 12457.0)).widerThan(0.05, 0)).as("0.9% apart").isFalse();
        assertThat(Spread.of(List.of(2000.0, 2200.0)).widerThan(0.05, 0)).isTrue();
        assertThat(Spread.of(List.of(0.0, 0.0)).widerThan(0.05, 0)).as("median 0: no share").isFalse();
    }

    @Test
    void cpuPerRequestIsTheCoresUsedOverTheRequestsPerSecond() {
        // 25% of 2 cores = 0.5 CPU-seconds each second, over 1,000 requests: 0.5 ms each
        assertThat(MachineCeiling.cpuMsPerRequest(0.25, 2, 1000.0)).isCloseTo(0.5, within(1e-12));
        assertThat(MachineCeiling.cpuMsPerRequest(0.25, 2, 0.0)).isNull();
        assertThat(MachineCeiling.cpuMsPerRequest(null, 2, 1000.0)).isNull();
        MachineCeiling c = new MachineCeiling("webflux", 10_000, 2, 0.3, 0.2);
        assertThat(c.cpuMsPerRequest()).isCloseTo(0.5, within(1e-12));
        assertThat(c.requestsPerSecond()).as("2 cores / 0.5 ms").isCloseTo(4000, within(1e-9));
        assertThat(c.near(3200)).as("80% of it").isTrue();
        assertThat(c.near(3199)).isFalse();
    }

    @Test
    void theCeilingComesFromTheBusiestPointOfEachTargetWhosePoolWasNotTheLimit() {
        List<Summary.RunRow> runs = List.of(
                clean("webflux", 5000, 1, 3111, 101),
                clean("webflux", 10000, 1, 6232, 101),
                clean("webflux", 10000, 2, 6230, 101),
                run("webflux", 20000, 1, 12000, 12000, 262, 0.5, 0.45, false, 0, Flags.MACHINE_CPU_BOUND, Flags.MACHINE_BUSY_ELSEWHERE),
                clean("mvc-virtual", 10000, 1, 6000, 101),
                run("mvc-virtual", 20000, 1, 8800, 9000, 4400, 0.64, 0.31, false, 200, Flags.MACHINE_CPU_BOUND, "ko 1.8% (HTTP 503)"),
                clean("mvc-t200", 3000, 1, 1867, 106),
                run("mvc-t200", 5000, 1, 1994, 1994, 1028, 0.1, 0.08, true, 0));
        Map<String, MachineCeiling> ceilings = MachineCeiling.of(runs);

        MachineCeiling webflux = ceilings.get("webflux");
        assertThat(webflux.fromUsers()).as("another process used the machine at 20,000").isEqualTo(10000);
        assertThat(webflux.serverCpuMsPerRequest()).isCloseTo(0.15 * 2 * 1000 / 6231, within(1e-6));
        assertThat(webflux.requestsPerSecond()).isCloseTo(2 * 1000 / ((0.15 + 0.1) * 2 * 1000 / 6231), within(0.01));
        MachineCeiling virtual = ceilings.get("mvc-virtual");
        assertThat(virtual.fromUsers()).as("CPU-bound and with KO, but its busiest").isEqualTo(20000);
        assertThat(virtual.requestsPerSecond()).as("per OK response: 8,800 / 95%").isCloseTo(8800 / 0.95, within(1e-6));
        assertThat(ceilings.get("mvc-t200").fromUsers()).as("5,000 saturates the pool").isEqualTo(3000);
        assertThat(MachineCeiling.of(List.of(runs.get(7)))).as("no run qualifies").isEmpty();
    }

    @Test
    void aPointIsTheMedianOfItsRunsWithTheirRangeAndFlags() {
        Summary.PointRow steady = Points.point(List.of(clean("webflux", 5000, 1, 3111, 101), clean("webflux", 5000, 2, 3105, 102),
                clean("webflux", 5000, 3, 3116, 101)), null);
        assertThat(steady.identity().point()).isEqualTo("webflux-l100-u5000");
        assertThat(steady.outcome().runs()).isEqualTo(3);
        assertThat(steady.rates().goodput()).isEqualTo(new Spread(3111.0, 3105.0, 3116.0, 3));
        assertThat(steady.latency().p95Ms().median()).isEqualTo(101.0);
        assertThat(steady.notes().flags().toString()).isEmpty();
        assertThat(steady.notes().runIds()).isEqualTo("webflux-l100-u5000-r1 webflux-l100-u5000-r2 webflux-l100-u5000-r3");

        Summary.PointRow unstable = Points.point(List.of(clean("webflux", 20000, 1, 12457, 101),
                clean("webflux", 20000, 2, 12345, 262), clean("webflux", 20000, 3, 12385, 159)), null);
        assertThat(unstable.notes().flags().toString()).isEqualTo(Flags.UNSTABLE);

        Summary.PointRow withKo = Points.point(List.of(run("mvc-t200", 10000, 1, 2050, 2132, 2659, 0.1, 0.1, true, 36, "ko 3.6% (HTTP 503)"),
                run("mvc-t200", 10000, 2, 2040, 2130, 2600, 0.1, 0.1, true, 30, "ko 3.0% (HTTP 503)")), null);
        assertThat(withKo.requests().koPercent()).as("median of 3.6 and 3.0").isCloseTo(3.3, within(1e-9));
        assertThat(withKo.notes().flags().toString()).as("one KO flag, from the median").isEqualTo("ko 3.3% (HTTP 503)");
        assertThat(withKo.rates().goodput().median()).as("goodput, not completions").isEqualTo(2045.0);
        assertThat(withKo.rates().throughput().median()).isEqualTo(2131.0);
    }

    @Test
    void nearTheCeilingAndFailedRunsAreFlagged() {
        MachineCeiling ceiling = new MachineCeiling("webflux", 10000, 2, 0.3, 0.2); // 4,000 req/s
        // the model offers 5,000 / 1.6 = 3,125 req/s: 78% of the ceiling
        assertThat(Points.point(List.of(clean("webflux", 5000, 1, 3111, 101)), ceiling).notes().flags().toString()).isEmpty();
        // 5,200 / 1.6 = 3,250: 81%
        Summary.PointRow near = Points.point(List.of(clean("webflux", 5200, 1, 3240, 101)), ceiling);
        assertThat(near.notes().flags().toString()).isEqualTo(Flags.NEAR_MACHINE_CEILING);
        assertThat(near.notes().machineCeiling()).isCloseTo(4000, within(1e-9));

        Summary.RunRow failed = Summary.RunRow.failed(new Summary.RunRow.Identity("webflux-l100-u5000-r2", "webflux", 5000, null, 100, 2),
                new Summary.RunRow.Outcome(Status.FAILED, "the target died"), "", null, null, 30L);
        Summary.PointRow partly = Points.point(List.of(clean("webflux", 5000, 1, 3111, 101), failed), null);
        assertThat(partly.outcome().runs()).isEqualTo(1);
        assertThat(partly.outcome().failedRuns()).isEqualTo(1);
        assertThat(partly.outcome().status()).isEqualTo(Status.DONE);
        assertThat(partly.notes().flags().toString()).isEqualTo("1 of 2 runs failed");
        Summary.PointRow none = Points.point(List.of(failed), null);
        assertThat(none.outcome().status()).isEqualTo(Status.FAILED);
        assertThat(none.outcome().reason()).isEqualTo("the target died");
    }

    /** A sweep of the default pacing (30 s ramp, 30 requests, think 1-2 s, 5 s warm-up) at 100 ms. */
    private static SweepPlan plan(List<String> targets, List<Integer> users, int repeats, int repeatsFromUsers, List<Double> rates,
            int levelSeconds, int injectors) {
        return new SweepPlan(new SweepPlan.Matrix(targets, users, List.of(100L)), new SweepPlan.PerRun(30, 30, 1000, 2000, "auto", 5),
                new SweepPlan.Ports(8091, 8092), new SweepPlan.Repeats(repeats, repeatsFromUsers), new SweepPlan.Levels(rates, levelSeconds, null), injectors,
                true,
                null);
    }
}
