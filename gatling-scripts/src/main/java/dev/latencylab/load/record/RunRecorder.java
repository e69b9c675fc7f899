package dev.latencylab.load.record;

import dev.latencylab.load.sample.RunProgress;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * What the simulation sees of its own requests, recorded as they complete: every response time in an
 * HdrHistogram (ms, 3 significant digits), OK and KO counts, KO reasons, completions per second, active users.
 * Thread-safe: Gatling calls it from its event loops.
 */
public final class RunRecorder implements RunProgress {

    private final ConcurrentHistogram responseTimes = new ConcurrentHistogram(TimeUnit.HOURS.toMillis(2), 3);
    /** The same since the last look (the live view's second): HdrHistogram's recorder swaps it without a lock. */
    private final Recorder sinceLastLook = new Recorder(TimeUnit.HOURS.toMillis(2), 3);
    private final LongAdder ok = new LongAdder();
    private final LongAdder ko = new LongAdder();
    private final Map<String, LongAdder> koByReason = new ConcurrentHashMap<>();
    private final Map<Long, LongAdder> completedPerSecond = new ConcurrentHashMap<>();
    private final Map<Long, LongAdder> okPerSecond = new ConcurrentHashMap<>();
    /** Each request of a mix on its own (none for a run of one request): its response times, OK and KO. */
    private final ConcurrentHistogram[] byRequest;
    private final LongAdder[] okByRequest;
    private final LongAdder[] koByRequest;
    private final AtomicInteger activeUsers = new AtomicInteger();
    private final AtomicInteger peakActiveUsers = new AtomicInteger();
    private volatile long startNanos;
    private volatile Instant start;
    private volatile Instant end;
    /** Closes recording at finish: answers that arrive while the result is built (a stopped ladder's) are not counted. */
    private final ReentrantReadWriteLock gate = new ReentrantReadWriteLock();
    private boolean finished;

    /** A recorder of a run of one request. */
    public RunRecorder() {
        this(1);
    }

    /** A recorder of a run of this many requests, each also counted on its own when more than one. */
    public RunRecorder(int requests) {
        int kinds = requests > 1 ? requests : 0;
        byRequest = new ConcurrentHistogram[kinds];
        okByRequest = new LongAdder[kinds];
        koByRequest = new LongAdder[kinds];
        for (int i = 0; i < kinds; i++) {
            byRequest[i] = new ConcurrentHistogram(responseTimes.getHighestTrackableValue(), 3);
            okByRequest[i] = new LongAdder();
            koByRequest[i] = new LongAdder();
        }
    }

    /**
     * A recorder of a run that is over, to be filled from its records: it began at start and ended at end, and at most
     * peakActiveUsers of its users were active at once.
     */
    public static RunRecorder replayed(int requests, Instant start, Instant end, int peakActiveUsers) {
        RunRecorder r = new RunRecorder(requests);
        r.start = start;
        r.end = end;
        r.peakActiveUsers.set(peakActiveUsers);
        return r;
    }

    public void start() {
        start = Instant.now();
        startNanos = System.nanoTime();
    }

    /** Ends recording: every count read after this is one snapshot (the result file's counts add up). */
    public void finish() {
        gate.writeLock().lock();
        try {
            finished = true;
        }
        finally {
            gate.writeLock().unlock();
        }
        end = Instant.now();
    }

    public void userStarted() {
        peakActiveUsers.accumulateAndGet(activeUsers.incrementAndGet(), Math::max);
    }

    public void userFinished() {
        activeUsers.decrementAndGet();
    }

    @Override
    public int activeUsers() {
        return activeUsers.get();
    }

    /** @param koReason null for an OK request */
    public void record(long responseTimeMs, String koReason) {
        record(0, responseTimeMs, koReason);
    }

