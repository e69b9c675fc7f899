package dev.latencylab.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * The target's CPU read from /proc, not from its actuator: a real process that spins is seen using CPU, one that
 * sleeps is not, and a process's line is read right when its command holds spaces and parentheses.
 */
class SamplerServerCpuTest {

    @Test
    void aSpinningProcessUsesCpuAndASleepingOneDoesNot() throws Exception {
        Process spinning = new ProcessBuilder("bash", "-c", "while :; do :; done").start();
        Process sleeping = new ProcessBuilder("sleep", "30").start();
        try {
            long[] cpuBefore = Sampler.cpuTimes();
            long spinBefore = Sampler.processJiffies(spinning.pid());
            long sleepBefore = Sampler.processJiffies(sleeping.pid());
            assertThat(cpuBefore).as("/proc/stat").isNotNull();
            assertThat(spinBefore).isNotNegative();
            // the kernel counts CPU time in ticks (usually 100 a second): wait until the spinner has some
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (Sampler.processJiffies(spinning.pid()) < spinBefore + 50 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            long[] cpuNow = Sampler.cpuTimes();
            double spin = Sampler.processShare(spinBefore, Sampler.processJiffies(spinning.pid()), cpuBefore, cpuNow);
            double sleep = Sampler.processShare(sleepBefore, Sampler.processJiffies(sleeping.pid()), cpuBefore, cpuNow);
            int cores = Runtime.getRuntime().availableProcessors();
            assertThat(spin).as("one core of %d, busy", cores).isGreaterThan(0.5 / cores).isLessThanOrEqualTo(1.0);
            assertThat(sleep).isZero();
        }
        finally {
            spinning.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            sleeping.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        assertThat(Sampler.processJiffies(spinning.pid())).as("gone: no reading").isEqualTo(-1);
    }

    @Test
    void aStatLineIsReadAfterItsCommandWhateverTheCommandHolds() {
        String stat = "4242 (java (main) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 120 30 0 0 20 0 40 0 5000 1000 200";
        assertThat(Sampler.parseProcessJiffies(stat)).isEqualTo(150);
    }

    @Test
    void aShareIsTheProcesssTimeOverTheMachinesBusyIdleAndIowait() {
        long[] before = {100, 0, 50, 800, 50, 0, 0, 7};
        long[] now = {200, 0, 100, 1600, 100, 0, 0, 99}; // 1,000 ticks of busy, idle and iowait; steal not counted
        assertThat(Sampler.processShare(10, 260, before, now)).isCloseTo(0.25, within(1e-9));
        assertThat(Sampler.processShare(-1, 260, before, now)).isNaN();
        assertThat(Sampler.processShare(10, 260, null, now)).isNaN();
    }
}
