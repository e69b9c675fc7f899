package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.latencylab.lab.run.TargetProcess;
import dev.latencylab.lab.flow.ExitCode;

/**
 * Work stopped before its end says so: a ./lab killed with SIGKILL leaves no process nor database running, which the
 * next command says (a capacity search cut short: CapacitySearchIT, on a CPU of its own).
 */
class StoppedWorkIT {

    @TempDir
    Path tmp;

    private Path console(String name) {
        return tmp.resolve(name + ".console");
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
}
