package dev.latencylab.load.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * CPU time from /proc: the machine's shares (busy, stolen) from its counters, and a process's, read for the target
 * instead of its actuator: a real process that spins is seen using CPU, one that sleeps is not, and a process's line
 * is read right when its command holds spaces and parentheses.
 */
class ProcCpuTest {

    @Test
    void aSpinningProcessUsesCpuAndASleepingOneDoesNot() throws Exception {
        Process spinning = new ProcessBuilder("bash", "-c", "while :; do :; done").start();
        Process sleeping = new ProcessBuilder("sleep", "30").start();
        try {
            long[] cpuBefore = ProcCpu.cpuTimes(null);
            long spinBefore = ProcCpu.processJiffies(spinning.pid());
            long sleepBefore = ProcCpu.processJiffies(sleeping.pid());
            assertThat(cpuBefore).as("/proc/stat").isNotNull();
            assertThat(spinBefore).isNotNegative();
            // the kernel counts CPU time in ticks (usually 100 a second): wait until the spinner has some
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (ProcCpu.processJiffies(spinning.pid()) < spinBefore + 50 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            long[] cpuNow = ProcCpu.cpuTimes(null);
            double spin = ProcCpu.processShare(spinBefore, ProcCpu.processJiffies(spinning.pid()), cpuBefore, cpuNow);
            double sleep = ProcCpu.processShare(sleepBefore, ProcCpu.processJiffies(sleeping.pid()), cpuBefore, cpuNow);
            // how much of a core the spinner got is the machine's to say (another build beside it takes its share): the
            // reading is within what the machine as a whole was busy with, and not nothing
            double busy = ProcCpu.busyShare(cpuBefore, cpuNow);
            assertThat(spin).as("a share of the machine's busy time (%.3f)", busy).isPositive().isLessThanOrEqualTo(busy + 0.02);
            assertThat(sleep).isZero();
        }
        finally {
            spinning.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            sleeping.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        assertThat(ProcCpu.processJiffies(spinning.pid())).as("gone: no reading").isEqualTo(-1);
    }

    @Test
    void aStatLineIsReadAfterItsCommandWhateverTheCommandHolds() {
        String stat = "4242 (java (main) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 120 30 0 0 20 0 40 0 5000 1000 200";
        assertThat(ProcCpu.parseProcessJiffies(stat)).isEqualTo(150);
    }

    @Test
    void aShareIsTheProcesssTimeOverTheMachinesBusyIdleAndIowait() {
        long[] before = {100, 0, 50, 800, 50, 0, 0, 7};
        long[] now = {200, 0, 100, 1600, 100, 0, 0, 99}; // 1,000 ticks of busy, idle and iowait; steal not counted
        assertThat(ProcCpu.processShare(10, 260, before, now)).isCloseTo(0.25, within(1e-9));
        assertThat(ProcCpu.processShare(-1, 260, before, now)).isNaN();
        assertThat(ProcCpu.processShare(10, 260, null, now)).isNaN();
    }

    @Test
    void stealIsTheShareOfAllCpuTimeTheHypervisorTookBetweenTwoReadings() {
        long[] before = ProcCpu.parseCpuTimes("cpu  484497 469 37623 716414 4719 0 1733 891 0 0");
        long[] after = ProcCpu.parseCpuTimes("cpu  484597 469 37643 716474 4719 0 1733 911 5 0");
        // 100 user + 20 system + 60 idle + 20 steal = 200 jiffies, 20 of them stolen
        assertThat(ProcCpu.stealShare(before, after)).isEqualTo(0.1);
        assertThat(ProcCpu.stealShare(null, after)).isNaN();
        assertThat(ProcCpu.stealShare(after, after)).as("no time passed").isNaN();
    }

    @Test
    void machineCpuIsTheBusyShareOfTheMachinesTimeWithoutSteal() {
        long[] before = ProcCpu.parseCpuTimes("cpu  484497 469 37623 716414 4719 0 1733 891 0 0");
        long[] after = ProcCpu.parseCpuTimes("cpu  484597 469 37643 716474 4719 0 1733 911 5 0");
        // 100 user + 20 system busy, 60 idle; the 20 stolen are neither
        assertThat(ProcCpu.busyShare(before, after)).isEqualTo(120.0 / 180);
        assertThat(ProcCpu.busyShare(null, after)).isNaN();
        assertThat(ProcCpu.busyShare(after, after)).as("no time passed").isNaN();
    }

    /**
     * On this machine (no container), the machine's CPU from /proc/stat is what the JVM reports over the same second.
     * The two windows differ by a few milliseconds, so a burst of another process at their edge can part them: up to
     * five tries, each a second, and one within 0.1 passes; a wrong reading of /proc/stat misses all five.
     */
    @Test
    void machineCpuFromProcStatIsTheJvmsOutsideAContainer() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isReadable(java.nio.file.Path.of("/proc/stat")), "Linux only");
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean();
        List<String> tries = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) {
            os.getCpuLoad();
            long[] before = ProcCpu.cpuTimes(null);
            Thread.sleep(1000);
            long[] after = ProcCpu.cpuTimes(null);
            double jvm = os.getCpuLoad();
            // both over about the same second (the JVM's from its previous call); a jiffy is 1% of a core-second
            double proc = ProcCpu.busyShare(before, after);
            if (Math.abs(proc - jvm) <= 0.1) {
                return;
            }
            tries.add("/proc/stat %.2f, the JVM %.2f".formatted(proc, jvm));
        }
        org.junit.jupiter.api.Assertions.fail("five seconds apart by more than 0.1: " + tries);
    }
}
