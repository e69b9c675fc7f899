package dev.latencylab.load.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import dev.latencylab.load.launch.CpuAffinity;

/**
 * A run pinned to some of the machine's CPUs (taskset, a cpuset) is counted over those: the kernel's CPU lists read,
 * the injector's and the target's joined, and the pinned CPUs' lines of /proc/stat summed; a run that may use every
 * CPU keeps the machine's own line.
 */
class RunCpusTest {

    private static final List<String> STAT = List.of("cpu  300 0 30 700 10 0 0 5 0 0", "cpu0 200 0 20 300 5 0 0 3 0 0",
            "cpu1 100 0 10 400 5 0 0 2 0 0", "intr 12345 0 0", "ctxt 999");

    private static BitSet cpus(int... numbers) {
        BitSet set = new BitSet();
        for (int n : numbers) {
            set.set(n);
        }
        return set;
    }

    @Test
    void aCpuListIsReadAsTheKernelWritesIt() {
        assertThat(CpuAffinity.parseList("0-3,8,10-11\n")).isEqualTo(cpus(0, 1, 2, 3, 8, 10, 11));
        assertThat(CpuAffinity.parseList(" 1")).isEqualTo(cpus(1));
        assertThat(RunCpus.cpuNumber("cpu12 1 2 3")).isEqualTo(12);
        assertThat(RunCpus.cpuNumber("cpu  1 2 3")).as("the machine's line").isEqualTo(-1);
        assertThat(RunCpus.cpuNumber("ctxt 999")).isEqualTo(-1);
    }

    @Test
    void aRunIsPinnedWhereItsInjectorAndTargetTogetherLeaveACpuOut() {
        assertThat(RunCpus.pinned(STAT, cpus(0), null)).isEqualTo(cpus(0));
        assertThat(RunCpus.pinned(STAT, cpus(0), cpus(0))).isEqualTo(cpus(0));
        assertThat(RunCpus.pinned(STAT, cpus(0), cpus(1))).as("both CPUs between them: the machine's line").isNull();
        assertThat(RunCpus.pinned(STAT, cpus(0, 1), null)).isNull();
        assertThat(RunCpus.pinned(STAT, null, cpus(1))).as("the injector's unread").isNull();
        assertThat(RunCpus.pinned(STAT, CpuAffinity.parseList("0,2-127"), null)).as("allowed but not listed (offline): not counted").isEqualTo(cpus(0));
        assertThat(RunCpus.pinned(STAT, CpuAffinity.parseList("0-127"), null)).isNull();
    }

    @Test
    void aPinnedRunsTimesAreItsCpusLines() {
        assertThat(ProcCpu.cpuTimes(STAT, null)).containsExactly(300, 0, 30, 700, 10, 0, 0, 5);
        assertThat(ProcCpu.cpuTimes(STAT, cpus(1))).containsExactly(100, 0, 10, 400, 5, 0, 0, 2);
        assertThat(ProcCpu.cpuTimes(STAT, cpus(0, 1))).containsExactly(300, 0, 30, 700, 10, 0, 0, 5);
        assertThat(ProcCpu.cpuTimes(STAT, cpus(7))).as("no such CPU").isNull();
    }

    /** The kernel's own list for a process started with taskset, read from /proc as the sampler reads the target's. */
    @Test
    void aProcessStartedWithTasksetIsReadPinned() throws Exception {
        Assumptions.assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "two CPUs or more");
        Process pinned = new ProcessBuilder("taskset", "-c", "1", "sleep", "30").start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            // taskset sets its CPUs, then becomes sleep: read the list once it has
            while (System.nanoTime() < deadline && !pinned.info().command().orElse("").endsWith("sleep")) {
                Thread.sleep(20);
            }
            assertThat(CpuAffinity.allowed(Long.toString(pinned.pid()))).isEqualTo(cpus(1));
            assertThat(CpuAffinity.allowed("self").cardinality()).as("this JVM, not pinned").isGreaterThanOrEqualTo(2);
        }
        finally {
            pinned.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
