package dev.latencylab.lab.live;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.latencylab.lab.page.LivePage;
import dev.latencylab.load.live.LiveSample;
import dev.latencylab.load.result.Json;

/**
 * A run watched while it lasts: its feed (live.jsonl, written by the load's JVM) read four times a second, each second
 * served by a {@link LiveServer} on loopback (its address said first) and its metrics kept by {@link LiveMetrics}, and
 * every five seconds a line on the console. A feed that cannot be read is said once; the run goes on.
 */
public final class LiveView implements AutoCloseable {

    /** What the view shows: its page's title, the target and the point it labels its metrics with, the model's bound. */
    public record Watched(String title, String target, String point, Double modelBoundPerSecond) {
    }

    private static final long TERMINAL_EVERY_SECONDS = 5;

    private final LiveServer server;
    private final LiveMetrics metrics;
    private final LiveFeedReader feed;
    private final PrintWriter out;
    private final ScheduledExecutorService poll = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "latency-lab-live");
        t.setDaemon(true);
        return t;
    });
    private double saidAt = -TERMINAL_EVERY_SECONDS;
    private boolean unreadable;

    private LiveView(int port, Watched watched, Path feedFile, PrintWriter out) throws IOException {
        this.metrics = new LiveMetrics(watched.target(), watched.point(), watched.modelBoundPerSecond());
        this.server = new LiveServer(port, LivePage.html(watched.title(), watched.modelBoundPerSecond()), metrics);
        this.feed = new LiveFeedReader(feedFile);
        this.out = out;
    }

    /**
     * Starts watching the feed the load will write to feedFile, serving on 127.0.0.1:port (0: a free port).
     *
     * @throws IllegalArgumentException when the port cannot be had, naming it
     */
    public static LiveView start(int port, Watched watched, Path feedFile, PrintWriter out) {
        LiveView view;
        try {
            view = new LiveView(port, watched, feedFile, out);
        }
        catch (IOException e) {
            throw new IllegalArgumentException("--live-port %d: cannot listen there (%s); give another port, 0 for any free one, or --no-live"
                    .formatted(port, e.getMessage()));
        }
        out.printf("latency-lab: live view: http://127.0.0.1:%d/ (metrics for Prometheus: /metrics; --no-live turns it off)%n", view.port());
        out.flush();
        view.poll.scheduleWithFixedDelay(view::read, 250, 250, TimeUnit.MILLISECONDS);
        return view;
    }

    public int port() {
        return server.port();
    }

    private void read() {
        List<LiveSample> fresh;
        try {
            fresh = feed.readNew();
        }
        catch (IOException | UncheckedIOException | tools.jackson.core.JacksonException e) {
            if (!unreadable) {
                unreadable = true;
                out.println("latency-lab: the live view cannot read the run's seconds (" + e.getMessage() + "); the run goes on");
                out.flush();
            }
            return;
        }
        for (LiveSample s : fresh) {
            server.add(s);
            metrics.update(s);
            if (s.second() - saidAt >= TERMINAL_EVERY_SECONDS) {
                saidAt = s.second();
                out.println("latency-lab: live " + line(s));
                out.flush();
            }
        }
    }

    /** A second in words, as the console says it every five seconds. */
    static String line(LiveSample s) {
        return "%.0f s: %,d users, %,d OK, %,d KO so far; last second %,d responses%s%s%s".formatted(s.second(), s.users(), s.ok(), s.ko(),
                s.completed(), s.p99Ms() == null ? "" : ", p99 %,d ms".formatted(s.p99Ms()),
                s.poolInUse() == null ? "" : ", pool in use %.0f (waiting %.0f)".formatted(s.poolInUse(), s.poolWaiting() == null ? 0 : s.poolWaiting()),
                s.serverCpu() == null ? "" : "; CPU server %.0f%%, machine %s".formatted(100 * s.serverCpu(),
                        s.machineCpu() == null ? "unread" : "%.0f%%".formatted(100 * s.machineCpu())));
    }

    /** The run has ended: the last seconds read, the pages told (said: in words; page: the run's page, or null). */
    public void end(String said, Path page) {
        poll.shutdown();
        try {
            poll.awaitTermination(5, TimeUnit.SECONDS);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        read();
        Map<String, String> end = new LinkedHashMap<>();
        end.put("said", said);
        if (page != null) {
            server.serve(page.getParent());
            end.put("page", "run/" + page.getFileName());
        }
        server.end(Json.LINE.writeValueAsString(end));
    }

    @Override
    public void close() {
        poll.shutdownNow();
        server.close();
    }
}
