package dev.latencylab.lab.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

import dev.latencylab.load.result.Jvm;

/**
 * The target's own events during a run, from the JDK Flight Recorder recording it makes from its start to its exit
 * (tools/jvm-events.jfc: GC pauses, virtual threads pinned, safepoints, TLS handshakes; nothing else): what falls
 * within the run's start..end, on its time axis.
 */
public final class JvmEvents {

    /** How a pinned virtual thread's stack is told: its innermost frames past the JDK's. */
    private static final int STACK_FRAMES = 8;
    /** The pinned event's threshold in jvm-events.jfc. */
    private static final long PINNED_THRESHOLD_MS = 20;

    private JvmEvents() {
    }

    /** The recording's settings: one file, which the targets' AOT caches are trained with too (tools/TargetLaunch.java). */
    public static Path settings(Path repo) {
        return repo.resolve("tools").resolve("jvm-events.jfc");
    }

    /** The target JVM's options that record into file, written whole at its exit. */
    static List<String> recordingOptions(Path repo, Path file) {
        return List.of("-XX:StartFlightRecording=filename=" + file.toAbsolutePath() + ",dumponexit=true,settings=" + settings(repo));
    }

    /**
     * The events of the recording that fall within start..end.
     *
     * @throws UncheckedIOException when the recording cannot be read, or is cut short
     */
    public static Jvm read(Path recording, Instant start, Instant end) {
        int seconds = (int) Math.max(1, Math.ceil(Duration.between(start, end).toMillis() / 1000.0));
        double[] gcMs = new double[seconds];
        double[] safepointMs = new double[seconds];
        long[] pinnedPerSecond = new long[seconds];
        long[] handshakesPerSecond = new long[seconds];
        Map<String, Long> handshakeProtocols = new HashMap<>();
        List<Double> gcPauses = new ArrayList<>();
        List<Double> safepoints = new ArrayList<>();
        Map<Long, Instant> safepointBegins = new HashMap<>();
        Map<List<String>, Long> pinnedStacks = new HashMap<>();
        long pinned = 0;
        try (RecordingFile file = new RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                Instant at = e.getStartTime();
                if (at.isBefore(start) || at.isAfter(end)) {
                    continue;
                }
                int second = (int) Math.min(seconds - 1, Duration.between(start, at).toMillis() / 1000);
                switch (e.getEventType().getName()) {
                    case "jdk.GarbageCollection" -> {
                        double ms = e.getDuration("sumOfPauses").toNanos() / 1e6;
                        gcPauses.add(ms);
                        gcMs[second] += ms;
                    }
                    case "jdk.VirtualThreadPinned" -> {
                        pinned++;
                        pinnedPerSecond[second]++;
                        pinnedStacks.merge(stack(e), 1L, Long::sum);
                    }
                    case "jdk.TLSHandshake" -> {
                        handshakesPerSecond[second]++;
                        handshakeProtocols.merge(String.valueOf(e.getString("protocolVersion")), 1L, Long::sum);
                    }
                    case "jdk.SafepointBegin" -> safepointBegins.put(e.getLong("safepointId"), at);
                    case "jdk.SafepointEnd" -> {
                        Instant began = safepointBegins.remove(e.getLong("safepointId"));
                        if (began != null) {
                            double ms = Duration.between(began, e.getEndTime()).toNanos() / 1e6;
                            safepoints.add(ms);
                            int from = (int) Math.min(seconds - 1, Duration.between(start, began).toMillis() / 1000);
                            safepointMs[from] += ms;
                        }
                    }
                    default -> {
                        // not one the settings enable
                    }
                }
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot read the target's flight recording " + recording, e);
        }
        catch (RuntimeException e) {
            // a recording cut short (a full disk) fails inside the parser, not as an IOException
            throw new UncheckedIOException("cannot read the target's flight recording " + recording,
                    new IOException("cut short or corrupt (%s)".formatted(e), e));
        }
        Map.Entry<List<String>, Long> top = pinnedStacks.entrySet().stream().max(Map.Entry.comparingByValue()).orElse(null);
        return new Jvm(recording.getFileName().toString(), pauses(gcPauses, gcMs),
                new Jvm.Pinned(pinned, PINNED_THRESHOLD_MS, top == null ? List.of() : top.getKey(), top == null ? 0 : top.getValue(),
                        pinnedPerSecond),
                pauses(safepoints, safepointMs), handshakes(handshakeProtocols, handshakesPerSecond));
    }

    /** The handshakes, with the protocol most agreed on; none (null) where it completed none. */
    private static Jvm.Handshakes handshakes(Map<String, Long> protocols, long[] perSecond) {
        long count = protocols.values().stream().mapToLong(Long::longValue).sum();
        return count == 0 ? null
                : new Jvm.Handshakes(count, protocols.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey(), perSecond);
    }

    private static Jvm.Pauses pauses(List<Double> ms, double[] perSecond) {
        return new Jvm.Pauses(ms.size(), round(ms.stream().mapToDouble(Double::doubleValue).sum()),
                round(ms.stream().mapToDouble(Double::doubleValue).max().orElse(0)), java.util.Arrays.stream(perSecond).map(JvmEvents::round).toArray());
    }

    /** Milliseconds to a microsecond: what a pause's figure needs, no more. */
    private static double round(double ms) {
        return Math.round(ms * 1000) / 1000.0;
    }

    /**
     * A pinned thread's innermost frames past the JDK's own (how a virtual thread parks is the same for every wait; the
     * code that waits is not), e.g. "org.postgresql.core.VisibleBufferedInputStream.read:135"; the JDK's where it has
     * no other.
     */
    static List<String> stack(RecordedEvent e) {
        if (e.getStackTrace() == null) {
            return List.of();
        }
        List<String> frames = e.getStackTrace().getFrames().stream().map(JvmEvents::frame).toList();
        int first = 0;
        while (first < frames.size() && JDK_FRAME.matcher(frames.get(first)).lookingAt()) {
            first++;
        }
        return frames.subList(first == frames.size() ? 0 : first, frames.size()).stream().limit(STACK_FRAMES).collect(Collectors.toList());
    }

    /** A frame of the JDK itself. */
    private static final java.util.regex.Pattern JDK_FRAME = java.util.regex.Pattern.compile("(java|javax|jdk|sun|com\\.sun)\\.");

    private static String frame(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName() + (f.getLineNumber() > 0 ? ":" + f.getLineNumber() : "");
    }
}
