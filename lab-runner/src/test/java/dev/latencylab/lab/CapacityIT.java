package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.lab.capacity.Capacity;
import dev.latencylab.lab.flow.ExitCode;

/**
 * The open model through the real command line: ./lab capacity against real targets, and ./lab run with an open
 * rate (its bad input: BadInputIT).
 */
// on a CPU of its own: a level's p99 is a measurement; beside two other classes, in a slow spell of this machine,
// WebFlux's 80 req/s level missed (goodput 11, p99 539 ms from due)
@OnOwnCpu
class CapacityIT {

    @TempDir
    Path tmp;

    /**
     * The SLO here is p99 within 400 ms, as in CapacitySearchIT: the test is about the pool that WebFlux does not have,
     * not about the machine's stalls (80 req/s is a fraction of what WebFlux serves here).
     * Made twice (--repeats 2), as ./lab compare reads repeated searches: each found only a lower bound, so compare
     * says so and gives no interval.
     */
    @Test
    void webfluxIsNotBoundedBy40(OwnCpu cpu) {
        // 80 req/s is twice what mvc-t4's pool serves: a ladder of that one level, within the SLO
        LabCommand.Finished run = LabCommand.capacity(cpu, tmp, "webflux", "--target", "webflux", "--start-rate", "80", "--max-rate", "80", "--slo", "p99:400",
                "--repeats", "2");
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(tmp.resolve("webflux")).as("repeats are named <name>-r<k>").doesNotExist();
        for (String repeat : List.of("webflux-r1", "webflux-r2")) {
            Capacity.Search r = Capacity.read(tmp.resolve(repeat));
            assertThat(r.bounds().modelCapacityPerSecond()).as("no pool").isNull();
            assertThat(r.answer().firstMissPerSecond()).as(run.output()).isNull();
            assertThat(r.answer().capacityPerSecond()).isEqualTo(80);
            assertThat(r.rounds()).hasSize(1);
            assertThat(r.rounds().get(0).rates()).as("twice mvc-t4's 40").containsExactly(80.0);
            assertThat(r.bounds().machineCeilingPerSecond()).as("from the CPU of its busiest level").isPositive();
        }
        assertThat(run.output()).contains("at least 80 req/s").contains("search 2 of 2")
                .contains("capacities of the 2 searches: 80, 80 req/s; compare them with others: ./lab compare " + tmp.resolve("webflux"));

        LabCommand.Finished compared = LabCommand.inThisJvm("compare", tmp.resolve("webflux").toString(),
                tmp.resolve("webflux").toString());
        assertThat(compared.exitCode()).as(compared.output()).isZero();
        assertThat(compared.output()).contains("webflux-l100 (2 searches) -> webflux-l100 (2 searches), the same settings")
                .containsPattern("capacity req/s +80 +80 .* the same value on both sides")
                .contains("a capacity found only as a lower bound").contains("A webflux-r1, A webflux-r2, B webflux-r1, B webflux-r2; no interval")
                .contains("each search's capacity (and the rate that missed above it): A ≥ 80 (none), ≥ 80 (none); B ≥ 80 (none), ≥ 80 (none)");
        LabCommand.Finished again = LabCommand.inThisJvm("capacity", "--target", "webflux", "--repeats", "2", "--results", tmp.toString(), "--name",
                "webflux");
        assertThat(again.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(again.output()).contains("--name webflux: " + tmp + " already holds repeats of that name (webflux-r1, webflux-r2): give another --name");
    }

    @Test
    void anOpenRunAtARateSendsEveryArrivalOnceAndTimesItFromDue(OwnCpu cpu) throws Exception {
        LabCommand.Finished run = LabCommand.run(tmp.resolve("open.console"), cpu.taskset(), "run", "--target", "mvc-virtual",
                "--port", String.valueOf(Lab.freePort()), "--warmup-seconds", "1", "--rates", "40",
                "--level-seconds", "5", "--ramp-seconds", "1", "-Dsim.arrivals=poisson");
        assertThat(run.exitCode()).as(run.output()).isZero();
        Path file = Path.of(run.output().lines().filter(l -> l.startsWith("Result file: ")).findFirst().orElseThrow()
                .substring("Result file: ".length()));
        Result r = ResultFile.read(file);

        assertThat(r.parameters().open()).isTrue();
        assertThat(r.open().arrivals()).isEqualTo("poisson");
        assertThat(r.open().sent().arrivalsStarted()).isEqualTo(r.open().sent().plannedArrivals()).isEqualTo(r.requests().total());
        assertThat(r.requests().ko()).isZero();
        Result.Level level = r.open().levels().get(0);
        assertThat(level.counts().plannedArrivals()).as("Poisson: about 40/s for 5 s").isBetween(150L, 250L);
        // judged, by its own numbers: whether a 5 s level on a just-started JVM meets L + 100 ms is the machine's to say
        // (p99 from due 117-145 ms in four runs on a quiet machine; above 200 once in a CI run)
        long p99 = level.times().fromDueMs().p99();
        assertThat(level.withinSlo()).as("judged: every arrival answered").isNotNull();
        assertThat(level.verdict()).startsWith((level.withinSlo() ? "within" : "missed") + " the SLO: p99 from due %,d ms (SLO %,d)"
                .formatted(p99, r.open().slo().sloP99Ms()));
        if (level.withinSlo()) {
            assertThat(p99).isLessThanOrEqualTo(r.open().slo().sloP99Ms());
        }
        assertThat(level.times().fromDueMs().p50()).isGreaterThanOrEqualTo(level.times().responseTimeMs().p50()).isGreaterThanOrEqualTo(100);
        assertThat(r.open().fromDueMs().count()).isEqualTo(r.requests().total());
        assertThat(r.open().injectorLagMs().p50()).as("an idle injector starts arrivals on time").isLessThan(20);
        assertThat(r.model().saturated()).isFalse();
        assertThat(ResultSchema.problems(file)).isEmpty();
    }
}
