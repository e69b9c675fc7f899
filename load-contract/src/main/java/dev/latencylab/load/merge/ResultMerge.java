package dev.latencylab.load.merge;

import dev.latencylab.load.result.HistogramCodec;
import dev.latencylab.load.result.PlateauSpan;
import dev.latencylab.load.model.OpenModel;
import dev.latencylab.load.model.SloJudgement;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultCheck;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.load.result.Tick;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

import org.HdrHistogram.Histogram;

/**
 * The result files of K injectors that loaded one target together (sim.injectors=K), merged into one result of the
 * same schema, as if one process had sent every request: the histograms added (exact: HdrHistogram), counts and KO
 * reasons summed, per-second completions aligned on wall-clock seconds (to the nearest second) and summed, the
 * samples' active users and injector CPU summed per second, and the plateau found again on the sum; an open run's
 * levels merged the same way and judged again against the SLO (see {@link #open}). The server's samples and the
 * model are injector 0's (every injector samples the same server; the model is the whole run's).
 * Each injector's own counts, CPU and open files stay in {@link Result#parts()}.
 */
public final class ResultMerge {

    /** Injectors that started further apart than this did not run together. */
    public static final Duration MAX_START_SKEW = Duration.ofSeconds(5);

    /** Why files do not merge: which file, what does not match. */
    public static final class MergeException extends IllegalArgumentException {
        MergeException(String message) {
            super(message);
        }
    }

    private ResultMerge() {
    }

    /**
     * Reads the files and merges them; a file that cannot be read or does not belong is refused by name.
     *
     * @param base the parts' files are recorded relative to it (the merged file's folder), so the folder can move
     */
    public static Result merge(List<Path> files, Path base) {
        List<Result> results = new ArrayList<>();
        for (Path f : files) {
            try {
                results.add(ResultFile.read(f));
            }
            catch (ResultFile.BadResultFile e) {
                throw new MergeException(e.getMessage());
            }
            catch (java.io.UncheckedIOException e) {
                throw new MergeException("%s cannot be read: %s".formatted(f, e.getCause().getMessage()));
            }
        }
        Path from = base.toAbsolutePath().normalize();
        return merge(files.stream().map(f -> from.relativize(f.toAbsolutePath().normalize()).toString()).toList(), results);
    }

