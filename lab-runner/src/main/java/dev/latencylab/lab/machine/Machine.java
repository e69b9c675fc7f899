package dev.latencylab.lab.machine;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import com.sun.management.OperatingSystemMXBean;

/** What a sweep ran on and with: stated on its page, since its numbers mean little without it. */
public final class Machine {

    /** How long the CPU probe runs its rounds (see {@link #cpuProbe}). */
    private static final Duration PROBE_TIME = Duration.ofMillis(200);

    private Machine() {
    }

    /** The machine's memory (its container's limit where one applies). */
    public static long memoryBytes() {
        return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getTotalMemorySize();
    }

    /** The most files (sockets among them) this process may have open; null where the OS does not say. */
    public static Long openFilesLimit() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean u
                ? u.getMaxFileDescriptorCount() : null;
    }

    /** This machine now, as a sweep records the machine it began on. */
    public static Description describe() {
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        return new Description(Runtime.getRuntime().availableProcessors(), Math.round(memoryBytes() / 1024.0 / 1024 / 1024 * 10) / 10.0,
                cpuModel(), System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version") + " (" + System.getProperty("java.home") + ")",
                openFilesLimit(), os.getSystemLoadAverage() < 0 ? null : os.getSystemLoadAverage(), bootId(), cpuProbe(),
                "injector (Gatling) and server share this machine");
    }

    /**
     * The machine a sweep began on, as its sweep.json records it: cores, memory, CPU model, OS, JDK, the open-files
     * limit, the load average and boot id then (null where the OS does not say), the CPU probe, and a note.
     */
    public record Description(int cores, double memoryGiB, String cpu, String os, String jdk, Long openFilesLimit,
            Double loadAverageAtStart, String bootId, CpuProbe cpuProbe, String note) {
    }

    /** A fixed workload's speed on this machine (see {@link #cpuProbe}). */
    public record CpuProbe(String workload, Double mibPerSecond) {
    }

    /**
     * What a run records of the machine it ran on: its boot (another machine, or a reboot, has another), CPU model and
     * the CPU probe now, so that the runs of a sweep resumed elsewhere can be told apart and compared.
     */
    public static Fingerprint fingerprint() {
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        return new Fingerprint(bootId(), cpuModel(), Runtime.getRuntime().availableProcessors(),
                os.getSystemLoadAverage() < 0 ? null : os.getSystemLoadAverage(), cpuProbe().mibPerSecond());
    }

    /** The machine a run ran on (see {@link #fingerprint}); bootId and loadAverage null where the OS does not say. */
    public record Fingerprint(String bootId, String cpu, int cores, Double loadAverage, Double cpuProbeMibPerSecond) {
    }

    /** Linux's id of this boot; null elsewhere. */
    public static String bootId() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).trim();
        }
        catch (IOException e) {
            return null;
        }
    }

    public static Map<String, String> versions() {
        Properties p = new Properties();
        try (InputStream in = Machine.class.getResourceAsStream("/latency-lab-versions.properties")) {
            if (in != null) {
                p.load(in);
            }
        }
        catch (IOException e) {
            // stated as unknown below
        }
        Map<String, String> m = new LinkedHashMap<>();
        p.stringPropertyNames().stream().sorted().forEach(k -> m.put(k, p.getProperty(k)));
        return m;
    }

    /**
     * A short fixed single-thread workload, so that two machines can be compared by one number (with the same JDK):
     * machines of one kind have differed by 1.7 times in CPU per request. Rounds of SHA-256 over 16 MiB for 0.2 s (at
     * least three), the best one counting: its cost stays a fraction of a second whatever compiles it (JIT's first tier
     * has no SHA intrinsic: three rounds over 64 MiB, as before, took 1.5 s there), and the many rounds a fast machine
     * runs in 0.2 s make the best one steadier than the best of three (the same MiB/s on average, measured side by side).
     */
    static CpuProbe cpuProbe() {
        byte[] data = new byte[16 * 1024 * 1024];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 31 + (i >>> 8));
        }
        long best = Long.MAX_VALUE;
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            long until = System.nanoTime() + PROBE_TIME.toNanos();
            for (int round = 0; round < 3 || System.nanoTime() < until; round++) {
                long start = System.nanoTime();
                sha.digest(data);
                best = Math.min(best, System.nanoTime() - start);
            }
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        return new CpuProbe("SHA-256 of 16 MiB in one thread, best round of 0.2 s", Math.round(16 / (best / 1e9) * 10) / 10.0);
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse("unknown");
        }
        catch (IOException e) {
            return "unknown";
        }
    }
}