    /**
     * @param request  which request of the mix it was (0 for a run of one)
     * @param koReason null for an OK request
     */
    public void record(int request, long responseTimeMs, String koReason) {
        gate.readLock().lock();
        try {
            if (!finished) {
                count(responseTimeMs, koReason);
                countByRequest(request, responseTimeMs, koReason);
            }
        }
        finally {
            gate.readLock().unlock();
        }
    }

    /**
     * A request of a run already over (a user's simulation, read from Gatling's records afterwards, see
     * {@link #replayed}): counted in the second it ended, msSinceStart after the run's start.
     */
    public void record(int request, long responseTimeMs, String koReason, long endedMsSinceStart) {
        count(responseTimeMs, koReason, Math.max(0, endedMsSinceStart) / 1000);
        countByRequest(request, responseTimeMs, koReason);
    }

    /** The request counted on its own too, where a run has more than one kind. */
    private void countByRequest(int request, long responseTimeMs, String koReason) {
        if (byRequest.length > 0) {
            byRequest[request].recordValue(Math.max(0, Math.min(responseTimeMs, responseTimes.getHighestTrackableValue())));
            (koReason == null ? okByRequest : koByRequest)[request].increment();
        }
    }

    private void count(long responseTimeMs, String koReason) {
        count(responseTimeMs, koReason, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNanos));
    }

    private void count(long responseTimeMs, String koReason, long second) {
        long ms = Math.max(0, Math.min(responseTimeMs, responseTimes.getHighestTrackableValue()));
        responseTimes.recordValue(ms);
        sinceLastLook.recordValue(ms);
        if (koReason == null) {
            ok.increment();
        }
        else {
            ko.increment();
            koByReason.computeIfAbsent(koReason, r -> new LongAdder()).increment();
        }
        completedPerSecond.computeIfAbsent(second, s -> new LongAdder()).increment();
        if (koReason == null) {
            okPerSecond.computeIfAbsent(second, s -> new LongAdder()).increment();
        }
    }

    /** Seconds since start, for aligning samples with completions. */
    @Override
    public double secondsSinceStart() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    public Instant startedAt() {
        return start;
    }

    public Instant endedAt() {
        return end;
    }

    public Duration duration() {
        return Duration.between(start, end == null ? Instant.now() : end);
    }

    public long ok() {
        return ok.sum();
    }

    public long ko() {
        return ko.sum();
    }

    public Map<String, Long> koByReason() {
        Map<String, Long> sorted = new TreeMap<>();
        koByReason.forEach((reason, n) -> sorted.put(reason, n.sum()));
        return sorted;
    }

    /** Completions (OK and KO) in each whole second since start, zeros included. */
    public long[] completedPerSecond() {
        return perSecond(completedPerSecond, lastSecond());
    }

    /** OK responses in each whole second since start, as long as {@link #completedPerSecond()}. */
    public long[] okPerSecond() {
        return perSecond(okPerSecond, lastSecond());
    }

    private long lastSecond() {
        return completedPerSecond.keySet().stream().mapToLong(Long::longValue).max().orElse(-1);
    }

    private static long[] perSecond(Map<Long, LongAdder> counts, long last) {
        long[] series = new long[(int) (last + 1)];
        counts.forEach((second, n) -> {
            if (second <= last) {
                series[second.intValue()] = n.sum();
            }
        });
        return series;
    }

    public int peakActiveUsers() {
        return peakActiveUsers.get();
    }

    /** Response times recorded since the last call (the first: since the start). */
    public Histogram responseTimesSinceLastLook() {
        return sinceLastLook.getIntervalHistogram();
    }

    public Histogram responseTimes() {
        return responseTimes.copy();
    }

    /** How many requests of a mix are counted each on its own: 0 for a run of one request. */
    public int requestKinds() {
        return byRequest.length;
    }

    public Histogram responseTimes(int request) {
        return byRequest[request].copy();
    }

    public long ok(int request) {
        return okByRequest[request].sum();
    }

    public long ko(int request) {
        return koByRequest[request].sum();
    }
}
