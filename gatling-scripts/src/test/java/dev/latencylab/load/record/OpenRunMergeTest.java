package dev.latencylab.load.record;

import static org.assertj.core.api.Assertions.assertThat;

import dev.latencylab.load.merge.ResultMerge;
import dev.latencylab.load.result.HistogramCodec;
import dev.latencylab.load.result.PlateauSpan;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.load.settings.OpenLoad;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Injectors' open runs, each recorded by its own ArrivalRecorder, merge (load-contract's ResultMerge) as one recorder
 * of every arrival records them: each level judged on the sum. The parts have a published open run's layout.
 */
class OpenRunMergeTest {

    /** A published open run (SLO p99 200 ms, KO 0%, model: 200 threads of 100 ms): its layout for the parts below. */
    private static final Result OPEN = ResultFile.read(Path.of("..", "docs", "capacity", "open-mvc-t200-2400", "result.json"));
    private static final Instant START = Instant.parse("2026-11-22T20:00:00.000Z");
    private static final long T0 = START.toEpochMilli();
    /** Each injector's share of 10 req/s held 30 s after a 1 s ramp: 150 arrivals due 1,000, 1,200, ... 30,800 ms. */
    private static final OpenLoad SHARE = new OpenLoad(List.of(5.0), java.time.Duration.ofSeconds(1), java.time.Duration.ofSeconds(30), false);
    private static final long[] SHARE_DUE = java.util.stream.LongStream.range(0, 150).map(i -> 1_000 + 200 * i).toArray();

    @Test
    void anOpenRunsLevelsMergeAsOneRecorderOfEveryArrivalRecordsThemAndAreJudgedOnTheSum() {
        // injector 0 has 2 of its 150 arrivals over the SLO (1.3%: its level misses); injector 1 none: 2 of 300 (0.7%)
        List<ArrivalRecorder> recorders = List.of(recorder(SHARE, SHARE_DUE), recorder(SHARE, SHARE_DUE));
        OpenLoad whole = new OpenLoad(List.of(10.0), SHARE.ramp(), SHARE.level(), false);
        ArrivalRecorder one = recorder(whole, java.util.stream.LongStream.range(0, 300).map(j -> SHARE_DUE[(int) (j / 2)]).toArray());
        for (int injector = 0; injector < 2; injector++) {
            for (int i = 0; i < 150; i++) {
                long started = T0 + SHARE_DUE[i] + i % 7;
                long ms = injector == 0 && (i == 40 || i == 90) ? 500 : 100 + i % 13;
                recorders.get(injector).arrived(i + 1, started);
                recorders.get(injector).completed(i + 1, ms, true, started + ms);
                one.arrived(2L * i + injector + 1, started); // the same arrival in one recorder of both schedules
                one.completed(2L * i + injector + 1, ms, true, started + ms);
            }
        }
        List<Result> parts = new ArrayList<>();
        for (int injector = 0; injector < 2; injector++) {
            recorders.get(injector).finish(T0 + 40_000);
            parts.add(openPart(injector, recorders.get(injector).result("shared", T0, this::span, level -> 5.0, 2_000.0)));
        }
        one.finish(T0 + 40_000);
        Result.Level expected = one.result("shared", T0, this::span, level -> 10.0, 2_000.0).levels().get(0);

        Result merged = ResultMerge.merge(names(2), parts);
        Result.Level level = merged.open().levels().get(0);
        assertThat(parts.get(0).open().levels().get(0).withinSlo()).as("2 of 150 over the SLO").isFalse();
        assertThat(parts.get(1).open().levels().get(0).withinSlo()).isTrue();
        assertThat(level.withinSlo()).as("2 of 300: judged on the sum, as one recorder judges it").isTrue().isEqualTo(expected.withinSlo());
        assertThat(level.verdict()).isEqualTo(expected.verdict());
        assertThat(List.of(level.counts().plannedArrivals(), level.counts().arrivals(), level.counts().ok(), level.counts().ko(), level.counts().unanswered()))
                .containsExactly(300L, 300L, 300L, 0L, 0L)
                .isEqualTo(List.of(expected.counts().plannedArrivals(), expected.counts().arrivals(), expected.counts().ok(), expected.counts().ko(),
                        expected.counts().unanswered()));
        assertThat(HistogramCodec.decode(level.histograms().fromDueHistogram().data()))
                .isEqualTo(HistogramCodec.decode(expected.histograms().fromDueHistogram().data()));
        assertThat(HistogramCodec.decode(level.histograms().responseTimeHistogram().data()))
                .isEqualTo(HistogramCodec.decode(expected.histograms().responseTimeHistogram().data()));
        assertThat(HistogramCodec.decode(level.histograms().injectorLagHistogram().data()))
                .isEqualTo(HistogramCodec.decode(expected.histograms().injectorLagHistogram().data()));
        assertThat(List.of(level.times().fromDueMs(), level.times().responseTimeMs(), level.times().injectorLagMs()))
                .isEqualTo(List.of(expected.times().fromDueMs(), expected.times().responseTimeMs(), expected.times().injectorLagMs()));
        assertThat(level.ratePerSecond()).as("the whole run's rate; each part sent 5").isEqualTo(10.0);
        assertThat(level.modelThroughputPerSecond()).as("below the pool's 2,000/s the model serves the rate").isEqualTo(10.0);
        assertThat(level.cpu().injectorCpu()).as("the injectors' CPU summed").isEqualTo(1.0);
        assertThat(HistogramCodec.decode(merged.open().fromDueHistogram().data())).isEqualTo(HistogramCodec.decode(one.result("shared", T0,
                this::span, l -> 10.0, 2_000.0).fromDueHistogram().data()));
        assertThat(merged.open().sent().plannedArrivals()).isEqualTo(300);
        assertThat(merged.open().stoppedEarly()).isNull();
        assertThat(merged.plateau().fromSecond()).as("the highest level's seconds, as for one open run").isEqualTo(1);

        // 2 over the SLO in each: 4 of 300 (1.3%) misses the merged level, as one recorder of all of them misses it
        ArrivalRecorder slow = recorder(SHARE, SHARE_DUE);
        for (int i = 0; i < 150; i++) {
            long started = T0 + SHARE_DUE[i];
            long ms = i == 10 || i == 20 ? 500 : 100;
            slow.arrived(i + 1, started);
            slow.completed(i + 1, ms, true, started + ms);
        }
        slow.finish(T0 + 40_000);
        Result both = ResultMerge.merge(names(2), List.of(parts.get(0), openPart(1, slow.result("shared", T0, this::span, l -> 5.0, 2_000.0))));
        assertThat(both.open().levels().get(0).withinSlo()).isFalse();
        assertThat(both.open().levels().get(0).verdict()).startsWith("missed the SLO");
    }

