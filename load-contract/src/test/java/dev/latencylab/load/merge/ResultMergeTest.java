package dev.latencylab.load.merge;

import dev.latencylab.load.result.HistogramCodec;
import dev.latencylab.load.result.PlateauSpan;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultCheck;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.load.result.Tick;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * Merging injectors' result files: exact histograms, wall-clock alignment, and the refusals. The parts are a
 * published result file (the real layout) with their own histograms, counts, series and start times.
 */
class ResultMergeTest {

    private static final Result BASE = ResultFile.read(Path.of("..", "docs", "results", "points", "mvc-t200-l100-u1000-r1", "result.json"));
    private static final Instant START = Instant.parse("2026-11-22T20:00:00.000Z");

    @Test
    void mergingKHistogramsEqualsRecordingEverySampleInOne() {
        Random random = new Random(42);
        for (int k : new int[] {2, 3, 5}) {
            Histogram all = histogram();
            List<Histogram> shares = new ArrayList<>();
            for (int i = 0; i < k; i++) {
                shares.add(histogram());
            }
            for (int n = 0; n < 50_000; n++) {
                // a long tail, as under load: most near 100 ms, some seconds
                long ms = random.nextDouble() < 0.95 ? 100 + random.nextInt(50) : 100 + random.nextInt(20_000);
                all.recordValue(ms);
                shares.get(random.nextInt(k)).recordValue(ms);
            }
            List<Result> parts = new ArrayList<>();
            for (int i = 0; i < k; i++) {
                parts.add(part(k, i, START.plusMillis(100L * i), shares.get(i), new long[] {shares.get(i).getTotalCount()}, Map.of()));
            }
            Result merged = ResultMerge.merge(names(k), parts);

            Histogram m = HistogramCodec.decode(merged.histogram().data());
            assertThat(m).as("k=%d", k).isEqualTo(all);
            assertThat(merged.responseTimeMs()).isEqualTo(HistogramCodec.percentiles(all));
            assertThat(merged.requests().total()).isEqualTo(50_000).isEqualTo(all.getTotalCount());
            assertThat(merged.parts()).extracting(Result.Part::index).containsExactlyElementsOf(java.util.stream.IntStream.range(0, k).boxed().toList());
            assertThat(merged.parameters().split().injectorIndex()).isNull();
            assertThat(merged.parameters().split().injectors()).isEqualTo(k);
        }
    }

    @Test
    void perSecondSeriesAlignOnWallClockSecondsAndKoReasonsSum() {
        Result early = part(2, 0, START, histogram(3), new long[] {1, 1, 1}, Map.of("timeout", 2L));
        Result late = part(2, 1, START.plusMillis(2_000), histogram(15), new long[] {5, 5, 5}, Map.of("timeout", 1L, "status 503", 4L));
        Result merged = ResultMerge.merge(List.of("late.json", "early.json"), List.of(late, early));

        assertThat(merged.throughput().completedPerSecond()).containsExactly(1, 1, 6, 5, 5);
        assertThat(merged.start()).isEqualTo(START.toString());
        assertThat(merged.requests().koByReason()).containsExactlyInAnyOrderEntriesOf(Map.of("timeout", 3L, "status 503", 4L));
        assertThat(merged.requests().ko()).isEqualTo(7);
        assertThat(merged.requests().total()).isEqualTo(18);
        assertThat(merged.parts()).as("in injector order").extracting(Result.Part::file).containsExactly("early.json", "late.json");
        // the timeline: injector 0's samples, its active users plus injector 1's of the same wall-clock second
        int second = merged.timeline().columns().indexOf("second");
        int active = merged.timeline().columns().indexOf("activeUsers");
        List<Object> firstRow = merged.timeline().rows().get(0);
        List<Object> baseRow = BASE.timeline().rows().get(0);
        assertThat(((Number) firstRow.get(second)).doubleValue()).isEqualTo(((Number) baseRow.get(second)).doubleValue());
        int lateRowAtSameSecond = BASE.timeline().rows().stream()
                .filter(r -> Math.round(((Number) r.get(second)).doubleValue() + 2) == Math.round(((Number) baseRow.get(second)).doubleValue()))
                .map(r -> ((Number) r.get(active)).intValue()).findFirst().orElse(0);
        assertThat(((Number) firstRow.get(active)).intValue()).isEqualTo(((Number) baseRow.get(active)).intValue() + lateRowAtSameSecond);
    }

