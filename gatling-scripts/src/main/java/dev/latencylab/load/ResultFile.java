package dev.latencylab.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;

import org.HdrHistogram.Histogram;

/**
 * The machine-readable outcome of one simulation run (Gatling 3.16 writes none): parameters, counts, throughput,
 * percentiles and the encoded histogram, injector and server samples, and the model's numbers for the run.
 */
public final class ResultFile {

    public static final String SCHEMA = "latency-lab/result/1";
    public static final String NAME = "result.json";
    /** The simulation's console line once the file is written (the target is no longer needed): this, then its path. */
    public static final String WRITTEN = "latency-lab: result file ";
    /** Samples with at least this share of the peak of active users make up the plateau (full population). */
    static final double PLATEAU_SHARE = 0.95;

    private ResultFile() {
    }

    /** How an open run connects (recorded in its result file). */
    public static final String OPEN_CONNECTIONS = "shared: Gatling's HTTP/1.1 pool for all arrivals, a new connection whenever "
            + "none is idle (no cap, so no arrival waits for one; peakInFlight is how many were in use)";

    /**
     * Everything the run learned, in the result file's layout.
     *
     * @param arrivals the open model's arrivals, null for a closed run
     */
    public static Result build(SimulationSettings settings, Preflight preflight, RunRecorder run, Sampler sampler,
            ArrivalRecorder arrivals, long connectTimeoutMs, long requestTimeoutMs) {
        double seconds = run.duration().toMillis() / 1000.0;
        long total = run.ok() + run.ko();
        Result.Requests requests = new Result.Requests(total, run.ok(), run.ko(), total == 0 ? 0.0 : 100.0 * run.ko() / total,
                run.koByReason(), new Result.Timeouts(connectTimeoutMs, requestTimeoutMs));

        long[] perSecond = run.completedPerSecond();
        long[] okPerSecond = run.okPerSecond();
        Result.Open open = arrivals == null ? null : open(settings, preflight, run, sampler, arrivals);
        PlateauRule rule = plateauRule(open, run.peakActiveUsers());
        Predicate<Sampler.Tick> onPlateau = t -> rule.test(t.second(), (double) t.activeUsers());
        List<Sampler.Tick> plateauTicks = sampler.ticks().stream().filter(onPlateau).toList();
        PlateauSeconds span = plateauTicks.isEmpty() ? PlateauSeconds.NONE
                : PlateauSeconds.of(plateauTicks.get(0).second(), plateauTicks.get(plateauTicks.size() - 1).second(), perSecond, okPerSecond);
        Result.Plateau plateau = plateauTicks.isEmpty() ? null : new Result.Plateau(span.from(), span.to(),
                plateauTicks.stream().mapToInt(Sampler.Tick::activeUsers).min().orElse(0), span.throughput(),
                sampler.series(Sampler.Tick::injectorCpu, onPlateau).mean(), sampler.series(Sampler.Tick::machineCpu, onPlateau).mean(),
                sampler.series(Sampler.Tick::serverCpu, onPlateau).mean(), sampler.series(Sampler.Tick::machineSteal, onPlateau).mean(),
                sampler.series(Sampler.Tick::loadAverage, onPlateau).mean());
        Result.Throughput throughput = new Result.Throughput(seconds == 0 ? 0.0 : total / seconds,
                Arrays.stream(perSecond).max().orElse(0), span.throughput(), perSecond,
                seconds == 0 ? 0.0 : run.ok() / seconds, span.goodput(), okPerSecond);

        Histogram h = run.responseTimes();
        Result.Injector injector = new Result.Injector(sampler.cores(),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.version"), run.peakActiveUsers(),
                preflight.connections().id(), preflight.switched(), preflight.openFilesNeeded(), preflight.openFilesLimit(),
                sampler.series(Sampler.Tick::injectorOpenFiles).stat(), sampler.series(Sampler.Tick::injectorCpu).stat(),
                sampler.series(Sampler.Tick::machineCpu).stat());
        Map<String, Double> last = sampler.lastServerValues();
        Result.Server server = new Result.Server(
                new Result.Sampling(preflight.samplesServer(settings), sampler.serverMisses(), sampler.serverRefusals(), sampler.firstRefusalSecond()),
                new Result.ServerProcess(settings.watch().targetPid().isPresent() ? settings.watch().targetPid().getAsLong() : null,
                        sampler.targetExitedSecond()),
                new Result.Threads(preflight.targetThreads().isPresent() ? preflight.targetThreads().getAsInt() : null,
                        last.get("jvm_threads_peak_threads"), sampler.series(Sampler.Tick::serverLiveThreads).stat(),
                        sampler.series(Sampler.Tick::serverBusyThreads).stat()),
                sampler.series(Sampler.Tick::serverHeapUsedBytes).stat(), sampler.series(Sampler.Tick::serverCpu).stat(),
                new Result.Files(sampler.series(Sampler.Tick::serverOpenFiles).stat(), last.get("process_files_max_files")),
                new Result.Waiting(sampler.series(Sampler.Tick::serverWaitingRequests).stat(), last.get("hello_waiting_peak")),
                Sampler.ConnectionPool.in(last, settings.endpoint().path()).map(p -> new Result.ConnectionPool(p.library,
                        last.get(p.max), sampler.series(Sampler.Tick::serverPoolActive).stat(),
                        sampler.series(Sampler.Tick::serverPoolPending).stat())).orElse(null),
                sampler.pools().result((second, users) -> rule.test(second, (double) users)));

        return new Result(SCHEMA, "dev.latencylab.load.LoadSimulation", null, settings.result(), run.startedAt().toString(),
                run.endedAt().toString(), seconds, requests, throughput, plateau, percentiles(h),
                encoded(h), injector, server,
                settings.open() ? openModel(settings, preflight.targetThreads()).map(OpenModel::result).orElse(null)
                        : model(settings, preflight.targetThreads()).map(QueueingModel::result).orElse(null),
                open, timeline(sampler.ticks()), problems(settings, run, sampler, arrivals), null, null, byRequest(settings.endpoint().mix(), run));
    }

