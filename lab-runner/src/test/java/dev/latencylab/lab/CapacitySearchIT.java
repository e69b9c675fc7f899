package dev.latencylab.lab;

import static dev.latencylab.lab.LabCommand.assertNoStackTrace;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.lab.capacity.Capacity;
import dev.latencylab.lab.capacity.CapacitySearch;
import dev.latencylab.lab.flow.ExitCode;
import dev.latencylab.lab.format.Figures;
import dev.latencylab.lab.layout.FolderLock;
import dev.latencylab.lab.layout.SearchFolder;
import dev.latencylab.lab.page.Verdict;
import dev.latencylab.lab.run.TargetProcess;
import dev.latencylab.lab.run.Status;
import dev.latencylab.lab.summary.Stages;

/**
 * ./lab capacity finds the bound the model gives: four threads at 100 ms serve about 40 requests a second; and a search
 * cut short is a lower bound everywhere it is read.
 */
// on a CPU of its own: the capacity found is a measurement, and another test beside it would lower it
@OnOwnCpu
class CapacitySearchIT {

    @TempDir
    Path tmp;

    /**
     * The SLO here is p99 within 400 ms, not the default L + 100 ms: with 5-second levels a p99 is the second-slowest
     * of ~120 arrivals, so one stall of the shared machine over 100 ms can decide the default (seen in CI: the search
     * said 20, so a level between 20 and 40 missed; the message did not say which); 300 ms of slack keeps the test
     * about the pool, and 50 req/s (a quarter above T/L) still misses it by a second: ten more arrive each second than
     * four threads serve.
     */
    @Test
    void fourThreadsAt100MsServeAbout40RequestsPerSecond(OwnCpu cpu) {
        // 25 then 50, which misses (25% above T/L); the refinement climbs 25 again, then 33.3 and 41.7 (one may miss)
        LabCommand.Finished run = LabCommand.capacity(cpu, tmp, "mvc-t4", "--target", "mvc-t4", "--start-rate", "25", "--refine-rounds", "1",
                "--refine-levels", "2", "--slo", "p99:400");
        assertThat(run.exitCode()).as(run.output()).isZero();

        Capacity.Search r = Capacity.read(tmp.resolve("mvc-t4"));
        assertThat(r.bounds().modelCapacityPerSecond()).isEqualTo(40);
        assertThat(r.answer().bracketed()).as(run.output()).isTrue();
        assertThat(r.answer().capacityPerSecond()).as("the model says 40: T/L\n" + run.output()).isBetween(25.0, 45.0);
        assertThat(r.answer().firstMissPerSecond()).as(run.output()).isGreaterThan(r.answer().capacityPerSecond()).isLessThanOrEqualTo(50.0);
        assertThat(r.rounds()).as("a doubling ladder, then a refinement").hasSize(2)
                .allSatisfy(round -> assertThat(round.status()).isEqualTo(Status.DONE));
        assertThat(r.rounds().get(0).rates()).as("a doubling ladder up to --max-rate, stopped at 50").startsWith(25.0, 50.0);
        assertThat(r.rounds().get(1).rates()).as("the refinement climbs the first ladder again, then two levels between the last good "
                + "and the first miss").containsExactly(25.0, 33.3, 41.7);
        CapacitySearch.Level at = r.levels().stream().filter(l -> l.rate() == r.answer().capacityPerSecond() && Boolean.TRUE.equals(l.withinSlo()))
                .findFirst().orElseThrow();
        assertThat(at.latency().p99FromDueMs()).isBetween(100L, 400L);
        // the model's goodput: the rate sent, up to T/L (41.7 may be met while 4 threads serve 40 a second, a queue growing)
        double served = Math.min(at.rate(), r.bounds().modelCapacityPerSecond());
        assertThat(at.goodput()).as("min(rate, T/L) at %s req/s", at.rate()).isEqualTo(served, org.assertj.core.data.Offset.offset(served * 0.05));
        assertThat(r.levels()).filteredOn(l -> Boolean.FALSE.equals(l.withinSlo()))
                .allSatisfy(l -> assertThat(l.latency().p99FromDueMs()).as("a missed level's p99 from due").isGreaterThan(400));
        assertThat(run.output()).contains("latency-lab: capacity of mvc-t4: " + Figures.rate(r.answer().capacityPerSecond()) + " req/s");
        assertThat(run.output()).as("what bounded it, as the verdict of --report says it").contains("  bounded by " + Verdict.capacityBound(r));
        if (r.answer().firstMissPerSecond() >= 36) {
            // the first miss at or above 90% of T/L, the capacity below it: T/L between them is the pool's (33.3 met, 41.7
            // missed was once called "bounded by neither T/L 40 nor this machine's CPU, a finding")
            assertThat(r.bound()).as(run.output()).isEqualTo(Stages.Cause.POOL);
        }
        assertThat(tmp.resolve("mvc-t4/hockey-stick.png")).isNotEmptyFile();
        assertThat(tmp.resolve("mvc-t4/levels.csv")).isNotEmptyFile();

        Result first = ResultFile.read(tmp.resolve("mvc-t4/round-1/result.json"));
        assertThat(first.open().stoppedEarly()).as("the first ladder stops at its first miss").contains("missed the SLO");
        assertThat(first.model().poolBoundPerSecond()).isEqualTo(40);
        assertThat(first.target().properties()).containsEntry("server.tomcat.threads.max", "4");
        assertThat(ResultSchema.problems(tmp.resolve("mvc-t4/round-1/result.json"))).as("the published schema accepts it").isEmpty();
    }

