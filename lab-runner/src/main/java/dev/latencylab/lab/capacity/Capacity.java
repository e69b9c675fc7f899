package dev.latencylab.lab.capacity;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

import dev.latencylab.load.result.Json;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultCheck;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.lab.format.Figures;
import dev.latencylab.lab.layout.FolderLock;
import dev.latencylab.lab.layout.OutputFile;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.layout.SearchFolder;
import dev.latencylab.lab.machine.Machine;
import dev.latencylab.lab.run.Status;
import dev.latencylab.lab.summary.MachineCeiling;
import dev.latencylab.lab.summary.PoolEvidence;
import dev.latencylab.lab.summary.RecordCsv;
import dev.latencylab.lab.summary.Stages;
import dev.latencylab.lab.summary.Summary;

/**
 * A capacity search as its folder ({@link SearchFolder}) holds it: capacity.json (the answer, the model's lines beside
 * it, every level), levels.csv and the hockey-stick chart; rebuilt from its ladders' result files, and its table.
 */
public final class Capacity {

    private Capacity() {
    }

    /**
     * A capacity search as capacity.json holds it, in named parts that the file writes flat (named Search, not Record:
     * java.lang.Record is in scope): what was searched, the bounds beside it, the answer, then its ladders, every level,
     * the machine, when, and whether a signal stopped it.
     */
    public record Search(@JsonUnwrapped Settings settings, @JsonUnwrapped Bounds bounds, @JsonUnwrapped Answer answer,
            List<Round> rounds, List<CapacitySearch.Level> levels, Machine.Fingerprint machine, String created,
            @JsonInclude(JsonInclude.Include.NON_NULL) Boolean interrupted,
            @JsonInclude(JsonInclude.Include.NON_NULL) dev.latencylab.load.result.SloVerdict slo) {

        /** The search with its --slo's verdict, judged once when it ended (absent where no --slo was given). */
        public Search judged(dev.latencylab.load.result.SloVerdict verdict) {
            return new Search(settings, bounds, answer, rounds, levels, machine, created, interrupted, verdict);
        }

        /** The level its capacity was found at (the highest within the SLO below the first miss); null where none was. */
        public CapacitySearch.Level atCapacity() {
            Double capacity = answer.capacityPerSecond();
            return capacity == null ? null
                    : levels.stream().filter(l -> l.rate() == capacity && Boolean.TRUE.equals(l.withinSlo())).findFirst().orElse(null);
        }

        /** Stopped by a signal before its last ladder: true; absent (null) in a search that ran to its end. */
        public boolean wasInterrupted() {
            return Boolean.TRUE.equals(interrupted);
        }

        /**
         * What bounded its capacity, in the words a sweep's points use (one cause type): its pool (T/L, within the model's
         * tolerance), this machine's CPU (near its ceiling), its pool again where T/L lies between the capacity and the
         * first rate that missed (the levels too far apart to tell it closer: 33.3 met and 41.7 missed, T/L 40), or
         * neither, unexplained; null where no capacity was found.
         */
        public Stages.Cause bound() {
            Double capacity = answer.capacityPerSecond();
            if (capacity == null) {
                return null;
            }
            Double model = bounds.modelCapacityPerSecond();
            double atModel = model == null ? Double.NaN : model * (1 - Summary.MODEL_TOLERANCE);
            if (model != null && capacity >= atModel) {
                return Stages.Cause.POOL;
            }
            if (bounds.machineCeilingPerSecond() != null && capacity >= MachineCeiling.NEAR * bounds.machineCeilingPerSecond()) {
                return Stages.Cause.MACHINE;
            }
            return model != null && answer.bracketed() && answer.firstMissPerSecond() >= atModel ? Stages.Cause.POOL : Stages.Cause.UNEXPLAINED;
        }
    }

    /**
     * What was searched: the target at a latency (its pool, if any), the SLO, and how each level was held; arrivalSends
     * "flow" where each arrival was a user running a simulation of the user's (its rates are of users, its levels judged
     * by their requests' own times), null where each was one request.
     */
    public record Settings(String target, long latencyMs, Integer poolThreads, long sloP99Ms, double sloKoPercent, String arrivals,
            long levelSeconds, long rampSeconds, @JsonInclude(JsonInclude.Include.NON_NULL) String arrivalSends) {

        /** What a rate counts per second: requests, or users each running the flow once. */
        public String rateUnit() {
            return Result.Open.rateUnit(arrivalSends);
        }

        /** What a level's p99 is timed from, in words. */
        public String p99Timed() {
            return Result.Open.p99Timed(arrivalSends);
        }

        /** Whether the search was of a service of the user's (./lab capacity --url): no latency known, so no model. */
        public boolean ofService() {
            return dev.latencylab.lab.targets.Target.known(target).isEmpty();
        }
    }

