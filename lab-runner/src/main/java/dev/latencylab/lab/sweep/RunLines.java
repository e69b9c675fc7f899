package dev.latencylab.lab.sweep;

import java.time.Duration;
import java.util.List;

import dev.latencylab.lab.format.Figures;
import dev.latencylab.lab.run.Point;
import dev.latencylab.lab.summary.Flags;
import dev.latencylab.lab.summary.PoolEvidence;
import dev.latencylab.lab.summary.RowFlags;
import dev.latencylab.lab.summary.Summary;
import dev.latencylab.lab.targets.Target;

/** What a sweep's point and ./lab run say on the console as they go: a run's line, and the time a sweep has left. */
public final class RunLines {

    private RunLines() {
    }

    /**
     * "elapsed 3:12, about 41 min left": the planned load of the points still to run (this one included) plus, once a
     * point has run, the mean overhead measured so far for each of them.
     */
    public static String timeLeft(Duration elapsed, List<Point> toRun, Duration meanOverhead, SweepPlan plan) {
        Duration planned = toRun.stream().map(plan::planned).reduce(Duration.ZERO, Duration::plus);
        Duration left = meanOverhead == null ? planned : planned.plus(meanOverhead.multipliedBy(toRun.size()));
        return "elapsed %s; about %s left%s".formatted(Figures.minutes(elapsed), Figures.minutes(left),
                meanOverhead == null ? " plus each point's start and drain, measured after the first" : "");
    }

    /**
     * What a run measured, in one line, for a sweep's point and for ./lab run alike: "goodput 1,962 req/s  p50/p95/p99
     * 101/104/130 ms  0 KO  model 2,000 req/s, bounded by T/L (a pool of 200): follows it  flags: ..."
     */
    public static String headline(Summary.RunRow r) {
        return "goodput %,.0f req/s  p50/p95/p99 %s/%s/%s ms  %s  %s%s".formatted(r.rates().goodput(), ms(r.latency().p50Ms()),
                ms(r.latency().p95Ms()), ms(r.latency().p99Ms()),
                r.requests().ko() == 0 ? "0 KO" : "%,d KO (%.1f%%, most %s)".formatted(r.requests().ko(), r.requests().koPercent(),
                        r.requests().topKoReason()),
                verdict(r),
                r.notes().flags().isEmpty() ? "" : "  flags: " + r.notes().flags());
    }

    private static String ms(Long ms) {
        return ms == null ? "-" : "%,d".formatted(ms);
    }

    /** The model's throughput, what bounds it (the offered load or a pool's T/L), and whether the run followed it. */
    public static String verdict(Summary.RunRow r) {
        if (r.model().modelThroughput() == null) {
            PoolEvidence e = r.evidence();
            return "no model (the path names no latency); " + (e.fullPool() != null ? "%s full%s".formatted(e.fullPool(),
                    e.fullPoolBound() == null ? "" : ": at most %,.0f req/s (%.0f %s held %,.0f ms each)".formatted(e.fullPoolBound(), e.fullPoolSize(),
                            e.fullPoolUnit(), e.fullPoolHoldMs()))
                    : e.pools() != null ? "none of its pools full (" + e.pools() + ")"
                    : PoolEvidence.NO_METRICS.equals(e.unseen()) ? "unseen: " + e.unseen() : "it publishes no pool");
        }
        boolean pool = Boolean.TRUE.equals(r.model().modelSaturated()) && r.model().modelPoolBound() != null;
        String bound = pool ? "bounded by T/L (%s)".formatted(Target.poolOf(r.identity().target(), r.pool().poolThreads()))
                : "bounded by the offered load";
        RowFlags flags = r.flags();
        PoolEvidence e = r.evidence();
        boolean heldBelow = !pool && e.heldBelow(r.model().modelThroughput(), r.rates().goodput());
        String how = flags.has(Flags.MACHINE_CPU_BOUND) ? "this machine's CPU bounded it first"
                : flags.has(Flags.DISAGREES_WITH_MODEL) ? "disagrees with it (a finding: see the flags)"
                : heldBelow ? "held below it by %s, full: at most %,.0f req/s (%.0f %s held %,.0f ms each)".formatted(e.fullPool(),
                        e.fullPoolBound(), e.fullPoolSize(), e.fullPoolUnit(), e.fullPoolHoldMs())
                : "follows it";
        return "model %,.0f req/s, %s: %s".formatted(r.model().modelThroughput(), bound, how);
    }
}
