package dev.latencylab.lab.run;

import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

import dev.latencylab.load.result.Json;
import dev.latencylab.lab.layout.OutputFile;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.machine.Machine;
import dev.latencylab.lab.run.Overhead;
import dev.latencylab.lab.run.RunOutcome;

/**
 * A run's point.json, its one type: which point ran, how it ended, and what it ran on, in that order, as one flat JSON
 * object. ./lab run writes it into its folder and a sweep into each point's; the summary and a resumed sweep read it.
 *
 * @param started what the run started (null: it failed before its target was up)
 * @param ended   when it ended (null in ./lab run's record written before its page, never in a finished one)
 */
public record PointRecord(@JsonUnwrapped Described point, @JsonUnwrapped Ending outcome, @JsonUnwrapped Start start,
        @JsonUnwrapped RunOutcome.Started started, @JsonUnwrapped End ended) {

    /** The point that ran: its id, target, load and path, and the target's settings. rate: an open point's, else absent. */
    public record Described(String id, String target, String module, int users, @JsonInclude(JsonInclude.Include.NON_NULL) Double rate,
            long latencyMs, int run, String path, Map<String, String> targetProperties, String connectionSettings) {
    }

    /** Done or failed, and why it failed (null when done: written as null). */
    public record Ending(Status status, String reason) {

        public boolean done() {
            return status == Status.DONE;
        }
    }

    /**
     * What the run began with: the target's port, when, the machine (a resumed sweep may run on another), and its
     * injectors when more than one (each in its folder injector-&lt;i&gt;; result.json is their merge).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Start(int port, Instant startedAt, Machine.Fingerprint machine, Integer injectors) {

        public static Start now(int port, int injectors) {
            return at(Instant.now(), port, injectors);
        }

        /** A start at that moment, the machine's fingerprint taken now. */
        public static Start at(Instant startedAt, int port, int injectors) {
            return new Start(port, startedAt, Machine.fingerprint(), injectors > 1 ? injectors : null);
        }
    }

    /**
     * How it ended: the sockets still open on the target's port after the drain (a sweep's points), when, the wall
     * time, and what ./lab run added to the scenario's time (its own runs only).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record End(Integer socketsLeftAfterDrain, Instant endedAt, long wallSeconds, Overhead.Recorded overheadSeconds) {

        public static End now(Start start, Integer socketsLeftAfterDrain) {
            Instant now = Instant.now();
            return new End(socketsLeftAfterDrain, now, Duration.between(start.startedAt(), now).toSeconds(), null);
        }

    }

    /** This record with what ./lab run added to the scenario's time, measured once its page was written. */
    public PointRecord withOverhead(Overhead overhead) {
        return new PointRecord(point, outcome, start, started,
                new End(ended.socketsLeftAfterDrain(), ended.endedAt(), ended.wallSeconds(), overhead.recorded()));
    }

    public void write(RunFolder folder) {
        OutputFile.json(folder.pointRecord(), Json.MAPPER, this);
    }

    /** point.json; one that is empty, not JSON or of another version is refused in one line naming it. */
    public static PointRecord read(RunFolder folder) {
        PointRecord r;
        try {
            r = Json.MAPPER.readValue(folder.pointRecord().toFile(), PointRecord.class);
        }
        catch (tools.jackson.core.JacksonException e) {
            throw new IllegalArgumentException("%s: not a point record of this version: %s".formatted(folder.pointRecord(), e.getOriginalMessage()));
        }
        if (r == null || r.outcome() == null) {
            throw new IllegalArgumentException(folder.pointRecord() + ": not a point record: its outcome is required");
        }
        return r;
    }

    /** The recorded outcome, or null when the folder has none (the point has not finished: never run, or interrupted). */
    public static Ending outcome(RunFolder folder) {
        return Files.isRegularFile(folder.pointRecord()) ? read(folder).outcome() : null;
    }
}
