package dev.latencylab.load.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;

import dev.latencylab.load.launch.CpuAffinity;

/**
 * The CPUs a run may use: those its injector (this JVM) and its target may run on, by their affinity (taskset, a
 * cpuset). A run pinned to some of the machine's CPUs is bounded by those, not by the machine: at 100% of its one core
 * on a machine of two, the machine's "cpu" line reads 50% and the run would not be seen bound by its CPU. Its shares
 * are counted over its CPUs instead (their cpuN lines of /proc/stat).
 */
final class RunCpus {

    private RunCpus() {
    }

    /**
     * The CPUs this JVM and the target (its PID, or -1) may run on, or null where that is every CPU /proc/stat lists (the
     * machine's "cpu" line counts them) or where /proc cannot tell.
     */
    static BitSet of(long targetPid) {
        try {
            return pinned(Files.readAllLines(Path.of("/proc/stat")), CpuAffinity.allowed("self"),
                    targetPid > 0 ? CpuAffinity.allowed(Long.toString(targetPid)) : null);
        }
        catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The union of the injector's and the target's CPUs (a null target: the injector's) among those /proc/stat lists (an
     * allowed list may name CPUs that are offline), or null where it is every CPU listed.
     */
    static BitSet pinned(List<String> procStat, BitSet injector, BitSet target) {
        if (injector == null) {
            return null;
        }
        BitSet run = (BitSet) injector.clone();
        if (target != null) {
            run.or(target);
        }
        BitSet listed = new BitSet();
        for (String line : procStat) {
            int cpu = cpuNumber(line);
            if (cpu >= 0) {
                listed.set(cpu);
            }
        }
        run.and(listed);
        return run.equals(listed) ? null : run;
    }

    /** N of a "cpuN ..." line of /proc/stat, or -1 for any other line (the machine's "cpu" line among them). */
    static int cpuNumber(String line) {
        int space = line.indexOf(' ');
        if (!line.startsWith("cpu") || space <= 3) {
            return -1;
        }
        try {
            return Integer.parseInt(line.substring(3, space));
        }
        catch (NumberFormatException e) {
            return -1;
        }
    }
}