    /** The lines beside the answer: the model's capacity (T/L; null without a pool) and this machine's ceiling (see CapacitySearch.machineCeiling). */
    public record Bounds(Double modelCapacityPerSecond, Double machineCeilingPerSecond) {
    }

    /**
     * The answer: the highest rate within the SLO, the lowest that missed it, whether the two bracket it, in words, and
     * the level with the widest gap between p99 from due and p99 by Gatling's clock.
     */
    public record Answer(Double capacityPerSecond, Double firstMissPerSecond, boolean bracketed, String summary,
            CapacitySearch.Level largestCoGap) {
    }

    /**
     * One ladder: its rates, folder, why it stopped early (null: it ran to its end), whether its run counts, and what
     * the server said of its pools at its top level (null where it published none, and in searches before that).
     */
    public record Round(int round, List<Double> rates, String folder, String stoppedEarly, Status status, String reason,
            @JsonInclude(JsonInclude.Include.NON_NULL) TopLevel topLevel) {

        Round(int round, List<Double> rates, String folder, String stoppedEarly, Status status, String reason) {
            this(round, rates, folder, stoppedEarly, status, reason, null);
        }
    }

    /**
     * A ladder's top level (the last it reached: where it stopped, or its highest), as the server's own metrics saw it:
     * the pools it publishes, e.g. "HikariCP 10", and the one full there (Result.Pools#decided), null where none was;
     * and the sizes of pools the user gave (--pool; none: absent).
     */
    public record TopLevel(double ratePerSecond, String pools, Result.Pool full,
            @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Result.GivenPool> given) {

        public TopLevel(double ratePerSecond, String pools, Result.Pool full) {
            this(ratePerSecond, pools, full, List.of());
        }

        public TopLevel {
            given = given == null ? List.of() : List.copyOf(given);
        }

        /** A finished ladder's, from its result file; null where the server published no pool and none was given. */
        static TopLevel of(Result r) {
            Result.Pools pools = r.server().pools();
            Result.Level top = r.open().topLevel();
            if (pools == null || top == null) {
                return null;
            }
            return new TopLevel(top.ratePerSecond(), PoolEvidence.published(pools), pools.decided().orElse(null), pools.givenUnpublished());
        }

        /** The smallest pool given, whose bound over L is the lowest; null where none was. */
        public Result.GivenPool smallestGiven() {
            return given.stream().min(java.util.Comparator.comparingDouble(Result.GivenPool::size)).orElse(null);
        }
    }

    /**
     * A service's L for a search: the p50 from due of its lowest level within the SLO (the load that queues least),
     * null where none was within it.
     */
    public static Double calibrationMs(Search s) {
        return s.levels().stream().filter(l -> Boolean.TRUE.equals(l.withinSlo()) && l.latency().p50JudgedMs() != null)
                .min(java.util.Comparator.comparingDouble(CapacitySearch.Level::rate)).map(l -> l.latency().p50JudgedMs().doubleValue())
                .orElse(null);
    }

    /** What the server's metrics said at the first rate that missed the SLO; null where no ladder reached it with pools published. */
    public static TopLevel atFirstMiss(Search s) {
        Double miss = s.answer().firstMissPerSecond();
        return miss == null ? null : s.rounds().stream().map(Round::topLevel).filter(t -> t != null && t.ratePerSecond() == miss)
                .findFirst().orElse(null);
    }

    /** The search with these levels: its outcome, ceiling and largest gap computed from them, the levels sorted by rate. */
    public static Search withLevels(Search r, List<CapacitySearch.Level> levels) {
        CapacitySearch.Found outcome = CapacitySearch.found(levels);
        boolean interrupted = r.wasInterrupted();
        return new Search(r.settings(), new Bounds(r.bounds().modelCapacityPerSecond(), CapacitySearch.machineCeiling(levels,
                Result.Open.FLOW.equals(r.settings().arrivalSends()))),
                new Answer(outcome.capacity(), outcome.firstMiss(), outcome.bracketed() && !interrupted,
                        interrupted ? interrupted(outcome, r.settings().rateUnit()) : outcome.describe(r.settings().rateUnit()),
                        largestGap(levels)),
                r.rounds(),
                levels.stream().sorted(Comparator.comparingDouble(CapacitySearch.Level::rate).thenComparingInt(CapacitySearch.Level::round)).toList(),
                r.machine(), r.created(), r.interrupted(), r.slo());
    }

    /**
     * A finished search rebuilt from its rounds' result files (the numbers are theirs; capacity.json keeps what they do
     * not hold: the target, the rounds, the machine), and its data written again (its chart: CapacityReport).
     */
    public static Search rebuild(Path dir) {
        Search again = recomputed(read(dir), dir);
        write(dir, again);
        return again;
    }

