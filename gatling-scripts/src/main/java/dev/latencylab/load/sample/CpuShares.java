package dev.latencylab.load.sample;

import java.lang.management.ManagementFactory;
import java.util.BitSet;

import com.sun.management.OperatingSystemMXBean;

/**
 * The run's CPU each second, as shares of the cores it may use (all of the machine's, or a pinned run's: RunCpus): the
 * machine's busy and stolen time, the server's (its PID on this machine) and the injector's (this JVM), all over the
 * same jiffies. /proc/stat is the machine's, in a container too, where the JVM's getCpuLoad is the container's own
 * share; where /proc cannot tell, the JVM's own readings.
 */
final class CpuShares {

    /** A second's shares, 0 to 1 each; NaN where unread. */
    record Reading(double machine, double steal, double server, double injector) {
    }

    private static final long SELF = ProcessHandle.current().pid();

    private final OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final long targetPid;
    private final BitSet cpus;
    private long[] lastTimes;
    private long lastServer = -1;
    private long lastInjector = -1;

    /** @param targetPid the target's PID on this machine, or -1 */
    CpuShares(long targetPid) {
        this.targetPid = targetPid;
        this.cpus = RunCpus.of(targetPid);
    }

    /** The readings the next one counts from (the JVM's first reading of each is 0 or undefined): before the first read. */
    void prime() {
        os.getProcessCpuLoad();
        os.getCpuLoad();
        lastTimes = ProcCpu.cpuTimes(cpus);
        lastServer = ProcCpu.processJiffies(targetPid);
        lastInjector = ProcCpu.processJiffies(SELF);
    }

    /** The shares since the last reading. */
    Reading read() {
        long[] times = ProcCpu.cpuTimes(cpus);
        long server = ProcCpu.processJiffies(targetPid);
        long injector = ProcCpu.processJiffies(SELF);
        double machineShare = ProcCpu.busyShare(lastTimes, times);
        double serverShare = ProcCpu.processShare(lastServer, server, lastTimes, times);
        double injectorShare = ProcCpu.processShare(lastInjector, injector, lastTimes, times);
        Reading reading = new Reading(Double.isNaN(machineShare) ? os.getCpuLoad() : machineShare, ProcCpu.stealShare(lastTimes, times),
                serverShare, Double.isNaN(injectorShare) ? os.getProcessCpuLoad() : injectorShare);
        lastTimes = times;
        lastServer = server;
        lastInjector = injector;
        return reading;
    }

    /** The cores the shares are of: a pinned run's, else what the JVM may use (in a container, its CPU limit). */
    int cores() {
        return cpus != null ? cpus.cardinality() : os.getAvailableProcessors();
    }
}
