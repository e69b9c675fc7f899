package dev.latencylab.lab.footprint;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.latencylab.lab.footprint.Footprint.Measurement;
import dev.latencylab.lab.footprint.Footprint.Mode;
import dev.latencylab.lab.layout.FootprintFolder;
import dev.latencylab.lab.run.Status;
import dev.latencylab.lab.run.TargetProcess;
import dev.latencylab.lab.run.TargetProcess.TargetFailedException;
import dev.latencylab.lab.targets.Target;

/**
 * Runs a footprint experiment: for each repeat, mode, target and count, a fresh target (Native Memory Tracking on)
 * holds that many connections; once they are held and a moment has passed, a forced GC, then its memory is read and
 * the hold checked again; then the connections are reset and the target killed. footprint.json is written after each
 * measurement, so a stop keeps every one done; run again with the same folder, it measures only what is missing.
 */
public final class FootprintExperiment {

    /** How often the hold is checked while the connections open. */
    private static final long POLL_MS = 50;
    /** Requests on each path before a count is held (see warm). */
    private static final int WARMUP_REQUESTS = 50;
    /** The most to wait for the target to close the warm-up's connections. */
    private static final Duration WARMUP_CLOSE = Duration.ofSeconds(10);

    private final Path repo;
    private final FootprintFolder folder;
    private final AtomicBoolean stopped = new AtomicBoolean();
    /** Where each measurement is said as it is written. */
    private final java.io.PrintWriter out;
    private Footprint footprint;

    public FootprintExperiment(Path repo, FootprintFolder folder, Footprint start, java.io.PrintWriter out) {
        this.repo = repo;
        this.folder = folder;
        this.footprint = start;
        this.out = out;
    }

    /** A signal came: the measurement under way is its last. */
    public void stopping() {
        stopped.set(true);
    }

    public Footprint footprint() {
        return footprint;
    }

    /** Measures every point not done yet, in order; returns the experiment with them. */
    public Footprint run() {
        Footprint.Settings s = footprint.settings();
        for (int repeat = 1; repeat <= s.repeats(); repeat++) {
            for (Mode mode : s.modes()) {
                for (String id : s.targets()) {
                    for (int count : s.counts()) {
                        if (stopped.get()) {
                            return footprint;
                        }
                        if (footprint.measurement(id, mode, count, repeat).isPresent()) {
                            continue;
                        }
                        Measurement m = measure(id, mode, count, repeat);
                        footprint = footprint.without(m).with(m);
                        footprint.write(folder);
                        out.println("latency-lab: footprint " + describe(m));
                    }
                }
            }
        }
        return footprint;
    }

    private Measurement measure(String id, Mode mode, int count, int repeat) {
        Footprint.Settings s = footprint.settings();
        String name = Measurement.name(id, mode, count, repeat);
        try (Subject subject = Subject.start(repo, id, s, folder.targetLog(name))) {
            warm(subject);
            long started = System.nanoTime();
            try (Connections c = Connections.open(subject.port(), count, subject.path(mode, s.holdSeconds()), mode == Mode.IDLE)) {
                if (mode == Mode.IN_FLIGHT) {
                    awaitWaiting(subject, count, Duration.ofSeconds(s.holdSeconds() / 2));
                }
                double secondsToHold = (System.nanoTime() - started) / 1e9;
                TargetProcess.sleep(s.settleSeconds() * 1000);
                MemorySnapshot memory = subject.afterGc();
                long held = mode == Mode.IN_FLIGHT ? subject.waiting() : c.stillOpen();
                double seconds = (System.nanoTime() - started) / 1e9;
                if (held != count) {
                    return failed(id, mode, count, repeat, held, "%d of %d %s held after the reading, %.1f s after the first"
                            .formatted(held, count, mode.words(), seconds));
                }
                if (mode == Mode.IN_FLIGHT && seconds >= s.holdSeconds()) {
                    return failed(id, mode, count, repeat, held, "the reading ended %.1f s after the first request, past its %d s hold"
                            .formatted(seconds, s.holdSeconds()));
                }
                return new Measurement(id, mode, count, repeat, Status.DONE, null, held, Math.round(secondsToHold * 10) / 10.0, memory);
            }
        }
        catch (TargetFailedException e) {
            return failed(id, mode, count, repeat, null, e.getMessage());
        }
    }