    /** Each request of a mix on its own, in the mix's order; null for a run of one request. */
    private static List<Result.ByRequest> byRequest(RequestMix mix, RunRecorder run) {
        if (run.requestKinds() == 0) {
            return null;
        }
        List<Result.ByRequest> each = new java.util.ArrayList<>();
        for (int i = 0; i < run.requestKinds(); i++) {
            Histogram h = run.responseTimes(i);
            RequestMix.Request q = mix.requests().get(i);
            each.add(new Result.ByRequest(q.name(), q.weight(), run.ok(i), run.ko(i), percentiles(h), encoded(h)));
        }
        return each;
    }

    private static Result.Open open(SimulationSettings settings, Preflight preflight, RunRecorder run, Sampler sampler,
            ArrivalRecorder arrivals) {
        Optional<OpenModel> any = openModel(settings, preflight.targetThreads());
        long[] okPerSecond = run.okPerSecond();
        return arrivals.result(OPEN_CONNECTIONS, run.startedAt().toEpochMilli(), span -> {
            Predicate<Sampler.Tick> in = t -> t.second() >= span[0] && t.second() <= span[1];
            return new ArrivalRecorder.Span(sampler.series(Sampler.Tick::serverCpu, in).mean(),
                    sampler.series(Sampler.Tick::injectorCpu, in).mean(), sampler.series(Sampler.Tick::machineCpu, in).mean(),
                    meanOfWholeSeconds(okPerSecond, span[0], span[1]));
        }, level -> any.map(m -> modelThroughput(m, settings.load().rates().get(level)) * settings.split().shareOfRate(settings.load().rates().get(level))
                / settings.load().rates().get(level)).orElse(null),
                any.flatMap(m -> m.capacity().isPresent() ? Optional.of(m.capacity().getAsDouble()) : Optional.empty()).orElse(null));
    }

    /** The model's throughput at another rate of the same run (a level of a ladder). */
    static double modelThroughput(OpenModel model, double rate) {
        return new OpenModel(rate, model.latencyMs(), model.threads(), model.levelSeconds()).throughput();
    }

    /**
     * The whole seconds of a plateau, from the second of its first sample up to (not including) that of its last, and
     * the mean completions and OK responses per second in them (null when that is no whole second). One rule for a
     * run's plateau and for a merged one (ResultMerge).
     */
    record PlateauSeconds(int from, int to, Double throughput, Double goodput) {

        static final PlateauSeconds NONE = new PlateauSeconds(0, 0, null, null);

        static PlateauSeconds of(double firstSample, double lastSample, long[] perSecond, long[] okPerSecond) {
            int from = (int) Math.floor(firstSample);
            int to = Math.min((int) Math.floor(lastSample), perSecond.length);
            return to > from ? new PlateauSeconds(from, to, Arrays.stream(perSecond, from, to).average().orElse(0),
                    Arrays.stream(okPerSecond, from, to).average().orElse(0)) : new PlateauSeconds(from, to, null, null);
        }
    }