    /**
     * A search cut short in its second ladder is a lower bound everywhere it is read. On its own CPU: its first ladder
     * must meet the SLO at 20 req/s, which a CPU shared with two other tests once failed (p99 from due 7,999 ms at 20 req/s,
     * the machine at 99%, in CI on 6 Dec 2026), and no second ladder followed.
     */
    @Test
    void aSearchStoppedInItsSecondLadderIsALowerBoundEverywhere(OwnCpu cpu) throws Exception {
        int port = Lab.freePort();
        // mvc-t4 at 100 ms: T/L 40 req/s, the first ladder 20, 40, 80 brackets it, the second refines it
        List<String> prefix = new java.util.ArrayList<>(List.of("setsid"));
        prefix.addAll(cpu.taskset());
        LabCommand lab = LabCommand.start(tmp.resolve("capacity.console"), prefix, "capacity", "--target", "mvc-t4", "--start-rate", "20", "--level-seconds",
                "5",
                "--ramp-seconds", "1", "--warmup-seconds", "1", "--slo", "p99:400", "--port", String.valueOf(port),
                "--results", tmp.toString(), "--name", "cut");
        lab.awaitLine("latency-lab: ladder 2:", Duration.ofMinutes(3));
        awaitIn(tmp.resolve("cut/round-2/gatling.log"), "each held", Duration.ofMinutes(1)); // the second ladder's load is under way
        lab.terminate();
        assertThat(lab.await(Duration.ofMinutes(2))).isEqualTo(143);

        String out = lab.output();
        assertThat(out).contains("latency-lab: capacity of mvc-t4: interrupted before the search finished: ");
        assertNoStackTrace(out);
        Path dir = tmp.resolve("cut");
        tools.jackson.databind.JsonNode record = tools.jackson.databind.json.JsonMapper.builder().build()
                .readTree(new SearchFolder(dir).capacityFile().toFile());
        assertThat(record.get("interrupted").asBoolean()).isTrue();
        assertThat(record.get("bracketed").asBoolean()).isFalse();
        assertThat(record.get("summary").asString()).startsWith("interrupted before the search finished");
        assertThat(record.get("rounds").get(1).get("status").asString()).isEqualTo("interrupted");
        assertThat(Files.size(dir.resolve("hockey-stick.png"))).isPositive();
        try (Stream<Path> files = Files.walk(dir)) {
            assertThat(files.map(f -> f.getFileName().toString())).as("no partial file, no lock left")
                    .noneMatch(f -> f.endsWith(".partial") || f.equals(FolderLock.NAME));
        }
        LabCommand.Finished report = LabCommand.inThisJvm("report", dir.toString());
        assertThat(report.exitCode()).as(report.output()).isZero();
        assertThat(report.output()).contains("(interrupted)");
        LabCommand.Finished old = LabCommand.inThisJvm("capacity", "--report", dir.toString());
        assertThat(old.exitCode()).as(old.output()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(old.output()).as("the old spelling names the new one").contains("capacity --report: retired; give ./lab report DIR");
    }

    /** Polls a file until it holds the text. */
    private static void awaitIn(Path file, String text, Duration max) throws IOException {
        long deadline = System.nanoTime() + max.toNanos();
        while (!(Files.isRegularFile(file) && Files.readString(file).contains(text))) {
            assertThat(System.nanoTime()).as("%s holds '%s' within %s", file, text, max).isLessThan(deadline);
            TargetProcess.sleep(200);
        }
    }
}
