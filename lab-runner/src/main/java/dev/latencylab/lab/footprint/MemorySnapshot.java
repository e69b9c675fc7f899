package dev.latencylab.lab.footprint;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.latencylab.lab.run.TargetProcess.TargetFailedException;

/**
 * Where a target's memory is, read right after a forced GC: the kernel's count of its resident pages and threads
 * (/proc/PID/status), the JVM's own (heap and non-heap used and committed, live platform threads: see JvmGauges) and
 * Native Memory Tracking's summary by category (jcmd, from the JDK this runner and the target run on).
 *
 * @param rssBytes         resident set size (VmRSS): what a container's memory limit counts
 * @param osThreads        the process's threads as the kernel counts them (virtual threads are not among them)
 * @param liveThreads      the JVM's live platform threads (jvm.threads.live)
 * @param sockets          the process's open sockets (/proc/PID/fd)
 * @param heapUsedBytes    heap in use after the GC: live objects, a virtual thread's stack among them
 * @param heapCommittedBytes heap the JVM has committed
 * @param nonHeapUsedBytes metaspace and code cache in use
 * @param directBufferBytes NIO direct buffers (jvm.buffer.memory.used, id direct)
 * @param nativeCommittedKiB NMT's committed KiB by category, "Total" first (e.g. Thread, Java Heap, Other)
 * @param threadStacks     NMT's count of threads and their stacks' committed KiB
 * @param heapClasses      the live heap's largest classes by bytes ({@value #HEAP_CLASSES} at most, largest first)
 */
public record MemorySnapshot(long rssBytes, int osThreads, long liveThreads, int sockets, long heapUsedBytes,
        long heapCommittedBytes, long nonHeapUsedBytes, long directBufferBytes, Map<String, Long> nativeCommittedKiB,
        ThreadStacks threadStacks, List<HeapClass> heapClasses) {

    /** One line of the class histogram: a class, its live instances and their bytes. */
    public record HeapClass(String name, long instances, long bytes) {
    }

    /** How many of the histogram's classes a snapshot keeps: enough that what a count adds is among them. */
    static final int HEAP_CLASSES = 40;

    /** NMT's Thread category: the threads it counts and the KiB their stacks have committed (touched). */
    public record ThreadStacks(long threads, long committedKiB) {
    }

    /** The JVM option that makes jcmd's VM.native_memory answer; costs a little memory and CPU (its own category). */
    public static final String NATIVE_MEMORY_TRACKING = "-XX:NativeMemoryTracking=summary";

    private static final Pattern CATEGORY = Pattern.compile("(?m)^-\\s+(.+?) \\(reserved=\\d+KB, committed=(\\d+)KB");
    private static final Pattern TOTAL = Pattern.compile("(?m)^Total: reserved=\\d+KB, committed=(\\d+)KB");
    private static final Pattern THREADS = Pattern.compile("\\(threads? #(\\d+)\\)\\s*\\(stack: reserved=\\d+KB, committed=(\\d+)KB");
    private static final Pattern HISTOGRAM = Pattern.compile("(?m)^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)");
    private static final Pattern STATUS = Pattern.compile("(?m)^(VmRSS|Threads):\\s+(\\d+)");

    /**
     * Forces a full GC in the JVM of pid (the class histogram of live objects does: it collects first), then reads it:
     * the JVM's own gauges last, from where they are (see JvmGauges).
     */
    static MemorySnapshot afterGc(long pid, java.util.function.Supplier<JvmGauges> gauges) {
        List<HeapClass> classes = new ArrayList<>();
        for (Matcher m = HISTOGRAM.matcher(jcmd(pid, "GC.class_histogram")); m.find() && classes.size() < HEAP_CLASSES;) {
            classes.add(new HeapClass(m.group(3), Long.parseLong(m.group(1)), Long.parseLong(m.group(2))));
        }
        String nmt = jcmd(pid, "VM.native_memory", "summary", "scale=KB");
        Map<String, Long> status = status(pid);
        Map<String, Long> nativeKiB = new LinkedHashMap<>();
        Matcher total = TOTAL.matcher(nmt);
        Matcher stacks = THREADS.matcher(nmt);
        if (!total.find() || !stacks.find()) {
            throw new TargetFailedException("jcmd VM.native_memory gave no summary (is " + NATIVE_MEMORY_TRACKING + " on?): "
                    + nmt.lines().limit(3).toList());
        }
        nativeKiB.put("Total", Long.parseLong(total.group(1)));
        for (Matcher m = CATEGORY.matcher(nmt); m.find();) {
            nativeKiB.put(m.group(1).strip(), Long.parseLong(m.group(2)));
        }
        JvmGauges jvm = gauges.get();
        return new MemorySnapshot(status.get("VmRSS") * 1024, status.get("Threads").intValue(), jvm.liveThreads(), sockets(pid),
                jvm.heapUsedBytes(), jvm.heapCommittedBytes(), jvm.nonHeapUsedBytes(), jvm.directBufferBytes(), nativeKiB,
                new ThreadStacks(Long.parseLong(stacks.group(1)), Long.parseLong(stacks.group(2))), classes);
    }

    /** VmRSS in KiB and Threads from /proc/PID/status. */
    private static Map<String, Long> status(long pid) {
        try {
            Map<String, Long> found = new LinkedHashMap<>();
            Matcher m = STATUS.matcher(Files.readString(Path.of("/proc", String.valueOf(pid), "status")));
            while (m.find()) {
                found.put(m.group(1), Long.parseLong(m.group(2)));
            }
            return found;
        }
        catch (IOException e) {
            throw new TargetFailedException("cannot read /proc/" + pid + "/status (a footprint needs Linux): " + e.getMessage());
        }
    }

    /** The process's open sockets: its file descriptors that link to socket:[inode]. */
    static int sockets(long pid) {
        try (Stream<Path> fds = Files.list(Path.of("/proc", String.valueOf(pid), "fd"))) {
            int n = 0;
            for (Path fd : fds.toList()) {
                try {
                    if (Files.readSymbolicLink(fd).toString().startsWith("socket:")) {
                        n++;
                    }
                }
                catch (IOException closed) {
                    // closed while listed
                }
            }
            return n;
        }
        catch (IOException e) {
            throw new TargetFailedException("cannot list /proc/" + pid + "/fd: " + e.getMessage());
        }
    }

    /** Runs jcmd of the JDK this runner runs on (the targets' too) against pid; its output. */
    private static String jcmd(long pid, String... command) {
        List<String> args = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), String.valueOf(pid)));
        args.addAll(List.of(command));
        try {
            Process p = new ProcessBuilder(args).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new TargetFailedException(String.join(" ", args) + " failed: " + out.strip());
            }
            return out;
        }
        catch (IOException e) {
            throw new TargetFailedException("cannot run " + String.join(" ", args) + ": " + e.getMessage());
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TargetFailedException("interrupted");
        }
    }
}
