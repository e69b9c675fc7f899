package dev.latencylab.load.own;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.HdrHistogram.Histogram;

import dev.latencylab.load.model.SloJudgement;
import dev.latencylab.load.record.ArrivalRecorder;
import dev.latencylab.load.result.HistogramCodec;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.settings.OpenLoad;

/**
 * The levels of an open load of a user's flow, from Gatling's records of the run: each arrival a user that runs the flow
 * once. Gatling starts users in the order of its schedule, so the k-th user to start is the k-th arrival due: its lag is
 * its start against its due time. A flow's later requests have no due time, so a level is judged by the response times
 * of the requests sent while it was held (by their start), and its counts are those requests'.
 */
final class FlowLevels {

    private static final long HIGHEST_MS = TimeUnit.HOURS.toMillis(2);

    /** How a user's flow connects, as the result file says it: the lab does not choose it. */
    static final String CONNECTIONS = "the simulation's own: each user its own connections, unless its protocol shares them";

    private static final class Level {
        final Histogram requests = new Histogram(HIGHEST_MS, 3);
        final Histogram lag = new Histogram(HIGHEST_MS, 3);
        long planned;
        long arrivals;
        long ok;
        long ko;
    }

    private final OpenLoad load;
    private final long[] dueOffsetMs;
    private final long startedCount;
    private final long originMs;
    private final Level[] levels;
    private final Histogram lag = new Histogram(HIGHEST_MS, 3);

    /**
     * @param dueOffsetMs each arrival's due time, ms after the injection starts, in order (Gatling's schedule)
     * @param startsMs    the users' starts as Gatling recorded them, ms since the epoch, in order
     */
    FlowLevels(OpenLoad load, long[] dueOffsetMs, long[] startsMs) {
        this.load = load;
        this.dueOffsetMs = dueOffsetMs;
        this.startedCount = startsMs.length;
        this.levels = new Level[load.levels().size()];
        for (int i = 0; i < levels.length; i++) {
            levels[i] = new Level();
        }
        for (long due : dueOffsetMs) {
            int level = load.levelAt(due);
            if (level >= 0) {
                levels[level].planned++;
            }
        }
        int paired = Math.min(startsMs.length, dueOffsetMs.length);
        long origin = Long.MAX_VALUE;
        for (int k = 0; k < paired; k++) {
            origin = Math.min(origin, startsMs[k] - dueOffsetMs[k]);
        }
        this.originMs = origin;
        for (int k = 0; k < paired; k++) {
            long late = clamp(startsMs[k] - (origin + dueOffsetMs[k]));
            lag.recordValue(late);
            int level = load.levelAt(dueOffsetMs[k]);
            if (level >= 0) {
                levels[level].arrivals++;
                levels[level].lag.recordValue(late);
            }
        }
    }

    /** A request of the flow, as Gatling recorded it: ms since the epoch. */
    void request(long startMs, long endMs, boolean ok) {
        long ms = clamp(endMs - startMs);
        int level = originMs == Long.MAX_VALUE ? -1 : load.levelAt(startMs - originMs);
        if (level >= 0) {
            Level l = levels[level];
            l.requests.recordValue(ms);
            if (ok) {
                l.ok++;
            }
            else {
                l.ko++;
            }
        }
    }

    /**
     * The result file's section, levels placed on the run's clock, which starts at runStartMs.
     *
     * @param span what the run's samples say of a span of its seconds (see RunResult#spans)
     */
    Result.Open result(long runStartMs, long sloMs, double sloKoPercent, long peakUsers, Function<double[], ArrivalRecorder.Span> span) {
        double shift = originMs == Long.MAX_VALUE ? 0 : (originMs - runStartMs) / 1000.0;
        List<Result.Level> out = new ArrayList<>();
        List<OpenLoad.PlannedLevel> windows = load.levels();
        for (int i = 0; i < levels.length; i++) {
            Level l = levels[i];
            OpenLoad.PlannedLevel w = windows.get(i);
            double from = round(shift + w.fromMs() / 1000.0);
            double to = round(shift + w.toMs() / 1000.0);
            Result.ResponseTimes times = HistogramCodec.percentiles(l.requests);
            ArrivalRecorder.Span samples = l.arrivals == 0 ? new ArrivalRecorder.Span(null, null, null, null) : span.apply(new double[] {from, to});
            long slower = l.requests.getTotalCount() - l.requests.getCountBetweenValues(0, sloMs);
            SloJudgement judged = SloJudgement.of(l.planned, l.arrivals, l.ok, l.ko, 0, times,
                    SloJudgement.missed(l.ok + l.ko, slower, l.ko, sloKoPercent), sloMs, sloKoPercent, true);
            Result.EncodedHistogram encoded = HistogramCodec.encoded(l.requests);
            out.add(new Result.Level(i + 1, w.rate(), new Result.Window(from, to), new Result.Counts(l.planned, l.arrivals, l.ok, l.ko, 0),
                    samples.okPerSecond(), new Result.LevelTimes(times, null, HistogramCodec.percentiles(l.lag)),
                    new Result.Cpu(samples.serverCpu(), samples.injectorCpu(), samples.machineCpu()), null, judged.withinSlo(), judged.verdict(),
                    new Result.LevelHistograms(encoded, null, HistogramCodec.encoded(l.lag))));
        }
        return new Result.Open(load.poisson() ? "poisson" : "uniform", CONNECTIONS,
                new Result.Sent(dueOffsetMs.length, startedCount, peakUsers), new Result.LevelSlo(sloMs, sloKoPercent),
                null, null, HistogramCodec.percentiles(lag), null, null, out,
                HistogramCodec.encoded(lag), Result.Open.FLOW);
    }

    private static long clamp(long ms) {
        return Math.max(0, Math.min(ms, HIGHEST_MS));
    }

    private static double round(double seconds) {
        return Math.round(seconds * 1000) / 1000.0;
    }
}
