package dev.latencylab.lab.history;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

import dev.latencylab.lab.compare.Side;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.run.PointRecord;
import dev.latencylab.load.result.Result;

/**
 * A run's start as a history orders it (its result's), checked against what else recorded the run: its own end less its
 * duration, and the point record ./lab wrote beside it (when the run began and ended), as compare's Side read it. A start edited alone would move the
 * run in its series, and turn a change for the worse into one for the better: a disagreement is refused.
 */
final class RunStart {

    /** The load starts after its target and warm-up, and ends before its record: seconds either way allowed for clocks read apart. */
    private static final Duration SLACK = Duration.ofSeconds(5);

    private RunStart() {
    }

    /**
     * The run's start, checked.
     *
     * @throws IllegalArgumentException naming the run's result file and what disagrees
     */
    static Instant checked(Path folder, Side.Run run) {
        Result r = run.result();
        Path file = folder.resolve(dev.latencylab.load.result.ResultFile.NAME);
        Instant start = instant(file, "start", r.start());
        Instant end = instant(file, "end", r.end());
        double seconds = Duration.between(start, end).toMillis() / 1000.0;
        if (Math.abs(seconds - r.durationSeconds()) > SLACK.toSeconds()) {
            throw new IllegalArgumentException("%s: its start %s and end %s are %.1f s apart, its duration %.1f s: they disagree (edited?); "
                    .formatted(file, r.start(), r.end(), seconds, r.durationSeconds()) + "history orders runs by their start and refuses it");
        }
        PointRecord record = run.record();
        if (record != null) {
            Instant began = record.start() == null ? null : record.start().startedAt();
            Instant ended = record.ended() == null ? null : record.ended().endedAt();
            if (began != null && start.isBefore(began.minus(SLACK)) || ended != null && end.isAfter(ended.plus(SLACK))) {
                throw new IllegalArgumentException("%s: its load from %s to %s is outside its run's own record (%s: %s to %s): they disagree (edited?); "
                        .formatted(file, r.start(), r.end(), new RunFolder(folder).pointRecord().getFileName(), began, ended)
                        + "history orders runs by their start and refuses it");
            }
        }
        return start;
    }

    private static Instant instant(Path file, String field, String value) {
        try {
            return Instant.parse(value);
        }
        catch (DateTimeParseException | NullPointerException e) {
            throw new IllegalArgumentException("%s: its %s is not a time (ISO 8601, UTC): history orders runs by it".formatted(file, field));
        }
    }
}
