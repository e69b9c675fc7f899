package dev.latencylab.load.live;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

import org.HdrHistogram.Histogram;

import dev.latencylab.load.record.RunRecorder;
import dev.latencylab.load.result.Json;
import dev.latencylab.load.result.Tick;

/**
 * Writes each of the sampler's seconds as a {@link LiveSample}, one line of JSON, flushed at once, so that ./lab shows
 * the run while it lasts. A line that cannot be written is given up silently after the first failure is said: the
 * live view is a window on the run, never a reason for it to fail.
 */
public final class LiveFeed implements Consumer<Tick> {

    private final RunRecorder run;
    private final Path file;
    private BufferedWriter out;
    private boolean broken;

    private LiveFeed(RunRecorder run, Path file) {
        this.run = run;
        this.file = file;
    }

    /** The feed of this run into live.jsonl beside its result file. */
    public static LiveFeed beside(Path resultFile, RunRecorder run) {
        return new LiveFeed(run, LiveSample.beside(resultFile));
    }

    /** A second of the run; the sampler's last, taken once the run's counts are final, makes them add up to its result. */
    @Override
    public synchronized void accept(Tick t) {
        double second = t.second();
        if (broken) {
            return;
        }
        Histogram h = run.responseTimesSinceLastLook();
        boolean any = h.getTotalCount() > 0;
        LiveSample s = new LiveSample(Math.round(second * 1000) / 1000.0, t.activeUsers(), run.ok(), run.ko(), h.getTotalCount(),
                any ? h.getValueAtPercentile(50) : null, any ? h.getValueAtPercentile(95) : null, any ? h.getValueAtPercentile(99) : null,
                reading(t.serverCpu()), reading(t.machineCpu()), reading(t.injectorCpu()), reading(t.serverPoolActive()),
                reading(t.serverPoolPending()), reading(t.serverBusyThreads()));
        try {
            if (out == null) {
                out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
            }
            out.write(Json.LINE.writeValueAsString(s));
            out.newLine();
            out.flush();
        }
        catch (IOException | UncheckedIOException e) {
            broken = true;
            System.err.println("latency-lab: the live view's file " + file + " cannot be written (" + e.getMessage() + "): the run goes on");
        }
    }

    private static Double reading(double v) {
        return Double.isNaN(v) ? null : Math.round(v * 1000) / 1000.0;
    }
}