    /**
     * A few requests on each of its warm-up paths before any count is held: the first requests load classes and fill
     * caches for good, which a count of 0 would otherwise be alone in lacking.
     */
    private static void warm(Subject subject) {
        int before = MemorySnapshot.sockets(subject.pid());
        for (String path : subject.warmPaths()) {
            Connections.open(subject.port(), WARMUP_REQUESTS, path, true).close();
        }
        // the target closes its side of the reset connections when it notices them: until then they count as its
        // sockets, and a count of 0 read at once would hold some of them (seen: 7 of 100 with --settle-seconds 0)
        long deadline = System.nanoTime() + WARMUP_CLOSE.toNanos();
        while (MemorySnapshot.sockets(subject.pid()) > before && System.nanoTime() < deadline) {
            TargetProcess.sleep(POLL_MS);
        }
    }

    private static Measurement failed(String id, Mode mode, int count, int repeat, Long held, String why) {
        return new Measurement(id, mode, count, repeat, Status.FAILED, why, held, null, null);
    }

    /** Waits until the target has count requests waiting out their latency. */
    private static void awaitWaiting(Subject subject, int count, Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        long now;
        while ((now = subject.waiting()) != count) {
            if (System.nanoTime() > deadline) {
                throw new TargetFailedException("%d of %d requests waiting after %d s".formatted(now, count, bound.toSeconds()));
            }
            TargetProcess.sleep(POLL_MS);
        }
    }

    /** A measurement in one line, as the console shows it. */
    static String describe(Measurement m) {
        if (!m.done()) {
            return m.name() + ": FAILED, " + m.reason();
        }
        MemorySnapshot s = m.memory();
        return "%s: RSS %s, heap used %s, native %s, %d threads (%.1f s to hold them)".formatted(m.name(), mib(s.rssBytes()),
                mib(s.heapUsedBytes()), mib(s.nativeCommittedKiB().get("Total") * 1024), s.osThreads(), m.secondsToHold());
    }

    static String mib(double bytes) {
        return "%,.1f MiB".formatted(bytes / 1024 / 1024);
    }

    /**
     * Why these targets and counts cannot be measured here, or null: each must wait on /hello, a pool must hold the
     * largest count in flight, Tomcat's connection cap must admit it, and this JVM must be able to open that many.
     */
    public static String refusal(List<String> targets, List<Mode> modes, List<Integer> counts, long openFilesLimit) {
        int most = counts.stream().mapToInt(Integer::intValue).max().orElse(0);
        for (String id : targets) {
            Target t = Target.parse(id);
            if (t.protocol().tls()) {
                return "target %s is served over TLS: a footprint holds plain connections, so it would measure none of TLS's cost; give it without -%s"
                        .formatted(id, t.protocol() == dev.latencylab.load.tls.Protocol.H2 ? "h2" : "tls");
            }
            if (!t.waitsOnHello()) {
                return "target %s waits on %s, not /hello: a footprint holds requests on /hello alone".formatted(id, t.pathTemplate());
            }
            if (modes.contains(Mode.IN_FLIGHT) && t.poolThreads() > 0 && t.poolThreads() < most) {
                return "target %s holds %d requests in flight at most (its pool), not %,d: give mvc-t%d-uncapped".formatted(id, t.poolThreads(), most, most);
            }
            if (t.connectionCap() != null && t.connectionCap() < most) {
                return "target %s holds %,d connections at most (Tomcat's max-connections), not %,d: give %s-uncapped"
                        .formatted(id, t.connectionCap(), most, id);
            }
        }
        return openFiles(most, openFilesLimit);
    }

    /**
     * Why a jar of the user's cannot be measured so, or null: in flight, the lab cannot know how long the service
     * holds a request, nor tell from outside a request it serves from one it queues; idle connections it can count.
     */
    public static String serviceRefusal(List<Mode> modes, int most, long openFilesLimit) {
        if (modes.contains(Mode.IN_FLIGHT)) {
            return "--modes in-flight and --url: a service's requests in flight cannot be held here (the lab knows neither how long "
                    + "it holds one nor whether it serves or queues it); give --modes idle";
        }
        return openFiles(most, openFilesLimit);
    }

    /** This JVM holds the connections; a few hundred files are its own (jars, the JDK, logs). */
    private static String openFiles(int most, long openFilesLimit) {
        if (most + 500 > openFilesLimit) {
            return "%,d connections do not fit in this process's %,d open files (with 500 for its own): give fewer".formatted(most, openFilesLimit);
        }
        return null;
    }
}
