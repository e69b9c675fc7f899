package dev.latencylab.load.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;

/**
 * CPU time as Linux counts it in /proc, in jiffies: the machine's (/proc/stat, the machine's in a container too; a
 * pinned run's CPUs alone: RunCpus) and a process's (/proc/PID/stat), and the shares of those cores they make between
 * two readings. Where there is no /proc, each reading is null or -1 and each share NaN.
 */
final class ProcCpu {

    private ProcCpu() {
    }

    /**
     * The machine's CPU times since boot, in jiffies: the "cpu" line of /proc/stat (user nice system idle iowait irq
     * softirq steal; the guest columns are already in user and nice), or with cpus the sum of their cpuN lines (a run
     * pinned to them: RunCpus). Null where there is no /proc/stat.
     */
    static long[] cpuTimes(BitSet cpus) {
        try {
            return cpuTimes(Files.readAllLines(Path.of("/proc/stat")), cpus);
        }
        catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The machine's CPU times since boot: all its CPUs' (cpus null) or these CPUs', from the lines of /proc/stat. */
    static long[] cpuTimes(List<String> procStat, BitSet cpus) {
        if (cpus == null) {
            return parseCpuTimes(procStat.get(0));
        }
        long[] sum = new long[8];
        int read = 0;
        for (String line : procStat) {
            int cpu = RunCpus.cpuNumber(line);
            if (cpu >= 0 && cpus.get(cpu)) {
                long[] times = parseCpuTimes(line);
                for (int i = 0; i < sum.length; i++) {
                    sum[i] += times[i];
                }
                read++;
            }
        }
        return read == 0 ? null : sum;
    }

    static long[] parseCpuTimes(String cpuLine) {
        String[] f = cpuLine.trim().split("\\s+");
        long[] times = new long[8];
        for (int i = 0; i < 8 && i + 1 < f.length; i++) {
            times[i] = Long.parseLong(f[i + 1]);
        }
        return times;
    }

    /**
     * Steal: the share of the machine's CPU time that its hypervisor gave to other guests between two readings
     * (0 to 1; a busy neighbour shows here, not in this machine's own CPU use). NaN without two readings.
     */
    static double stealShare(long[] before, long[] now) {
        if (before == null || now == null) {
            return Double.NaN;
        }
        long total = 0;
        for (int i = 0; i < 8; i++) {
            total += now[i] - before[i];
        }
        return total <= 0 ? Double.NaN : (double) (now[7] - before[7]) / total;
    }

    /**
     * The machine's CPU use between two readings (0 to 1 of the cores read): user, nice, system, irq and softirq time over
     * that plus idle and iowait, as the JVM computes getCpuLoad outside a container (steal is neither: time the
     * hypervisor gave elsewhere). NaN without two readings.
     */
    static double busyShare(long[] before, long[] now) {
        if (before == null || now == null) {
            return Double.NaN;
        }
        long busy = 0;
        for (int i : new int[] {0, 1, 2, 5, 6}) {
            busy += now[i] - before[i];
        }
        long total = busy + (now[3] - before[3]) + (now[4] - before[4]);
        return total <= 0 ? Double.NaN : (double) busy / total;
    }

    /** A process's CPU time since it started, in jiffies (utime + stime in /proc/PID/stat); -1 where it cannot be read. */
    static long processJiffies(long pid) {
        if (pid <= 0) {
            return -1;
        }
        try {
            return parseProcessJiffies(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
        }
        catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * utime + stime of a /proc/PID/stat line: its 14th and 15th fields, counted after the command's closing parenthesis
     * (a command may hold spaces and parentheses of its own).
     */
    static long parseProcessJiffies(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 1).trim().split("\\s+");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /**
     * A process's share of the machine's CPU between two readings (0 to 1 of the cores read), over the time busyShare
     * counts (busy, idle and iowait; not steal). NaN without both readings of both.
     */
    static double processShare(long before, long now, long[] cpuBefore, long[] cpuNow) {
        if (before < 0 || now < before || cpuBefore == null || cpuNow == null) {
            return Double.NaN;
        }
        long total = 0;
        for (int i = 0; i < 7; i++) {
            total += cpuNow[i] - cpuBefore[i];
        }
        return total <= 0 ? Double.NaN : (double) (now - before) / total;
    }
}
