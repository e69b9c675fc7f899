package dev.latencylab.lab.run;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The processes a run depends on that the lab started (a db target's PostgreSQL, an http target's downstream
 * service), watched as the target is: one that exits while the run is under way makes the run's numbers those of a
 * missing dependency (fast 503s), so it is a problem of the run, named with its pid and when it went.
 */
final class DependencyWatch implements AutoCloseable {

    private record Exit(String name, long pid, Instant at) {
    }

    private final List<Exit> exits = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    /** Watches the process from now until {@link #close()}. */
    void watch(String name, long pid) {
        ProcessHandle.of(pid).ifPresentOrElse(p -> p.onExit().thenRun(() -> {
            if (!closed) {
                exits.add(new Exit(name, pid, Instant.now()));
            }
        }), () -> exits.add(new Exit(name, pid, Instant.now())));
    }

    boolean anyExited() {
        return !exits.isEmpty();
    }

    /** One problem per dependency that exited, timed against the run's start (negative: before it began). */
    List<String> problems(Instant runStart) {
        return exits.stream().map(e -> "%s (pid %d) exited %s".formatted(e.name(), e.pid(), when(e.at(), runStart))).toList();
    }

    private static String when(Instant at, Instant runStart) {
        if (runStart == null) {
            return "before the run's result was written";
        }
        Duration d = Duration.between(runStart, at);
        return d.isNegative() ? "%.0f s before the run began".formatted(-d.toMillis() / 1000.0)
                : "%.0f s into the run: the requests after it measured its absence".formatted(d.toMillis() / 1000.0);
    }

    /** The run is over: the lab stops its dependencies now, which is no problem. */
    @Override
    public void close() {
        closed = true;
    }
}
