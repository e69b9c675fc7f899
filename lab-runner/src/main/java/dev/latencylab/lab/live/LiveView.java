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

import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.page.LivePage;
import dev.latencylab.lab.run.RunWatch;
import dev.latencylab.lab.targets.Target;
import dev.latencylab.load.live.LiveSample;
import dev.latencylab.load.result.Json;

/**
 * A run, or the runs of a sweep one after the other, watched while they last: the current run's feed (live.jsonl,
 * written by the load's JVM) read four times a second, each second served by a {@link LiveServer} on loopback (its
 * address said first) with its metrics kept by {@link LiveMetrics}, and on the console every five seconds a line, or on
 * a terminal each second its {@link StatusLine}. A
 * feed that cannot be read is said once; the work goes on.
 */
public final class LiveView implements RunWatch, AutoCloseable {

    /**
     * A run the view follows: its title, the target and the point it labels its metrics with, the model's bound and the
     * size of the pool that bounds it (T; null where no pool does, or its size is not known).
     */
    public record Watched(String title, String target, String point, Double modelBoundPerSecond, Integer poolSize) {
    }

    private static final long TERMINAL_EVERY_SECONDS = 5;

    private final LiveServer server;
    private final PrintWriter out;
    /** The terminal's status line, rewritten each second in place of the line every five seconds; null in a pipe. */
    private final StatusLine status;
    private final ScheduledExecutorService poll = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "latency-lab-live");
        t.setDaemon(true);
        return t;
    });
    private LiveFeedReader feed;
    private LiveMetrics metrics;
    private double saidAt;
    private boolean unreadable;

    private LiveView(int port, String title, PrintWriter out, StatusLine status) throws IOException {
        this.metrics = new LiveMetrics(new Watched(title, "none", "none", null, null));
        this.server = new LiveServer(port, LivePage.html(title), metrics);
        this.out = out;
        this.status = status;
    }

    /**
     * Starts a view titled title, serving on 127.0.0.1:port (0: a free port); it shows a run once told to follow it. On a
     * terminal (status: its status line; null in a pipe) each second rewrites the status in place.
     *
     * @throws IllegalArgumentException when the port cannot be had, naming it
     */
    public static LiveView start(int port, String title, PrintWriter out, StatusLine status) {
        LiveView view;
        try {
            view = new LiveView(port, title, out, status);
        }
        catch (IOException e) {
            throw cannotListen(port, e);
        }
        out.printf("latency-lab: live view: http://127.0.0.1:%d/ (metrics for Prometheus: /metrics; --no-live turns it off)%n", view.port());
        out.flush();
        view.poll.scheduleWithFixedDelay(view::read, 250, 250, TimeUnit.MILLISECONDS);
        return view;
    }

    /** The refusal of a --live-port the view cannot listen on (taken, or not this user's to take). */
    public static IllegalArgumentException cannotListen(int port, IOException e) {
        return new IllegalArgumentException("--live-port %d: cannot listen there (%s); give another port, 0 for any free one, or --no-live"
                .formatted(port, e.getMessage()));
    }

    public int port() {
        return server.port();
    }

    /** From now on, the run that writes its seconds to feedFile (the one before it read to its end first). */
    public synchronized void follow(Watched run, Path feedFile) {
        read();
        feed = new LiveFeedReader(feedFile);
        metrics = new LiveMetrics(run);
        server.metrics(metrics);
        saidAt = -TERMINAL_EVERY_SECONDS;
        Map<String, Object> begins = new LinkedHashMap<>();
        begins.put("title", run.title());
        begins.put("modelBoundPerSecond", run.modelBoundPerSecond());
        begins.put("poolSize", run.poolSize());
        server.event("run", Json.LINE.writeValueAsString(begins));
    }

    /** Follows a run of a sweep or a search as it starts, labelled as the console labels it. */
    @Override
    public void starting(String label, Target target, Double modelBoundPerSecond, RunFolder folder) {
        follow(new Watched(label, target.id(), label, modelBoundPerSecond, target.poolThreads() > 0 ? target.poolThreads() : null),
                LiveSample.beside(folder.resultFile()));
    }

    /** A run's line as the console said it when it ended (a sweep's point), for the page's list. */
    @Override
    public void ended(String line) {
        server.event("said", Json.LINE.writeValueAsString(Map.of("line", line)));
    }

    private synchronized void read() {
        if (feed == null) {
            return;
        }
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
            server.data(Json.LINE.writeValueAsString(s));
            metrics.update(s);
            if (status != null) {
                status.show("latency-lab: live " + line(s));
            }
            else if (s.second() - saidAt >= TERMINAL_EVERY_SECONDS) {
                saidAt = s.second();
                out.println("latency-lab: live " + line(s));
                out.flush();
            }
        }
    }

    /** A second in words, as the console says it every five seconds. */
    static String line(LiveSample s) {
        return "%.0f s: %,d users, %,d OK, %,d KO so far; last second %,d responses%s%s%s%s".formatted(s.second(), s.users(), s.ok(), s.ko(),
                s.completed(), s.p99Ms() == null ? "" : ", p99 %,d ms".formatted(s.p99Ms()),
                s.threadsBusy() == null ? "" : ", threads busy %.0f".formatted(s.threadsBusy()),
                s.poolInUse() == null ? "" : ", pool in use %.0f (waiting %.0f)".formatted(s.poolInUse(), s.poolWaiting() == null ? 0 : s.poolWaiting()),
                s.serverCpu() == null ? "" : "; CPU server %.0f%%, machine %s".formatted(100 * s.serverCpu(),
                        s.machineCpu() == null ? "unread" : "%.0f%%".formatted(100 * s.machineCpu())));
    }

    /**
     * The work has ended: the last seconds read, the pages told (said: in words; page: its page, or null, linked while
     * the lab serves it and named by its path for after).
     */
    public void end(String said, Path page) {
        poll.shutdown();
        try {
            poll.awaitTermination(5, TimeUnit.SECONDS);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        read();
        if (status != null) {
            status.clear();
        }
        Map<String, String> end = new LinkedHashMap<>();
        end.put("said", said);
        if (page != null) {
            server.serve(page.getParent());
            end.put("page", "run/" + page.getFileName());
            end.put("pagePath", page.toAbsolutePath().toString());
        }
        server.end(Json.LINE.writeValueAsString(end));
    }

    @Override
    public void close() {
        poll.shutdownNow();
        if (status != null) {
            status.clear();
        }
        server.close();
    }
}
