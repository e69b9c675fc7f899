package dev.latencylab.load.result;

import java.util.List;

/**
 * The objective a run was judged by (./lab run --slo, sweep --slo; since SLO verdicts, absent from a result where none
 * was given): met when each of its objectives was. Kept in the result file (Result.slo) so that report and CI read it
 * rather than judge again.
 */
public record SloVerdict(boolean met, List<Objective> objectives) {

    /**
     * One objective as --slo gave it: the metric (p50, p95, p99 in ms, ko in %, goodput in req/s), its unit, the limit,
     * whether the run's value may be at most the limit (atMost) or must be at least it (goodput), the run's value (null:
     * the run has none, and it is not judged), and whether it was met.
     */
    public record Objective(String metric, String unit, double limit, boolean atMost, Double value, boolean met) {

        /** Whether value meets limit: at most it, or at least it; no value is not judged (met). */
        public static boolean meets(Double value, double limit, boolean atMost) {
            return value == null || (atMost ? value <= limit : value >= limit);
        }
    }
}