    @Test
    void filesThatAreNotOneRunAreRefusedByName() {
        Result zero = part(2, 0, START, histogram(1), new long[] {1}, Map.of());
        Result one = part(2, 1, START, histogram(1), new long[] {1}, Map.of());
        assertThatThrownBy(() -> ResultMerge.merge(List.of("a.json"), List.of(zero)))
                .hasMessageContaining("missing the result file of injector 1");
        assertThatThrownBy(() -> ResultMerge.merge(List.of("a.json", "b.json"), List.of(zero, zero)))
                .hasMessageContaining("a.json and b.json are both injector 0 of 2");
        Result otherUsers = withParameters(one, 2, 1, 2_000);
        assertThatThrownBy(() -> ResultMerge.merge(List.of("a.json", "b.json"), List.of(zero, otherUsers)))
                .hasMessageContaining("a.json and b.json are not parts of the same run: users is 1000 in one and 2000 in the other");
        Result later = part(2, 1, START.plusSeconds(12), histogram(1), new long[] {1}, Map.of());
        assertThatThrownBy(() -> ResultMerge.merge(List.of("a.json", "b.json"), List.of(zero, later)))
                .hasMessageContaining("b.json started 12.0 s after a.json");
        assertThatThrownBy(() -> ResultMerge.merge(List.of("single.json"), List.of(BASE)))
                .hasMessageContaining("single.json is not an injector's part of a split run (sim.injectors=1)");
        Result three = withParameters(one, 3, 1, 1_000);
        assertThatThrownBy(() -> ResultMerge.merge(List.of("a.json", "b.json"), List.of(zero, three)))
                .hasMessageContaining("injectors is 2 in one and 3 in the other");
        Result.TargetSettings t200 = new Result.TargetSettings("mvc-t200", "mvc-with-latency", Map.of("server.tomcat.threads.max", "200"));
        Result.TargetSettings t400 = new Result.TargetSettings("mvc-t400", "mvc-with-latency", Map.of("server.tomcat.threads.max", "400"));
        assertThatThrownBy(() -> ResultMerge.merge(List.of("a.json", "b.json"), List.of(zero.withTarget(t200), one.withTarget(t400))))
                .hasMessageContaining("a.json and b.json are not parts of the same run: target").hasMessageContaining("mvc-t400");
        assertThat(ResultMerge.merge(List.of("a.json", "b.json"), List.of(zero.withTarget(t200), one.withTarget(t200))).target())
                .as("the merge keeps the parts' target").isEqualTo(t200);
    }

    /** A published open run (SLO p99 200 ms, KO 0%, model: 200 threads of 100 ms): its layout for the open parts below. */
    private static final Result OPEN = ResultFile.read(Path.of("..", "docs", "capacity", "open-mvc-t200-2400", "result.json"));

    @Test
    void anOpenRunWithoutItsLevelsHistogramsIsRefused() {
        Result old = withParameters(OPEN,
                parameters(OPEN.parameters(), 0, OPEN.parameters().injection().rates(), OPEN.parameters().injection().levelSeconds(), 2, 0));
        assertThatThrownBy(() -> ResultMerge.merge(List.of("old.json", "b.json"), List.of(old, old)))
                .hasMessageContaining("old.json is an open run written without its levels' histograms");
    }

