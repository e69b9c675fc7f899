package dev.latencylab.lab.summary;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.latencylab.load.result.Jvm;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.PlateauSpan;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.machine.Machine;
import dev.latencylab.lab.run.Point;
import dev.latencylab.lab.run.PointRecord;
import dev.latencylab.lab.run.Status;
import dev.latencylab.lab.targets.Target;

/**
 * What a sweep measured, every number taken from its runs' result.json files: one {@link RunRow} per run (runs.csv)
 * and one {@link PointRow} per point, the median and range of its runs (summary.csv), each with the {@link Flags} that
 * say how far to trust it. The page and README's table are drawn from the same rows ({@link RecordCsv} writes them).
 */
public final class Summary {

    /** Runs of a point disagree (unstable) when their goodput ranges wider than this share of its median, */
    static final double GOODPUT_TOLERANCE = 0.05;
    /** or their p95 wider than this share of its median and than P95_TOLERANCE_MS. */
    public static final double P95_TOLERANCE = 0.25;
    public static final double P95_TOLERANCE_MS = 10;

    /** Throughput further than this from the model, with nothing saturated, is a disagreement to explain. */
    public static final double MODEL_TOLERANCE = 0.10;

    /**
     * One run of a point, in named parts; runs.csv has a column per part's field, in this order.
     *
     * @param rates   goodput: OK responses per second on the plateau (all users active), or the run's mean when it never
     *                had one, null for a file written before goodput (an open point's goodput, completions and percentiles
     *                are those of its level, the arrivals due while the rate was held, its percentiles counted from each
     *                arrival's due time); throughput: completions (OK and KO) per second, the same way
     * @param cpu     CPU shares of all cores; serverCpuMsPerRequest: the server's CPU time per OK response (ms), from its CPU
     *                and goodput, the same for the injector; machineSteal: the share the hypervisor gave elsewhere, plateau
     *                mean; cpuProbe: the machine's single-thread probe (MiB/s) when the run started, null in older sweeps
     * @param model   modelThroughput: N/(L+Z) capped at T/L on the plateau, else the run's mean bound
     * @param evidence what the server said of its own pools on the plateau: the one full there, its bound
     */
    public record RunRow(Identity identity, Outcome outcome, Pool pool, Rates rates, Latencies latency, Requests requests,
            Threads threads, Cpu cpu, Peaks peaks, Model model, PoolEvidence evidence, Notes notes) {

        /** Which run: the point's id, target, load (users, or rate for an open point with users 0), latency and its number. */
        public record Identity(String point, String target, int users, Double rate, long latencyMs, int run) {

            /** A sweep's order of runs: by latency, target, users, rate (closed points first), run. */
            public static final Comparator<Identity> ORDER = Comparator.comparingLong(Identity::latencyMs).thenComparing(Identity::target)
                    .thenComparingInt(Identity::users).thenComparing(Identity::rate, Comparator.nullsFirst(Comparator.naturalOrder()))
                    .thenComparingInt(Identity::run);
        }

        /** done or failed, and why it failed. */
        public record Outcome(Status status, String reason) {
        }

        public record Rates(Double goodput, Double throughput, Double throughputMean, Long throughputPeak) {
            static final Rates NONE = new Rates(null, null, null, null);
        }

        public record Latencies(Long p50Ms, Long p75Ms, Long p95Ms, Long p99Ms, Long p999Ms, Long maxMs) {
            static final Latencies NONE = new Latencies(null, null, null, null, null, null);
        }

        public record Requests(Long requests, Long ko, Double koPercent, String topKoReason) {
            static final Requests NONE = new Requests(null, null, null, null);
        }

        public record Threads(Double serverPeakThreads, Double serverPeakBusyThreads) {
            static final Threads NONE = new Threads(null, null);
        }

        public record Cpu(Double serverCpu, Double injectorCpu, Double machineCpu, Integer cores, Double serverCpuMsPerRequest,
                Double injectorCpuMsPerRequest, Double machineSteal, Double loadAverage, Double cpuProbe) {
        }

        /** The run's peaks of heap and open files (the memory per request itself: ./lab footprint). */
        public record Peaks(Double serverPeakHeapMb, Double injectorPeakOpenFiles, Double serverPeakOpenFiles) {
            static final Peaks NONE = new Peaks(null, null, null);
        }

        /**
         * The run's flags (see Flags.FLAGS), its Gatling report relative to the sweep, how long it took, and its SLO verdict
         * as its result file keeps it (SloCell; null where no objective was given).
         */
        public record Notes(RowFlags flags, String report, Long wallSeconds, String slo) {
        }

        /** The point's id, the runs of one point share it: webflux-l100-u5000 (or -rate3000, open). */
        public String pointId() {
            return Point.pointId(identity.target(), identity.latencyMs(), identity.users(), identity.rate());
        }

        public RowFlags flags() {
            return notes.flags();
        }

        public boolean done() {
            return outcome.status() == Status.DONE;
        }

        /** A run that did not finish: what it was and why it stopped, no measurement. */
        static RunRow failed(Identity identity, Outcome outcome, String connectionSettings, Double cpuProbe, String report, Long wallSeconds) {
            return new RunRow(identity, outcome, new Pool(null, connectionSettings, null), Rates.NONE, Latencies.NONE, Requests.NONE,
                    Threads.NONE, new Cpu(null, null, null, null, null, null, null, null, cpuProbe), Peaks.NONE, Model.NONE,
                    PoolEvidence.NONE, new Notes(RowFlags.FAILED, report, wallSeconds, null));
        }
    }

