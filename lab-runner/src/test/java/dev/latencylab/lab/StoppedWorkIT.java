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
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import dev.latencylab.lab.layout.FolderLock;
import dev.latencylab.lab.layout.SearchFolder;
import dev.latencylab.lab.run.TargetProcess;
import dev.latencylab.lab.flow.ExitCode;

/**
 * Work stopped before its end says so: a capacity search cut short is a lower bound everywhere it is read, and a
 * ./lab killed with SIGKILL leaves no process nor database running, which the next command says.
 */
class StoppedWorkIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path tmp;

    private Path console(String name) {
        return tmp.resolve(name + ".console");
    }

    @Test
    void aSearchStoppedInItsSecondLadderIsALowerBoundEverywhere() throws Exception {
        int port = Lab.freePort();
        // mvc-t4 at 100 ms: T/L 40 req/s, the first ladder 20, 40, 80 brackets it (20 met even with another test beside
        // it), the second refines it
        LabCommand lab = LabCommand.start(console("capacity"), List.of("setsid"), "capacity", "--target", "mvc-t4", "--start-rate", "20", "--level-seconds",
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
        JsonNode record = JSON.readTree(new SearchFolder(dir).capacityFile().toFile());
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

    /** A ./lab killed with SIGKILL, which it cannot catch, leaves nothing running. */
    @Test
    void aKilledLabLeavesNoProcessNorDatabaseAndTheNextCommandSaysSo() throws Exception {
        // its own results folder: the run folder it leaves would be noted by every test's ./lab run beside it
        String runs = tmp.resolve("killed runs").toString();
        LabCommand lab = LabCommand.start(console("sigkill"), "run", "--target", "webflux-db", "--port", String.valueOf(Lab.freePort()),
                "--results", runs, "--warmup-seconds", "1", "--users", "20", "--requests-per-user", "10", "--ramp-seconds", "2", "--think-min-ms", "500",
                "--think-max-ms", "1000");
        long postgres = Long.parseLong(lab.awaitLine("PostgreSQL [^ ]+ \\(embedded, pid ([0-9]+),", Duration.ofMinutes(2)));
        Path data = Path.of("/proc/" + postgres + "/cwd").toRealPath(); // the postmaster runs in its data folder
        Path folder = Path.of(lab.awaitLine("\\(run folder: (.+)\\)$", Duration.ZERO));
        lab.awaitLine("latency-lab: 20 users over", Duration.ofMinutes(2));
        List<ProcessHandle> started = ProcessHandle.of(lab.pid()).orElseThrow().descendants().toList();
        // named, not counted: the watchdog's sleep comes and goes each second (a count of 4 once saw 3)
        assertThat(started).extracting(p -> p.info().commandLine().orElse("")).as("the target, Gatling, PostgreSQL's watchdog")
                .anyMatch(c -> c.contains("webflux-with-latency")).anyMatch(c -> c.contains("-Dsim.users=20"))
                .anyMatch(c -> c.contains("while kill -0"));

        assertThat(new ProcessBuilder("kill", "-9", String.valueOf(lab.pid())).start().waitFor()).isZero();
        lab.await(Duration.ofSeconds(30));

        try {
            // the target sees its parent gone, PostgreSQL's watchdog stops it, Gatling's run ends (its target gone)
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (started.stream().anyMatch(ProcessHandle::isAlive) || Files.exists(data)) {
                assertThat(System.nanoTime()).as("left running: %s; data folder %s there: %s",
                        started.stream().filter(ProcessHandle::isAlive).map(p -> p.pid() + " " + p.info().commandLine().orElse("")).toList(),
                        data, Files.exists(data)).isLessThan(deadline);
                TargetProcess.sleep(500);
            }
            // the next command says what the killed one left
            LabCommand.Finished next = LabCommand.run(console("next"), "run", "--results", runs, "--target", "tomcat");
            assertThat(next.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
            assertThat(next.output()).contains("latency-lab: note: " + folder + " was left by ./lab pid " + lab.pid() + " (run --target webflux-db)");
            assertThat(Lab.repo().resolve("lab-runner/target/tmp/" + lab.pid())).as("its temporary files (PostgreSQL's detection script)")
                    .doesNotExist();
        }
        finally {
            started.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        }
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