    /**
     * A mix's requests merge like the whole: each one's counts summed and histograms added; a part whose requests do
     * not add up to its totals is refused by the check every merge and read makes.
     */
    @Test
    void eachRequestOfAMixMergesByItsHistogramAndMustAddUpToTheWhole() {
        Histogram fast0 = histogram(6);
        Histogram slow0 = histogram();
        slow0.recordValueWithCount(300, 3);
        Histogram fast1 = histogram(4);
        Histogram slow1 = histogram();
        slow1.recordValueWithCount(500, 2);
        Result a = withRequests(part(2, 0, START, added(fast0, slow0), new long[] {9}, Map.of()), fast0, slow0);
        Result b = withRequests(part(2, 1, START, added(fast1, slow1), new long[] {6}, Map.of()), fast1, slow1);
        assertThat(ResultCheck.problems(a)).isEmpty();

        Result merged = ResultMerge.merge(names(2), List.of(a, b));
        assertThat(merged.byRequest()).extracting(Result.ByRequest::name).containsExactly("GET /fast", "GET /slow");
        assertThat(merged.byRequest()).extracting(Result.ByRequest::ok).containsExactly(10L, 5L);
        assertThat(HistogramCodec.decode(merged.byRequest().get(1).histogram().data())).isEqualTo(added(slow0, slow1));
        assertThat(merged.byRequest().get(1).responseTimeMs().max()).isEqualTo(HistogramCodec.percentiles(added(slow0, slow1)).max());

        Result.ByRequest slow = a.byRequest().get(1);
        Result tampered = new Result(a.schema(), a.simulation(), a.target(), a.parameters(), a.start(), a.end(), a.durationSeconds(), a.requests(),
                a.throughput(), a.plateau(), a.responseTimeMs(), a.histogram(), a.injector(), a.server(), a.model(), a.open(), a.timeline(),
                a.problems(), a.parts(), a.jvm(), List.of(a.byRequest().get(0),
                        new Result.ByRequest(slow.name(), slow.weight(), slow.ok() + 1, slow.ko(), slow.responseTimeMs(), slow.histogram())));
        assertThat(ResultCheck.problems(tampered)).anySatisfy(p -> assertThat(p).contains("byRequest[1] (GET /slow).histogram"))
                .anySatisfy(p -> assertThat(p).contains("byRequest counts 10 OK and 0 KO, requests 9 and 0"));
    }

    private static Histogram added(Histogram x, Histogram y) {
        Histogram h = x.copy();
        h.add(y);
        return h;
    }

    /** The part with a mix of two requests, /fast and /slow (all OK), of these response times. */
    private static Result withRequests(Result r, Histogram fast, Histogram slow) {
        List<Result.ByRequest> each = List.of(
                new Result.ByRequest("GET /fast", 2, fast.getTotalCount(), 0, HistogramCodec.percentiles(fast), HistogramCodec.encoded(fast)),
                new Result.ByRequest("GET /slow", 1, slow.getTotalCount(), 0, HistogramCodec.percentiles(slow), HistogramCodec.encoded(slow)));
        return new Result(r.schema(), r.simulation(), r.target(), r.parameters(), r.start(), r.end(), r.durationSeconds(), r.requests(),
                r.throughput(), r.plateau(), r.responseTimeMs(), r.histogram(), r.injector(), r.server(), r.model(), r.open(), r.timeline(),
                r.problems(), r.parts(), r.jvm(), each);
    }

    private static List<String> names(int k) {
        return java.util.stream.IntStream.range(0, k).mapToObj(i -> "part-" + i + ".json").toList();
    }

    private static Histogram histogram() {
        return new Histogram(TimeUnit.HOURS.toMillis(2), 3);
    }

    /** A histogram of n requests of 100 ms. */
    private static Histogram histogram(long n) {
        Histogram h = histogram();
        h.recordValueWithCount(100, n);
        return h;
    }

