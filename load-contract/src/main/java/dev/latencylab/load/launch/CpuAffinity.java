package dev.latencylab.load.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;

/**
 * The CPUs a process may run on (its affinity: taskset, a cpuset), as the kernel lists them in /proc/PID/status: the
 * sampler reads a run's (the injector's and the target's), the integration tests lend one to each measuring test.
 */
public final class CpuAffinity {

    private CpuAffinity() {
    }

    /** The Cpus_allowed_list of /proc/PID/status ("self" for this JVM), or null where it cannot be read. */
    public static BitSet allowed(String pid) {
        try {
            return Files.readAllLines(Path.of("/proc", pid, "status")).stream().filter(l -> l.startsWith("Cpus_allowed_list:")).findFirst()
                    .map(l -> parseList(l.substring(l.indexOf(':') + 1))).orElse(null);
        }
        catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** A CPU list as the kernel writes it: "0-3,8,10-11". */
    public static BitSet parseList(String list) {
        BitSet cpus = new BitSet();
        for (String part : list.trim().split(",")) {
            int dash = part.indexOf('-');
            int from = Integer.parseInt(part.substring(0, dash < 0 ? part.length() : dash).trim());
            int to = dash < 0 ? from : Integer.parseInt(part.substring(dash + 1).trim());
            cpus.set(from, to + 1);
        }
        return cpus;
    }
}