    private static ArrivalRecorder recorder(OpenLoad load, long[] due) {
        return new ArrivalRecorder(load, due, 200, 0, false);
    }

    private ArrivalRecorder.Span span(double[] seconds) {
        // the goodput of those seconds, as a run's file has it (ResultCheck recomputes it from the series)
        return new ArrivalRecorder.Span(null, 0.5, null, PlateauSpan.meanOfWholeSeconds(OPEN.throughput().okPerSecond(), seconds[0], seconds[1]));
    }

    /** The published open run as injector index of 2 of 10 req/s held 30 s, with these arrivals. */
    private static Result openPart(int index, Result.Open open) {
        Result r = OPEN;
        Result.Parameters p = r.parameters();
        Result.Injection i = p.injection();
        Result.Parameters part = new Result.Parameters(0, p.endpoint(), p.pacing(), p.connections(), p.modelThreads(), p.assertions(),
                p.sampleServer(), p.targetPid(), new Result.Injection(i.injection(), List.of(10.0), 30L, i.arrivals(), i.sloP99Ms(),
                        i.sloKoPercent(), i.stopOnSloMiss()),
                new Result.Split(2, index, T0));
        return new Result(r.schema(), r.simulation(), r.target(), part, START.toString(), START.plusSeconds(40).toString(), 40,
                r.requests(), r.throughput(), r.plateau(), r.responseTimeMs(), r.histogram(), r.injector(), r.server(), r.model(), open,
                r.timeline(), List.of(), null, null, null);
    }

    private static List<String> names(int k) {
        return java.util.stream.IntStream.range(0, k).mapToObj(i -> "part-" + i + ".json").toList();
    }
}
