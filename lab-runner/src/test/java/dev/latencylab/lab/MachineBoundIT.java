package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;

/**
 * This machine's CPU as the bound, where a run may use only some of it: ./lab started with taskset on one CPU, as a user
 * keeps a run off the others. Its CPU shares are of that CPU, so the verdict names the machine where the run filled it
 * (read over all the machine's CPUs, the one full CPU of two was 50%, and the verdict called the run a finding).
 */
class MachineBoundIT {

    @TempDir
    Path tmp;

    /**
     * 100 users without think time on /hello/1: injector and server on one CPU fill it within the first second (about
     * 1,900 req/s here), beside other tests too, whose work on that CPU only keeps it fuller.
     */
    @Test
    void aRunPinnedToOneCpuThatFillsItIsBoundedByThisMachinesCpu() throws Exception {
        LabCommand lab = LabCommand.start(tmp.resolve("pinned.console"), List.of("taskset", "-c", "0"), "run", "--target", "webflux", "--port",
                String.valueOf(Lab.freePort()), "--latency-ms", "1", "--users", "100", "--requests-per-user", "100", "--think-min-ms", "0",
                "--think-max-ms", "0", "--ramp-seconds", "1", "--warmup-seconds", "1", "--no-gatling-report", "--no-live", "--results",
                tmp.toString());
        assertThat(lab.await(Duration.ofMinutes(3))).as(lab.output()).isZero();
        assertThat(lab.output()).contains("bounded by the offered load: this machine's CPU bounded it first").containsPattern("flags: .*machine-cpu-bound");
        Path file = Path.of(lab.awaitLine("^Result file: (.+)$", Duration.ZERO));
        Result r = ResultFile.read(file);
        assertThat(r.injector().cores()).as("the CPUs the run may use").isEqualTo(1);
        assertThat(r.plateau().machineCpu()).as("the one CPU, full").isGreaterThanOrEqualTo(0.9);
        assertThat(r.plateau().serverCpu() + r.plateau().injectorCpu()).as("server and injector: shares of that CPU")
                .isLessThanOrEqualTo(r.plateau().machineCpu() + 0.05);
        assertThat(ResultSchema.problems(file)).isEmpty();
    }
}