    /**
     * A search as its folder holds it, its answer and levels checked against its ladders' result files, which they
     * are computed from: capacity.json edited by hand, or left from another version, is refused with the field that
     * differs, both values and the file, before anything is built on it.
     */
    public static Search verified(Path dir) {
        FolderLock.refuseIfLocked(dir);
        Search written = read(dir);
        Search again = recomputed(written, dir);
        Path file = new SearchFolder(dir).capacityFile();
        ResultCheck.Difference d = ResultCheck.firstDifference(written.answer(), again.answer());
        if (d == null && !java.util.Objects.equals(written.bounds().machineCeilingPerSecond(), again.bounds().machineCeilingPerSecond())) {
            // the machine's ceiling is drawn beside the answer: computed from the levels' CPU as the answer is
            d = new ResultCheck.Difference("machineCeilingPerSecond", written.bounds().machineCeilingPerSecond(), again.bounds().machineCeilingPerSecond());
        }
        if (d == null && !written.levels().equals(again.levels())) {
            int i = 0;
            while (i < Math.min(written.levels().size(), again.levels().size()) && written.levels().get(i).equals(again.levels().get(i))) {
                i++;
            }
            d = i < Math.min(written.levels().size(), again.levels().size())
                    ? prefixed("levels[%d].".formatted(i), ResultCheck.firstDifference(written.levels().get(i), again.levels().get(i)))
                    : new ResultCheck.Difference("levels (how many)", written.levels().size(), again.levels().size());
        }
        if (d != null) {
            throw new IllegalArgumentException("%s: %s is %s; its ladders' result files give %s: capacity.json is not used where it "
                    .formatted(file, d.name(), d.first(), d.second()) + "disagrees with them (./lab rebuild-docs rebuilds the published ones from them)");
        }
        return written;
    }

    private static ResultCheck.Difference prefixed(String prefix, ResultCheck.Difference d) {
        return new ResultCheck.Difference(prefix + d.name(), d.first(), d.second());
    }

    /** What the search's finished ladders' result files give, written nowhere. */
    private static Search recomputed(Search r, Path dir) {
        List<CapacitySearch.Level> levels = new ArrayList<>();
        for (Round round : r.rounds()) {
            if (round.status() == Status.DONE) {
                ResultFile.read(new RunFolder(dir.resolve(round.folder())).resultFile()).open().levels().stream()
                        .map(l -> CapacitySearch.Level.of(round.round(), l)).forEach(levels::add);
            }
        }
        return withLevels(r, levels);
    }

    /** A search stopped before its last ladder: what its finished ladders found, as the lower bound it is. */
    private static String interrupted(CapacitySearch.Found outcome, String unit) {
        return "interrupted before the search finished: " + (outcome.capacity() == null ? "no capacity found"
                : "at least %s %s within the SLO in the finished ladders%s; run the search again for its answer".formatted(
                        Figures.rate(outcome.capacity()), unit, outcome.firstMiss() == null ? ""
                                : " (%s %s missed; the refinement between them did not finish)".formatted(Figures.rate(outcome.firstMiss()), unit)));
    }

    /** The level with the widest gap between p99 from due and p99 by Gatling's clock. */
    private static CapacitySearch.Level largestGap(List<CapacitySearch.Level> levels) {
        return levels.stream().filter(l -> l.coGapP99Ms() != null).max(Comparator.comparingLong(CapacitySearch.Level::coGapP99Ms)).orElse(null);
    }

    /** A search's data: capacity.json and its levels as levels.csv. */
    public static void write(Path dir, Search record) {
        SearchFolder folder = new SearchFolder(dir);
        OutputFile.json(folder.capacityFile(), Json.MAPPER, record);
        RecordCsv.write(record.levels(), CapacitySearch.Level.class, folder.levelsCsv());
    }

    /** capacity.json as written, its parts present; a file that is empty, not JSON or without them is refused by name. */
    public static Search read(Path dir) {
        Path file = new SearchFolder(dir).capacityFile();
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(dir + " holds no " + SearchFolder.CAPACITY_FILE + ": give a folder that ./lab capacity made");
        }
        Search s;
        try {
            s = Json.MAPPER.readValue(file.toFile(), Search.class);
        }
        catch (tools.jackson.core.JacksonException e) {
            throw new IllegalArgumentException("%s: not a capacity search of this version: %s".formatted(file, e.getOriginalMessage()));
        }
        if (s == null || s.settings() == null || s.settings().target() == null || s.bounds() == null || s.answer() == null
                || s.rounds() == null || s.levels() == null || s.rounds().stream().anyMatch(r -> r == null || r.status() == null || r.folder() == null)) {
            throw new IllegalArgumentException(
                    file + ": not a capacity search: its settings, answer, rounds (each with its status and folder) and levels are required");
        }
        return s;
    }
}
