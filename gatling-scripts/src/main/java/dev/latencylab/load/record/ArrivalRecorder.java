package dev.latencylab.load.record;

import dev.latencylab.load.result.HistogramCodec;
import dev.latencylab.load.model.SloJudgement;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.settings.OpenLoad;
import dev.latencylab.load.settings.SimulationSettings;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * What an open run sees of its arrivals, each timed from when it was due. Gatling numbers its virtual users in the
 * order of its injection schedule, so user k is the schedule's k-th arrival: its due time is the injection's start
 * plus the k-th offset of that schedule (computed by Gatling's own steps, see LoadSimulation). The start is not
 * exposed: it is the earliest (start - offset) of any arrival, which the first, unhurried arrivals give to the
 * millisecond. Each response is then recorded twice: Gatling's response time and the time since due.
 *
 * <p>Per level (see {@link OpenLoad}): the arrivals due within its plateau. Once a second the SLO is checked: a level
 * in which more than 1% of its planned arrivals took longer than the SLO (answered or still waiting) has a p99 above
 * it whatever the rest do, and more KO than allowed fails it too; with stopOnMiss the run then stops (the ladder of a
 * capacity search need not climb further). Thread-safe.
 */
public final class ArrivalRecorder implements AutoCloseable {

    private static final long HIGHEST_MS = TimeUnit.HOURS.toMillis(2);

    private record InFlight(int index, int level, long startedMs) {
    }

    private static final class LevelStats {
        final ConcurrentHistogram gatling = new ConcurrentHistogram(HIGHEST_MS, 3);
        final ConcurrentHistogram fromDue = new ConcurrentHistogram(HIGHEST_MS, 3);
        final ConcurrentHistogram lag = new ConcurrentHistogram(HIGHEST_MS, 3);
        final LongAdder arrivals = new LongAdder();
        final LongAdder ok = new LongAdder();
        final LongAdder ko = new LongAdder();
        final LongAdder overSlo = new LongAdder();
        long planned;
        long unanswered;
        volatile String missed;
    }

    private final OpenLoad load;
    private final long[] dueOffsetMs;
    private final long sloMs;
    private final double sloKoPercent;
    private final boolean stopOnMiss;
    private final List<OpenLoad.PlannedLevel> windows;
    private final LevelStats[] levels;
    private final ConcurrentHistogram fromDue = new ConcurrentHistogram(HIGHEST_MS, 3);
    private final ConcurrentHistogram lag = new ConcurrentHistogram(HIGHEST_MS, 3);
    private final Map<Long, InFlight> inFlight = new ConcurrentHashMap<>();
    private final AtomicLong origin = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong peakInFlight = new AtomicLong();
    private final LongAdder started = new LongAdder();
    private final LongAdder unscheduled = new LongAdder();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "latency-lab-slo");
        t.setDaemon(true);
        return t;
    });
    private volatile String stopReason;

    /**
     * @param dueOffsetMs each arrival's due time, ms after the injection starts, in the schedule's order
     * @param sloMs       the p99 a level must meet, from due
     */
    public ArrivalRecorder(OpenLoad load, long[] dueOffsetMs, long sloMs, double sloKoPercent, boolean stopOnMiss) {
        this.load = load;
        this.dueOffsetMs = dueOffsetMs;
        this.sloMs = sloMs;
        this.sloKoPercent = sloKoPercent;
        this.stopOnMiss = stopOnMiss;
        this.windows = load.levels();
        this.levels = new LevelStats[windows.size()];
        for (int i = 0; i < levels.length; i++) {
            levels[i] = new LevelStats();
        }
        for (long offset : dueOffsetMs) {
            int level = load.levelAt(offset);
            if (level >= 0) {
                levels[level].planned++;
            }
        }
        String wrong = mismatch(load, dueOffsetMs, Arrays.stream(levels).mapToLong(l -> l.planned).toArray());
        if (wrong != null) {
            throw new IllegalStateException("the due times of this open run do not follow its plan (" + wrong + "): they come "
                    + "from Gatling's OpenInjectionStep.chain, which LoadSimulation reads by reflection; a Gatling that changed "
                    + "it cannot time arrivals from due, so nothing is measured");
        }
    }

    /**
     * Why a schedule of due times is not this plan's, or null: it must be in order, within the plan's length, and give
     * each level the arrivals its rate asks for (uniform: the rate times its seconds, as Gatling rounds it; Poisson:
     * within six standard deviations, which a fair schedule misses about once in 500 million levels).
     */
    static String mismatch(OpenLoad load, long[] dueOffsetMs, long[] plannedPerLevel) {
        long lengthMs = load.duration().toMillis();
        for (int i = 0; i < dueOffsetMs.length; i++) {
            if (dueOffsetMs[i] < 0 || dueOffsetMs[i] >= lengthMs || (i > 0 && dueOffsetMs[i] < dueOffsetMs[i - 1])) {
                return "arrival %d is due at %d ms, after %d ms, in a plan %d ms long".formatted(i + 1, dueOffsetMs[i],
                        i == 0 ? 0 : dueOffsetMs[i - 1], lengthMs);
            }
        }
        for (OpenLoad.PlannedLevel w : load.levels()) {
            double expected = w.rate() * w.seconds();
            double slack = load.poisson() ? 6 * Math.sqrt(expected) + 1 : 1;
            if (Math.abs(plannedPerLevel[w.index()] - expected) > slack) {
                return "level %d holds %d arrivals where %s req/s for %s s asks for %.0f".formatted(w.index() + 1,
                        plannedPerLevel[w.index()], SimulationSettings.rate(w.rate()), w.seconds(), expected);
            }
        }
        return null;
    }

    public void start() {
        timer.scheduleAtFixedRate(() -> check(System.currentTimeMillis()), 1, 1, TimeUnit.SECONDS);
    }

    /** Gatling's user userId (1, 2, ...) has started, now. */
    public void arrived(long userId, long nowMs) {
        if (userId < 1 || userId > dueOffsetMs.length) {
            unscheduled.increment(); // not the schedule's: the mapping from user to due time would be wrong
            return;
        }
        int index = (int) (userId - 1);
        origin.accumulateAndGet(nowMs - dueOffsetMs[index], Math::min);
        int level = load.levelAt(dueOffsetMs[index]);
        inFlight.put(userId, new InFlight(index, level, nowMs));
        started.increment();
        if (level >= 0) {
            levels[level].arrivals.increment();
        }
        peakInFlight.accumulateAndGet(inFlight.size(), Math::max);
    }

    /** The user's request completed now: Gatling timed it gatlingMs; ok false for a KO. */
    public void completed(long userId, long gatlingMs, boolean ok, long nowMs) {
        InFlight a = inFlight.remove(userId);
        if (a == null) {
            return;
        }
        long due = origin.get() + dueOffsetMs[a.index()];
        long sinceDue = clamp(nowMs - due);
        fromDue.recordValue(sinceDue);
        long late = clamp(a.startedMs() - due);
        lag.recordValue(late);
        if (a.level() >= 0) {
            LevelStats l = levels[a.level()];
            l.gatling.recordValue(clamp(gatlingMs));
            l.fromDue.recordValue(sinceDue);
            l.lag.recordValue(late);
            (ok ? l.ok : l.ko).increment();
            if (sinceDue > sloMs) {
                l.overSlo.increment();
            }
        }
    }

    /** Marks the levels that have missed the SLO already; with stopOnMiss, asks the run to stop at the first. */
    void check(long nowMs) {
        long start = origin.get();
        if (start == Long.MAX_VALUE) {
            return;
        }
        long[] waitingTooLong = new long[levels.length];
        for (InFlight a : inFlight.values()) {
            if (a.level() >= 0 && nowMs - (start + dueOffsetMs[a.index()]) > sloMs) {
                waitingTooLong[a.level()]++;
            }
        }
        for (int i = 0; i < levels.length; i++) {
            LevelStats l = levels[i];
            if (l.missed != null) {
                continue;
            }
            long slow = l.overSlo.sum() + waitingTooLong[i];
            if (SloJudgement.missed(l.planned, slow, 0, sloKoPercent)) {
                l.missed = "%,d of its %,d arrivals took longer than %d ms (more than 1%%)".formatted(slow, l.planned, sloMs);
            }
            else if (SloJudgement.missed(l.planned, 0, l.ko.sum(), sloKoPercent)) {
                l.missed = "%,d KO of %,d arrivals (more than %s%%)".formatted(l.ko.sum(), l.planned, sloKoPercent);
            }
            if (l.missed != null && stopOnMiss && stopReason == null) {
                stopReason = "level %d (%s req/s) missed the SLO: %s; stopping the ladder".formatted(i + 1,
                        SimulationSettings.rate(windows.get(i).rate()), l.missed);
            }
        }
    }

    public boolean stopRequested() {
        return stopReason != null;
    }

    public String stopReason() {
        return stopReason;
    }

    /** The run has ended, now: arrivals still waiting count at their age (a lower bound of their time). */
    public void finish(long nowMs) {
        close();
        check(nowMs);
        long start = origin.get();
        for (Long userId : List.copyOf(inFlight.keySet())) {
            InFlight a = inFlight.remove(userId); // removed: an answer arriving after this is not counted twice
            if (a == null) {
                continue;
            }
            long sinceDue = clamp(nowMs - (start + dueOffsetMs[a.index()]));
            fromDue.recordValue(sinceDue);
            if (a.level() >= 0) {
                levels[a.level()].fromDue.recordValue(sinceDue);
                levels[a.level()].unanswered++;
            }
        }
    }

    /** Arrivals whose user id was not in the schedule: when above 0, due times are not to be trusted. */
    public long unscheduled() {
        return unscheduled.sum();
    }

    public long peakInFlight() {
        return peakInFlight.get();
    }

    /** The injection's start, epoch ms (Long.MAX_VALUE before the first arrival). */
    public long originMs() {
        return origin.get();
    }

    /**
     * What the run's samples say of a span of its seconds: mean CPU of server, injector and machine, and OK responses
     * completed per second (by completion time: what the server delivered while a level was held).
     */
    public record Span(Double serverCpu, Double injectorCpu, Double machineCpu, Double okPerSecond) {
    }

    /**
     * The result file's section, levels placed on the run's clock: runStartMs is when the run's seconds count from;
     * span gives a span of run seconds' samples (see {@link Span}); modelThroughput a level's (by its index), for the
     * arrivals this process sends.
     */
    public Result.Open result(String connections, long runStartMs, Function<double[], Span> span,
            Function<Integer, Double> modelThroughput, Double capacity) {
        double shift = origin.get() == Long.MAX_VALUE ? 0 : (origin.get() - runStartMs) / 1000.0;
        List<Result.Level> out = new ArrayList<>();
        for (int i = 0; i < levels.length; i++) {
            LevelStats l = levels[i];
            OpenLoad.PlannedLevel w = windows.get(i);
            double from = shift + w.fromMs() / 1000.0;
            double to = shift + w.toMs() / 1000.0;
            long arrivals = l.arrivals.sum();
            Result.ResponseTimes fromDueMs = HistogramCodec.percentiles(l.fromDue);
            Span samples = arrivals == 0 ? new Span(null, null, null, null) : span.apply(new double[] {from, to});
            SloJudgement judged = SloJudgement.of(l.planned, arrivals, l.ok.sum(), l.ko.sum(), l.unanswered, fromDueMs, l.missed != null, sloMs,
                    sloKoPercent, false);
            out.add(new Result.Level(i + 1, w.rate(), new Result.Window(round(from), round(to)),
                    new Result.Counts(l.planned, arrivals, l.ok.sum(), l.ko.sum(), l.unanswered), samples.okPerSecond(),
                    new Result.LevelTimes(HistogramCodec.percentiles(l.gatling), fromDueMs, HistogramCodec.percentiles(l.lag)),
                    new Result.Cpu(samples.serverCpu(), samples.injectorCpu(), samples.machineCpu()),
                    modelThroughput.apply(i), judged.withinSlo(), judged.verdict(),
                    new Result.LevelHistograms(HistogramCodec.encoded(l.gatling), HistogramCodec.encoded(l.fromDue), HistogramCodec.encoded(l.lag))));
        }
        Histogram all = fromDue.copy();
        return new Result.Open(load.poisson() ? "poisson" : "uniform", connections,
                new Result.Sent(dueOffsetMs.length, started.sum(), peakInFlight.get()), new Result.LevelSlo(sloMs, sloKoPercent),
                HistogramCodec.percentiles(all), HistogramCodec.encoded(all),
                HistogramCodec.percentiles(lag), stopReason, capacity, out, HistogramCodec.encoded(lag), Result.Open.REQUEST);
    }

    private static long clamp(long ms) {
        return Math.max(0, Math.min(ms, HIGHEST_MS));
    }

    private static double round(double seconds) {
        return Math.round(seconds * 1000) / 1000.0;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