    /** The mean of a per-second series over the whole seconds within from..to (those the run reached); null if none. */
    public static Double meanOfWholeSeconds(long[] perSecond, double from, double to) {
        int first = (int) Math.ceil(from);
        int end = Math.min((int) Math.floor(to), perSecond.length);
        return end <= first ? null : Arrays.stream(perSecond, first, end).average().orElse(0);
    }

    /** An open run's plateau: the highest level it reached, the seconds its arrivals were due in. */
    /** Whether a sample (its second on the run's clock, its active users if known) is on the plateau. */
    interface PlateauRule {
        boolean test(double second, Double activeUsers);
    }

    /**
     * The plateau's one rule, for a run's samples here and for a merge's summed rows (ResultMerge): an open run's is its
     * highest level reached (the seconds its arrivals were due in), a closed run's the samples with at least
     * {@link #PLATEAU_SHARE} of the peak of active users (its full population).
     */
    static PlateauRule plateauRule(Result.Open open, double peakActiveUsers) {
        if (open != null) {
            Result.Level top = open.topLevel();
            return (second, active) -> top != null && second >= top.window().fromSecond() && second <= top.window().toSecond();
        }
        return (second, active) -> peakActiveUsers > 0 && active != null && active >= PLATEAU_SHARE * peakActiveUsers;
    }

    /** The open model for these settings at their top rate, when the path names a latency. */
    public static Optional<OpenModel> openModel(SimulationSettings s, OptionalInt threads) {
        if (s.latencyMs().isEmpty() || s.openLoad().isEmpty()) {
            return Optional.empty();
        }
        // the whole run's top rate, also in an injector's part of a split run (as its users are the whole run's)
        return Optional.of(new OpenModel(s.load().rates().get(s.load().rates().size() - 1), s.latencyMs().getAsLong(), threads,
                s.load().levelDuration().toSeconds()));
    }

    /** The samples as columns and rows (see Sampler.Tick#row). */
    private static Result.Timeline timeline(List<Sampler.Tick> ticks) {
        return new Result.Timeline(Sampler.Tick.COLUMNS, ticks.stream().map(Sampler.Tick::row).toList());
    }

    /** The model for these settings, when the path names a latency. */
    public static Optional<QueueingModel> model(SimulationSettings s, OptionalInt threads) {
        if (s.latencyMs().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new QueueingModel(s.users(), s.latencyMs().getAsLong(), s.thinkMean().toMillis(), threads,
                s.pacing().ramp().toSeconds(), s.pacing().repeat()));
    }

    static Result.ResponseTimes percentiles(Histogram h) {
        boolean none = h.getTotalCount() == 0;
        return new Result.ResponseTimes(h.getTotalCount(), none ? null : h.getValueAtPercentile(50),
                none ? null : h.getValueAtPercentile(75), none ? null : h.getValueAtPercentile(95),
                none ? null : h.getValueAtPercentile(99), none ? null : h.getValueAtPercentile(99.9),
                none ? null : h.getMaxValue(), none ? null : h.getMean());
    }

    /**
     * What makes this run's numbers not the server's: the target died or refused connections, or no request
     * succeeded. Empty for a run that counts; ./lab fails a run (or sweep point) with any.
     */
    static List<String> problems(SimulationSettings settings, RunRecorder run, Sampler sampler, ArrivalRecorder arrivals) {
        List<String> problems = new ArrayList<>();
        if (arrivals != null && arrivals.unscheduled() > 0) {
            problems.add(("%,d arrivals had user ids outside the injection schedule: their due times are unknown, so the "
                    + "latency from due is not to be trusted (a second scenario, or another Gatling version?)").formatted(arrivals.unscheduled()));
        }
        if (sampler.targetExitedSecond() != null) {
            problems.add("the target JVM (pid %d) exited %.0f s into the run".formatted(settings.watch().targetPid().getAsLong(),
                    sampler.targetExitedSecond()));
        }
        if (sampler.serverRefusals() > 0) {
            problems.add("the target refused connections from %.0f s into the run on (%d of its samples): it was down"
                    .formatted(sampler.firstRefusalSecond(), sampler.serverRefusals()));
        }
        long total = run.ok() + run.ko();
        if (total == 0) {
            problems.add("no request completed");
        }
        else if (run.ok() == 0) {
            problems.add("every request failed (%,d KO: %s)".formatted(run.ko(), run.koByReason()));
        }
        return problems;
    }