    /** The thread or connection pool a run's target has: its threads (T, null without one), its connection settings, the connections seen. */
    public record Pool(Integer poolThreads, String connectionSettings, String connections) {
    }

    /** The queueing model's lines for a run or a point (null where the run has no model). */
    public record Model(Double modelOfferedLoad, Double modelPoolBound, Double modelThroughput, Double modelKneeUsers,
            Double modelResponseMs, Boolean modelSaturated) {
        static final Model NONE = new Model(null, null, null, null, null, null);
    }

    /**
     * One point: the median and range (min–max) of its finished runs. Flags: those of any run (KO from the median),
     * unstable when the runs disagree (see GOODPUT_TOLERANCE, P95_TOLERANCE), near-machine-ceiling when the model's
     * throughput is at or above 80% of the target's {@link MachineCeiling}. status: done when any run finished.
     *
     * @param runs          finished runs; failedRuns: runs that failed (reason: the first one's)
     * @param machineCeiling the target's ceiling on this machine (req/s), null when none could be measured
     */
    public record PointRow(Identity identity, Tally outcome, Pool pool, Rates rates, Latencies latency, Requests requests,
            Threads threads, Cpu cpu, Model model, PoolEvidence evidence, Notes notes) {

        /** Which point: its id, target, load (users, or rate for an open point with users 0) and latency. */
        public record Identity(String point, String target, int users, Double rate, long latencyMs) {
        }

        /** How many runs finished and failed, done when any finished, and the first failed run's reason. */
        public record Tally(int runs, int failedRuns, Status status, String reason) {
        }

        public record Rates(Spread goodput, Spread throughput) {
        }

        /** Percentiles as median and range of the runs; maxMs: the highest of them. */
        public record Latencies(Spread p50Ms, Spread p95Ms, Spread p99Ms, Double maxMs) {
        }

        /** KO share (median of the runs) and the most common reason. */
        public record Requests(Double koPercent, String topKoReason) {
        }

        public record Threads(Double serverPeakThreads) {
        }

        public record Cpu(Spread serverCpu, Spread injectorCpu, Spread machineCpu, Double serverCpuMsPerRequest,
                Double injectorCpuMsPerRequest, Double machineSteal, Double loadAverage) {
        }

        /**
         * machineCeiling: the target's ceiling on this machine (req/s), null when none could be measured; the point's flags;
         * its runs' ids; its SLO verdict, from its runs' (SloCell; null where none was judged).
         */
        public record Notes(Double machineCeiling, RowFlags flags, String runIds, String slo) {
        }

        public boolean done() {
            return outcome.status() == Status.DONE;
        }

        public RowFlags flags() {
            return notes.flags();
        }

        /** A point none of whose runs finished: which point, how many failed and the first one's reason. */
        static PointRow failed(RunRow first, int failedRuns, String reason, Double machineCeiling, String runIds) {
            RunRow.Identity id = first.identity();
            return new PointRow(new Identity(first.pointId(), id.target(), id.users(), id.rate(), id.latencyMs()),
                    new Tally(0, failedRuns, Status.FAILED, reason), new Pool(null, first.pool().connectionSettings(), null),
                    new Rates(Spread.NONE, Spread.NONE), new Latencies(Spread.NONE, Spread.NONE, Spread.NONE, null), new Requests(null, null),
                    new Threads(null), new Cpu(Spread.NONE, Spread.NONE, Spread.NONE, null, null, null, null), Model.NONE,
                    PoolEvidence.NONE, new Notes(machineCeiling, RowFlags.FAILED, runIds, null));
        }
    }

    private Summary() {
    }