    /** @param names how each result is called in messages and in the merged parts (its file) */
    public static Result merge(List<String> names, List<Result> results) {
        MergeCheck.check(names, results);
        Integer[] order = new Integer[results.size()];
        Arrays.setAll(order, i -> i);
        Arrays.sort(order, Comparator.comparingInt(i -> results.get(i).parameters().split().injectorIndex()));
        List<Result> parts = Arrays.stream(order).map(results::get).toList();
        List<String> partNames = Arrays.stream(order).map(names::get).toList();
        Result first = parts.get(0);

        Instant start = parts.stream().map(r -> Instant.parse(r.start())).min(Comparator.naturalOrder()).orElseThrow();
        Instant end = parts.stream().map(r -> Instant.parse(r.end())).max(Comparator.naturalOrder()).orElseThrow();
        double seconds = Duration.between(start, end).toMillis() / 1000.0;
        int[] offsets = parts.stream().mapToInt(r -> (int) Math.round(Duration.between(start, Instant.parse(r.start())).toMillis() / 1000.0)).toArray();

        Histogram h = added(parts, Result::histogram);
        Result.Requests requests = requests(parts);
        long total = requests.total();
        long ok = requests.ok();

        long[] perSecond = aligned(parts, offsets, r -> r.throughput().completedPerSecond());
        long[] okPerSecond = aligned(parts, offsets, r -> r.throughput().okPerSecond());
        List<Tick> ticks = ticks(parts, offsets);
        Result.Open open = first.open() == null ? null : open(parts, offsets[0], okPerSecond, first.parameters().injection(), first.model());
        double peak = ticks.stream().mapToInt(Tick::activeUsers).max().orElse(0);
        PlateauSpan.Rule rule = PlateauSpan.rule(open, peak); // as a single run finds its own
        List<Tick> onPlateau = ticks.stream().filter(t -> rule.test(t.second(), (double) t.activeUsers())).toList();
        PlateauSpan.Seconds span = onPlateau.isEmpty() ? PlateauSpan.Seconds.NONE : PlateauSpan.Seconds.of(
                onPlateau.get(0).second(), onPlateau.getLast().second(), perSecond, okPerSecond);
        Result.Plateau plateau = onPlateau.isEmpty() ? null : new Result.Plateau(span.from(), span.to(),
                onPlateau.stream().mapToInt(Tick::activeUsers).min().orElse(0), span.throughput(),
                mean(onPlateau, Tick::injectorCpu), mean(onPlateau, Tick::machineCpu), mean(onPlateau, Tick::serverCpu),
                mean(onPlateau, Tick::machineSteal), mean(onPlateau, Tick::loadAverage));
        Result.Throughput throughput = new Result.Throughput(seconds == 0 ? 0.0 : total / seconds, Arrays.stream(perSecond).max().orElse(0),
                span.throughput(), perSecond, seconds == 0 ? 0.0 : ok / seconds, span.goodput(), okPerSecond);

        List<String> problems = new ArrayList<>();
        List<Result.Part> merged = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            Result r = parts.get(i);
            int index = r.parameters().split().injectorIndex();
            r.problems().forEach(p -> problems.add("injector %d: %s".formatted(index, p)));
            merged.add(new Result.Part(index, partNames.get(i), r.start(), r.end(), r.requests(), r.injector()));
        }
        Result.Split split = first.parameters().split();
        Result.Parameters parameters = first.parameters().withSplit(new Result.Split(split.injectors(), null, split.startAtEpochMs()));
        // each injector counted its own connections' ALPN: the run's are their sum
        Map<String, Long> negotiated = new TreeMap<>();
        parts.stream().map(p -> p.parameters().endpoint().negotiated()).filter(Objects::nonNull)
                .forEach(m -> m.forEach((protocol, n) -> negotiated.merge(protocol, n, Long::sum)));
        parameters = parameters.with(parameters.endpoint().negotiated(negotiated));
        Result result = new Result(ResultFile.SCHEMA, first.simulation(), first.target(), parameters, start.toString(), end.toString(), seconds, requests,
                throughput, plateau, HistogramCodec.percentiles(h),
                HistogramCodec.encoded(h), injector(parts),
                first.server(), first.model(), open, timeline(first.timeline().columns(), ticks), problems, merged, null,
                first.byRequest() == null ? null : byRequest(parts));
        List<String> wrong = ResultCheck.problems(result);
        if (!wrong.isEmpty()) {
            throw new IllegalStateException("the merge does not add up (a defect of the merge): " + String.join("; ", wrong));
        }
        return result;
    }

    /** The parts' counts added, their KOs by reason too. */
    private static Result.Requests requests(List<Result> parts) {
        long ok = 0;
        long ko = 0;
        Map<String, Long> koByReason = new TreeMap<>();
        for (Result r : parts) {
            ok += r.requests().ok();
            ko += r.requests().ko();
            r.requests().koByReason().forEach((reason, n) -> koByReason.merge(reason, n, Long::sum));
        }
        long total = ok + ko;
        return new Result.Requests(total, ok, ko, total == 0 ? 0.0 : 100.0 * ko / total, koByReason, parts.get(0).requests().timeoutsMs());
    }

    /** Each request of a mix, over the parts (their settings are the same: the same mix): counts and histograms added. */
    private static List<Result.ByRequest> byRequest(List<Result> parts) {
        List<Result.ByRequest> merged = new ArrayList<>();
        for (int i = 0; i < parts.get(0).byRequest().size(); i++) {
            int at = i;
            Result.ByRequest one = parts.get(0).byRequest().get(at);
            Histogram h = added(parts, r -> r.byRequest().get(at).histogram());
            merged.add(new Result.ByRequest(one.name(), one.weight(), parts.stream().mapToLong(r -> r.byRequest().get(at).ok()).sum(),
                    parts.stream().mapToLong(r -> r.byRequest().get(at).ko()).sum(), HistogramCodec.percentiles(h), HistogramCodec.encoded(h)));
        }
        return merged;
    }

    /** What a merged result counted, whole and by injector: "33 requests (18 + 15)". */
    public static String requestCounts(Result merged) {
        return "%,d requests (%s)".formatted(merged.requests().total(), merged.parts().stream()
                .map(p -> "%,d".formatted(p.requests().total())).reduce((a, b) -> a + " + " + b).orElseThrow());
    }

    /**
     * The open model's section of the merged run: each level's arrivals and counts summed and its histograms added, its
     * verdict judged again on the sums by the rule each injector applies (SloJudgement); its window injector
     * 0's on the merged clock, goodput the merged OK completions over that window, injector CPU summed, the server's
     * and machine's CPU injector 0's samples (the same server and machine); its rate and model throughput the whole
     * run's.
     */
    private static Result.Open open(List<Result> parts, int offset, long[] okPerSecond, Result.Injection p, Result.Model model) {
        List<Result.Open> opens = parts.stream().map(Result::open).toList();
        Result.Open o0 = opens.get(0);
        boolean flows = o0.flows();
        List<Result.Level> levels = new ArrayList<>();
        for (int i = 0; i < o0.levels().size(); i++) {
            int index = i;
            List<Result.Level> ls = opens.stream().map(o -> o.levels().get(index)).toList();
            Result.Level l0 = ls.get(0);
            Histogram gatling = added(ls, lv -> lv.histograms().responseTimeHistogram());
            Histogram fromDue = added(ls, lv -> lv.histograms().fromDueHistogram());
            Histogram lag = added(ls, lv -> lv.histograms().injectorLagHistogram());
            long planned = ls.stream().mapToLong(lv -> lv.counts().plannedArrivals()).sum();
            long arrivals = ls.stream().mapToLong(lv -> lv.counts().arrivals()).sum();
            long ok = ls.stream().mapToLong(lv -> lv.counts().ok()).sum();
            long ko = ls.stream().mapToLong(lv -> lv.counts().ko()).sum();
            long unanswered = ls.stream().mapToLong(lv -> lv.counts().unanswered()).sum();
            double from = Math.round((l0.window().fromSecond() + offset) * 1000) / 1000.0;
            double to = Math.round((l0.window().toSecond() + offset) * 1000) / 1000.0;
            double rate = p.rates().get(i);
            Result.ResponseTimes fromDueMs = HistogramCodec.percentiles(fromDue);
            long slower = fromDue.getTotalCount() - fromDue.getCountBetweenValues(0, p.sloP99Ms());
            SloJudgement judged = SloJudgement.of(planned, arrivals, ok, ko, unanswered, fromDueMs,
                    SloJudgement.missed(flows ? ok + ko : planned, slower, ko, p.sloKoPercent()), p.sloP99Ms(), p.sloKoPercent(), flows);
            Double modelThroughput = model == null ? null : new OpenModel(rate, model.latencyMs(),
                    model.threads() == null ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(model.threads()), p.levelSeconds()).throughput();
            levels.add(new Result.Level(l0.index(), rate, new Result.Window(from, to), new Result.Counts(planned, arrivals, ok, ko, unanswered),
                    arrivals == 0 ? null : PlateauSpan.meanOfWholeSeconds(okPerSecond, from, to),
                    new Result.LevelTimes(HistogramCodec.percentiles(gatling), fromDueMs, HistogramCodec.percentiles(lag)),
                    new Result.Cpu(l0.cpu().serverCpu(), sum(ls, lv -> lv.cpu().injectorCpu()), l0.cpu().machineCpu()),
                    modelThroughput, judged.withinSlo(), judged.verdict(),
                    new Result.LevelHistograms(HistogramCodec.encoded(gatling), HistogramCodec.encoded(fromDue), HistogramCodec.encoded(lag))));
        }
        Histogram fromDue = added(opens, Result.Open::fromDueHistogram);
        Histogram lag = added(opens, Result.Open::injectorLagHistogram);
        List<String> stops = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            if (opens.get(i).stoppedEarly() != null) {
                stops.add("injector %d: %s".formatted(parts.get(i).parameters().split().injectorIndex(), opens.get(i).stoppedEarly()));
            }
        }
        return new Result.Open(o0.arrivals(), o0.connections(), new Result.Sent(opens.stream().mapToLong(o -> o.sent().plannedArrivals()).sum(),
                opens.stream().mapToLong(o -> o.sent().arrivalsStarted()).sum(), opens.stream().mapToLong(o -> o.sent().peakInFlight()).sum()),
                o0.slo(), HistogramCodec.percentiles(fromDue), HistogramCodec.encoded(fromDue), HistogramCodec.percentiles(lag),
                stops.isEmpty() ? null : String.join("; ", stops), o0.capacityPerSecond(), levels, HistogramCodec.encoded(lag), o0.arrivalSends());
    }

    private static <T> Histogram added(List<T> parts, java.util.function.Function<T, Result.EncodedHistogram> histogram) {
        Histogram sum = new Histogram(TimeUnit.HOURS.toMillis(2), 3);
        parts.forEach(part -> sum.add(HistogramCodec.decode(histogram.apply(part).data())));
        return sum;
    }

    /** Per-second series moved to wall-clock seconds since the earliest start and summed. */
    private static long[] aligned(List<Result> parts, int[] offsets, java.util.function.Function<Result, long[]> series) {
        int length = 0;
        for (int i = 0; i < parts.size(); i++) {
            long[] s = series.apply(parts.get(i));
            length = Math.max(length, offsets[i] + (s == null ? 0 : s.length));
        }
        long[] sum = new long[length];
        for (int i = 0; i < parts.size(); i++) {
            long[] s = series.apply(parts.get(i));
            for (int second = 0; s != null && second < s.length; second++) {
                sum[offsets[i] + second] += s[second];
            }
        }
        return sum;
    }

    /**
     * Injector 0's samples on the merged clock, each one's active users and injector CPU the sum over the injectors'
     * samples of the same wall-clock second (injector CPU: each a share of its machine's cores; on one machine, the
     * injectors' total); injector open files the most any one held (the limit is per process).
     */
    private static List<Tick> ticks(List<Result> parts, int[] offsets) {
        List<String> columns = parts.get(0).timeline().columns();
        List<Map<Long, Tick>> bySecond = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            Result.Timeline timeline = parts.get(i).timeline();
            if (!timeline.columns().equals(columns) || !Tick.COLUMNS.containsAll(columns)) {
                throw new MergeException("injector %d's samples have the columns %s, not injector 0's %s or not all of them a sample's (%s): "
                        .formatted(i, timeline.columns(), columns, Tick.COLUMNS) + "files of another version of the lab?");
            }
            Map<Long, Tick> m = new TreeMap<>();
            for (List<Object> row : timeline.rows()) {
                Tick t = Tick.of(columns, row);
                m.put(Math.round(t.second() + offsets[i]), t);
            }
            bySecond.add(m);
        }
        List<Tick> merged = new ArrayList<>();
        for (List<Object> row : parts.get(0).timeline().rows()) {
            Tick base = Tick.of(columns, row);
            double wall = base.second() + offsets[0];
            List<Tick> same = bySecond.stream().map(part -> part.get(Math.round(wall))).filter(Objects::nonNull).toList();
            merged.add(base.withInjectors(wall, same.stream().mapToInt(Tick::activeUsers).sum(),
                    total(same, Tick::injectorCpu), same.stream().mapToDouble(Tick::injectorOpenFiles).filter(v -> !Double.isNaN(v))
                            .max().orElse(Double.NaN)));
        }
        return merged;
    }

    /** The merged samples as a timeline of the parts' own columns. */
    private static Result.Timeline timeline(List<String> columns, List<Tick> ticks) {
        return new Result.Timeline(columns, ticks.stream().map(t -> t.row(columns)).toList());
    }

    /** The sum of what the samples read (NaN: none of them did), to three decimals as a timeline holds it. */
    private static double total(List<Tick> ticks, ToDoubleFunction<Tick> column) {
        double sum = 0;
        boolean any = false;
        for (Tick t : ticks) {
            double v = column.applyAsDouble(t);
            if (!Double.isNaN(v)) {
                sum += v;
                any = true;
            }
        }
        return any ? Math.round(sum * 1000) / 1000.0 : Double.NaN;
    }

    /** The injectors as one: users and CPU summed, open files the most of any one process (the limit is per process). */
    private static Result.Injector injector(List<Result> parts) {
        Result.Injector first = parts.get(0).injector();
        List<Result.Injector> all = parts.stream().map(Result::injector).toList();
        return new Result.Injector(first.cores(), first.jvm(), all.stream().mapToInt(Result.Injector::peakActiveUsers).sum(),
                first.connections(), all.stream().anyMatch(Result.Injector::connectionsSwitched),
                all.stream().mapToLong(Result.Injector::openFilesNeeded).max().orElse(0),
                all.stream().mapToLong(Result.Injector::openFilesLimit).min().orElse(0),
                most(all, Result.Injector::openFiles), summed(all, Result.Injector::cpu), first.machineCpu());
    }

    private static Result.Stat summed(List<Result.Injector> all, java.util.function.Function<Result.Injector, Result.Stat> stat) {
        return new Result.Stat(sum(all, i -> stat.apply(i).mean()), sum(all, i -> stat.apply(i).max()),
                all.stream().mapToLong(i -> stat.apply(i).samples()).min().orElse(0));
    }

    private static Result.Stat most(List<Result.Injector> all, java.util.function.Function<Result.Injector, Result.Stat> stat) {
        return new Result.Stat(max(all, i -> stat.apply(i).mean()), max(all, i -> stat.apply(i).max()),
                all.stream().mapToLong(i -> stat.apply(i).samples()).min().orElse(0));
    }

    /** The values summed; null if any is missing. */
    private static <T> Double sum(List<T> all, java.util.function.Function<T, Double> value) {
        return all.stream().map(value).anyMatch(Objects::isNull) ? null : all.stream().map(value).mapToDouble(Double::doubleValue).sum();
    }

    private static Double max(List<Result.Injector> all, java.util.function.Function<Result.Injector, Double> value) {
        return all.stream().map(value).filter(Objects::nonNull).mapToDouble(Double::doubleValue).boxed().max(Double::compare).orElse(null);
    }

    /** The mean of what the samples read, or null when none did. */
    private static Double mean(List<Tick> ticks, ToDoubleFunction<Tick> column) {
        double[] values = ticks.stream().mapToDouble(column).filter(v -> !Double.isNaN(v)).toArray();
        return values.length == 0 ? null : Arrays.stream(values).average().orElseThrow();
    }
}