    /** The problems a result file records (none for files written before they were). */
    public static List<String> problems(Path file) {
        return read(file).problems();
    }

    /** A histogram as the result file stores it. */
    static Result.EncodedHistogram encoded(Histogram h) {
        return new Result.EncodedHistogram(ResultCheck.UNIT, ResultCheck.ENCODING, encode(h));
    }

    public static String encode(Histogram h) {
        ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int length = h.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length));
    }

    public static Histogram decode(String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        }
        catch (java.util.zip.DataFormatException e) {
            throw new IllegalArgumentException("not an encoded HdrHistogram", e);
        }
    }

    /** rw-r--r--, as every other file the lab writes (a temporary file's default is rw-------). */
    static final java.nio.file.attribute.FileAttribute<?> READABLE =
            java.nio.file.attribute.PosixFilePermissions.asFileAttribute(java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));

    /** Writes the whole file or nothing: a sibling file, renamed over the target once complete. */
    public static void write(Result result, Path file) {
        write(result, file, true);
    }

    /**
     * Writes a file that must not exist: the whole file or nothing, and never over a file another process wrote in
     * the meantime (the complete sibling is hard-linked to the name, which fails when the name is taken).
     *
     * @throws java.nio.file.FileAlreadyExistsException (unchecked, as UncheckedIOException's cause) when it exists
     */
    public static void writeNew(Result result, Path file) {
        write(result, file, false);
    }

    private static void write(Result result, Path file, boolean replace) {
        try {
            Path dir = file.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path partial = Files.createTempFile(dir, file.getFileName().toString(), ".partial", READABLE);
            try {
                Json.MAPPER.writeValue(partial.toFile(), result);
                if (replace) {
                    Files.move(partial, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                }
                else {
                    Files.createLink(file, partial);
                }
            }
            finally {
                Files.deleteIfExists(partial);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A result file of this schema or an earlier one of the same major version, whose arithmetic holds (see
     * {@link ResultCheck}); unknown fields are refused.
     *
     * @throws BadResultFile naming the file and what is wrong with it
     */
    public static Result read(Path file) {
        Result r;
        try {
            r = Json.MAPPER.readValue(file.toFile(), Result.class);
        }
        catch (tools.jackson.core.JacksonException e) {
            throw new BadResultFile(file, "not a result file of this version: " + e.getOriginalMessage());
        }
        List<String> problems = ResultCheck.problems(r);
        if (!problems.isEmpty()) {
            throw new BadResultFile(file, String.join("; ", problems));
        }
        return r;
    }

    /** A result file that cannot be read or does not add up: one line, naming the file and the field. */
    public static final class BadResultFile extends IllegalArgumentException {
        BadResultFile(Path file, String why) {
            super(file + ": " + why);
        }
    }

    /**
     * gatling:test's results folder (gatling-scripts/pom.xml), given to Maven and passed on to the simulation's JVM:
     * each injector of a split run on one file system needs its own.
     */
    public static final String RESULTS_FOLDER = "gatling.resultsFolder";
    private static final String DEFAULT_RESULTS_FOLDER = "target/gatling";

    /**
     * Where a run's result goes unless sim.result.file says otherwise: into the report folder Gatling made for this
     * run (the newest folder under gatling.resultsFolder holding a simulation.log started after the run began), so the
     * HTML report and result.json sit side by side.
     */
    public static Path defaultLocation(Instant runStart) {
        Path resultsRoot = Path.of(System.getProperty(RESULTS_FOLDER, DEFAULT_RESULTS_FOLDER));
        try (Stream<Path> runs = Files.list(resultsRoot)) {
            return runs.filter(d -> Files.isRegularFile(d.resolve("simulation.log")))
                    .filter(d -> modified(d.resolve("simulation.log")) >= runStart.toEpochMilli() - 1000)
                    .max(Comparator.comparingLong(d -> modified(d.resolve("simulation.log"))))
                    .map(d -> d.resolve(NAME))
                    .orElse(resultsRoot.resolve("result-" + runStart.toEpochMilli() + ".json"));
        }
        catch (IOException e) {
            return resultsRoot.resolve("result-" + runStart.toEpochMilli() + ".json");
        }
    }

    private static long modified(Path p) {
        try {
            return Files.getLastModifiedTime(p).toMillis();
        }
        catch (IOException e) {
            return 0;
        }
    }
}