    /**
     * The rows of every run folder under the sweep, sorted by latency, target, users, run. sweepBoot: the boot id of
     * the machine the sweep began on (its sweep.json), or null: a run on another is flagged.
     */
    public static List<RunRow> rows(SweepFolder sweep, String sweepBoot) {
        if (!Files.isDirectory(sweep.points())) {
            return List.of();
        }
        try (Stream<Path> dirs = Files.list(sweep.points())) {
            return dirs.map(RunFolder::new).filter(d -> Files.isRegularFile(d.pointRecord()))
                    .map(d -> row(sweep.dir(), d, sweepBoot))
                    .sorted(Comparator.comparing(RunRow::identity, RunRow.Identity.ORDER))
                    .toList();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A run of a sweep and what its target's JVM recorded (see Jvm). */
    public record RunJvm(String run, Jvm jvm) {
    }

    /** The runs of a sweep whose results hold their target's JVM events, in folder order. */
    public static List<RunJvm> jvmEvents(SweepFolder sweep) {
        if (!Files.isDirectory(sweep.points())) {
            return List.of();
        }
        try (Stream<Path> dirs = Files.list(sweep.points())) {
            return dirs.map(RunFolder::new).filter(d -> Files.isRegularFile(d.resultFile()) && failure(d.resultFile()) == null)
                    .map(d -> new RunJvm(d.dir().getFileName().toString(), ResultFile.read(d.resultFile()).jvm()))
                    .filter(e -> e.jvm() != null).sorted(Comparator.comparing(RunJvm::run)).toList();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static RunRow row(SweepFolder sweep, RunFolder pointDir, String sweepBoot) {
        return row(sweep.dir(), pointDir, sweepBoot);
    }

    /** The row of ./lab run's own folder (its point.json written by the run): a run of one point. */
    public static RunRow row(RunFolder run) {
        return row(run.dir(), run, null);
    }

    /**
     * @param base      the folder its report link is relative to (the sweep's)
     * @param sweepBoot the boot id the sweep began on, or null
     */
    private static RunRow row(Path base, RunFolder pointDir, String sweepBoot) {
        PointRecord record = PointRecord.read(pointDir);
        PointRecord.Described point = record.point();
        Machine.Fingerprint machine = record.start() == null ? null : record.start().machine();
        // a run on another boot than the sweep's first runs: another machine, whose CPU may differ (see cpuProbe)
        String runBoot = machine == null ? null : machine.bootId();
        boolean elsewhere = sweepBoot != null && runBoot != null && !sweepBoot.equals(runBoot);
        Double cpuProbe = machine == null ? null : machine.cpuProbeMibPerSecond();
        String report = Files.isRegularFile(pointDir.reportPage()) ? base.relativize(pointDir.reportPage()).toString() : null;
        Long wall = record.ended() == null ? null : record.ended().wallSeconds();
        RunFacts facts = new RunFacts(point.id(), point.target(), point.users(), point.rate(), point.latencyMs(), point.run(),
                point.connectionSettings(), cpuProbe, elsewhere, report, wall);
        if (!record.outcome().done()) {
            return RunRow.failed(new RunRow.Identity(facts.id(), facts.target(), facts.users(), point.rate(), facts.latencyMs(), facts.run()),
                    new RunRow.Outcome(Status.FAILED, record.outcome().reason()), facts.connectionSettings(), cpuProbe, report, wall);
        }
        return row(ResultFile.read(pointDir.resultFile()), facts);
    }

    /**
     * A result file's row: from its point.json when one is beside it (./lab run's folder, a sweep's point), else from
     * the file alone (a merge's output, a run copied elsewhere): named by its folder and its target.
     */
    public static RunRow row(Path resultFile) {
        RunFolder folder = new RunFolder(resultFile.toAbsolutePath().getParent());
        if (failure(resultFile) == null && folder.resultFile().equals(resultFile.toAbsolutePath()) && Files.isRegularFile(folder.pointRecord())) {
            return row(folder);
        }
        Result r = ResultFile.read(resultFile);
        Result.Parameters p = r.parameters();
        String target = r.target() == null ? "a server started by hand" : r.target().id();
        String report = Files.isRegularFile(folder.reportPage()) ? folder.dir().relativize(folder.reportPage()).toString() : null;
        return row(r, new RunFacts(folder.dir().getFileName().toString(), target, p.open() ? 0 : p.users(),
                p.open() ? p.injection().rates().getLast() : null, r.model() == null ? 0 : Math.round(r.model().latencyMs()), 1,
                r.target() == null || Target.SERVICE_MODULE.equals(r.target().module()) ? "" : Target.parse(r.target().id()).connectionSettings(),
                null, false, report, null));
    }

    /** Why the run of this result file failed, as the point.json beside it says; null when it did not (or none is there). */
    public static String failure(Path resultFile) {
        RunFolder folder = new RunFolder(resultFile.toAbsolutePath().getParent());
        if (!folder.resultFile().equals(resultFile.toAbsolutePath()) || !Files.isRegularFile(folder.pointRecord())) {
            return null;
        }
        PointRecord.Ending outcome = PointRecord.read(folder).outcome();
        return outcome.done() ? null : outcome.reason() == null ? "failed" : outcome.reason();
    }

    /** What a run's row takes from beside its result file: its point.json, or its folder. */
    private record RunFacts(String id, String target, int users, Double rate, long latencyMs, int run, String connectionSettings,
            Double cpuProbe, boolean elsewhere, String report, Long wallSeconds) {
    }

    private static RunRow row(Result r, RunFacts facts) {
        boolean elsewhere = facts.elsewhere();
        Double cpuProbe = facts.cpuProbe();
        Result.Model model = r.model();
        Result.Plateau plateau = r.plateau();
        // an open point: its level (a ladder's highest reached), the arrivals due while the rate was held, timed from due
        Result.Level level = r.open() == null ? null : r.open().topLevel() != null ? r.open().topLevel() : r.open().levels().get(0);
        boolean onPlateau = r.throughput().plateauPerSecond() != null;
        Double throughput = level != null ? PlateauSpan.meanOfWholeSeconds(r.throughput().completedPerSecond(), level.window().fromSecond(),
                level.window().toSecond())
                : onPlateau ? r.throughput().plateauPerSecond() : (Double) r.throughput().meanPerSecond();
        Double goodput = level != null ? level.goodputPerSecond()
                : onPlateau ? r.throughput().goodputPlateauPerSecond() : r.throughput().goodputMeanPerSecond();
        Double modelThroughput = model == null ? null
                : onPlateau ? model.throughputAtFullPopulationPerSecond() : model.meanThroughputBoundPerSecond();
        Double machineCpu = onPlateau ? plateau.machineCpu() : r.injector().machineCpu().mean();
        Double injectorCpu = onPlateau ? plateau.injectorCpu() : r.injector().cpu().mean();
        Double serverCpu = onPlateau ? plateau.serverCpu() : r.server().cpu().mean();
        long ko = r.requests().ko();
        String topReason = null;
        long topCount = 0;
        for (Map.Entry<String, Long> e : r.requests().koByReason().entrySet()) {
            if (e.getValue() > topCount) {
                topCount = e.getValue();
                topReason = e.getKey();
            }
        }
        Boolean saturated = model == null ? null : model.saturated();
        List<String> flags = Flags.ofRun(r, new Flags.Plateau(machineCpu, injectorCpu, serverCpu, throughput, modelThroughput, saturated),
                topReason, elsewhere);
        Double heap = r.server().heapUsedBytes().max();
        Result.ResponseTimes ms = level != null ? level.times().judged() : r.responseTimeMs();
        int cores = r.injector().cores();
        return new RunRow(new RunRow.Identity(facts.id(), facts.target(), facts.users(), facts.rate(), facts.latencyMs(), facts.run()),
                new RunRow.Outcome(Status.DONE, null), new Pool(model == null ? null : model.threads(), facts.connectionSettings(),
                        r.injector().connections()),
                new RunRow.Rates(goodput, throughput, r.throughput().meanPerSecond(), r.throughput().peakPerSecond()),
                new RunRow.Latencies(ms.p50(), ms.p75(), ms.p95(), ms.p99(), ms.p999(), ms.max()),
                new RunRow.Requests(r.requests().total(), ko, r.requests().koPercent(), topReason),
                new RunRow.Threads(r.server().threads().peakLiveThreads(), r.server().threads().busyThreads().max()),
                new RunRow.Cpu(serverCpu, injectorCpu, machineCpu, cores, MachineCeiling.cpuMsPerRequest(serverCpu, cores, goodput),
                        MachineCeiling.cpuMsPerRequest(injectorCpu, cores, goodput), plateau == null ? null : plateau.machineSteal(),
                        plateau == null ? null : plateau.loadAverage(), cpuProbe),
                new RunRow.Peaks(heap == null ? null : heap / 1024 / 1024, r.injector().openFiles().max(), r.server().files().openFiles().max()),
                model == null ? Model.NONE : new Model(model.offeredLoadPerSecond(),
                        model.poolBoundPerSecond(), modelThroughput, model.kneeUsers(), model.responseTimeMsAtFullPopulation(), saturated),
                PoolEvidence.of(r), new RunRow.Notes(RowFlags.of(flags), facts.report(), facts.wallSeconds(),
                        SloCell.ofRun(r.slo())));
    }

    static Double ms(Long ms) {
        return ms == null ? null : ms.doubleValue();
    }
}