    /** The published run as injector index of k: its own histogram, KO reasons, per-second series and start. */
    private static Result part(int k, int index, Instant start, Histogram h, long[] perSecond, Map<String, Long> koByReason) {
        long ko = koByReason.values().stream().mapToLong(Long::longValue).sum();
        long total = h.getTotalCount();
        Result r = BASE;
        Result.Requests requests = new Result.Requests(total, total - ko, ko, 100.0 * ko / total, koByReason, r.requests().timeoutsMs());
        // OK responses per second: the completions less the KO, taken from the last seconds (the counts must add up)
        long[] okPerSecond = perSecond.clone();
        long left = ko;
        for (int i = okPerSecond.length - 1; i >= 0 && left > 0; i--) {
            long taken = Math.min(left, okPerSecond[i]);
            okPerSecond[i] -= taken;
            left -= taken;
        }
        // the plateau's figures are its seconds' means, as a run's file has them (ResultCheck recomputes them)
        PlateauSpan.Seconds span = PlateauSpan.Seconds.of(r.plateau().fromSecond(), r.plateau().toSecond(), perSecond, okPerSecond);
        Result.Throughput t = new Result.Throughput(0, 0, span.throughput(), perSecond, 0.0, span.goodput(), okPerSecond);
        Result.Plateau p = r.plateau();
        Result.Plateau plateau = new Result.Plateau(p.fromSecond(), p.toSecond(), p.minActiveUsers(), span.throughput(), p.injectorCpu(),
                p.machineCpu(), p.serverCpu(), p.machineSteal(), p.loadAverage());
        Result withData = new Result(r.schema(), r.simulation(), r.target(), r.parameters(), start.toString(), start.plusSeconds(perSecond.length).toString(),
                perSecond.length, requests, t, plateau, HistogramCodec.percentiles(h),
                new Result.EncodedHistogram("ms", "HdrHistogram compressed, base64", HistogramCodec.encode(h)), r.injector(), r.server(),
                r.model(), null, r.timeline(), List.of(), null, null, null);
        return withParameters(withData, k, index, r.parameters().users());
    }

    private static Result withParameters(Result r, int injectors, int index, int users) {
        return withParameters(r,
                parameters(r.parameters(), users, r.parameters().injection().rates(), r.parameters().injection().levelSeconds(), injectors, index));
    }

    private static Result withParameters(Result r, Result.Parameters q) {
        return new Result(r.schema(), r.simulation(), r.target(), q, r.start(), r.end(), r.durationSeconds(), r.requests(), r.throughput(), r.plateau(),
                r.responseTimeMs(), r.histogram(), r.injector(), r.server(), r.model(), r.open(), r.timeline(), r.problems(), r.parts(), r.jvm(),
                r.byRequest());
    }

    private static Result.Parameters parameters(Result.Parameters p, int users, List<Double> rates, Long levelSeconds, int injectors, int index) {
        Result.Injection i = p.injection();
        return new Result.Parameters(users, p.endpoint(), p.pacing(), p.connections(), p.modelThreads(), p.assertions(), p.sampleServer(),
                p.targetPid(), new Result.Injection(i.injection(), rates, levelSeconds, i.arrivals(), i.sloP99Ms(), i.sloKoPercent(),
                        i.stopOnSloMiss()),
                new Result.Split(injectors, index, START.toEpochMilli()));
    }

    /**
     * A sample written as a timeline row reads back as itself (to the row's three decimals; no reading stays none),
     * and so does a row of a timeline written before some of the columns.
     */
    @Test
    void aTimelineRowReadsBackAsTheSampleItRecords() {
        Tick t = new Tick(12.0, 500, 0.25, 0.5, 740, 0.3333333, 210, 12, 1.5e8, 530, 17, Double.NaN, 1.75, Double.NaN, 0);
        List<Object> row = t.row();
        assertThat(row).hasSize(Tick.COLUMNS.size()).contains(500, 0.333).containsNull();
        assertThat(Tick.of(Tick.COLUMNS, row)).isEqualTo(new Tick(12.0, 500, 0.25, 0.5, 740, 0.333, 210, 12, 1.5e8,
                530, 17, Double.NaN, 1.75, Double.NaN, 0));
        // a timeline from before the connection pools' columns: read without them, written back as it was
        List<String> older = OPEN.timeline().columns();
        assertThat(older).isNotEqualTo(Tick.COLUMNS).isSubsetOf(Tick.COLUMNS);
        assertThat(OPEN.timeline().rows()).allSatisfy(r -> assertThat(Tick.of(older, r).row(older)).isEqualTo(r));
        assertThatThrownBy(() -> Tick.of(List.of("second", "users"), List.of(1.0, 5))).hasMessageContaining("users");
    }
}
