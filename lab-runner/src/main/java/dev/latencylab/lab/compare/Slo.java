package dev.latencylab.lab.compare;

import java.util.ArrayList;
import java.util.List;

import dev.latencylab.lab.format.Figures;
import dev.latencylab.lab.summary.Summary.RunRow;

/**
 * A service level objective a run must meet (./lab run --slo p99:200,ko:1): for each metric, the most it may reach, in
 * the metric's unit, in the METRIC:NUMBER syntax of compare's --fail-if-worse. Latency percentiles (p50, p95, p99, in
 * ms) and KO (in %) are bounded from above; goodput (req/s) from below.
 */
public record Slo(List<Limit> limits) {

    /** One metric's bound: at most (at least, for goodput) this value. */
    public record Limit(Metric metric, double value) {

        /** How this limit was missed by the run's value, in one clause; null when it was met or the run has no such value. */
        String missedBy(Double v) {
            if (v == null) {
                return null;
            }
            boolean missed = !dev.latencylab.load.result.SloVerdict.Objective.meets(v, value, !metric.higherIsBetter());
            return missed ? "%s %s %s %s %s %s (by %s %s)".formatted(metric.id(), Figures.value(v), metric.unit(), metric.higherIsBetter() ? "<" : ">",
                    Figures.given(value), metric.unit(), Figures.value(Math.abs(v - value)), metric.unit()) : null;
        }
    }

    private static final List<Metric> BOUNDED = List.of(Metric.GOODPUT, Metric.P50, Metric.P95, Metric.P99, Metric.KO);

    /** --slo's value: METRIC:NUMBER, comma-separated, each metric once. */
    public static Slo parse(String option, String given) {
        return parse(option, given, BOUNDED, "one run's objective");
    }

    /** A capacity search's objective: the SLO its levels are judged by (p99, KO), and the capacity it must find. */
    public static Slo parseForCapacity(String option, String given) {
        return parse(option, given, List.of(Metric.P99, Metric.KO, Metric.CAPACITY), "a capacity search's objective");
    }

    /** The limit of this metric, if the objective has one. */
    public java.util.Optional<Double> of(Metric m) {
        return limits.stream().filter(l -> l.metric() == m).map(Limit::value).findFirst();
    }

    /** How a capacity missed this objective's capacity:RATE, in one clause; null when it met it or there is none. */
    public String capacityMissedBy(Double capacity) {
        return limits.stream().filter(l -> l.metric() == Metric.CAPACITY).findFirst()
                .map(l -> capacity == null ? "capacity none (its first level missed) < %s req/s".formatted(Figures.rate(l.value()))
                        : l.missedBy(capacity))
                .orElse(null);
    }

    private static Slo parse(String option, String given, List<Metric> bounded, String what) {
        List<Limit> limits = new ArrayList<>();
        for (String part : given.split(",", -1)) {
            String[] kv = part.split(":", -1);
            if (kv.length != 2 || !kv[1].strip().matches("[0-9]+(\\.[0-9]+)?")) {
                throw new IllegalArgumentException("%s %s: give METRIC:NUMBER, e.g. p99:200,ko:1 (p99 at most 200 ms, KO at most 1%%)"
                        .formatted(option, given));
            }
            Metric m = bounded.stream().filter(b -> b.id().equalsIgnoreCase(kv[0].strip())).findFirst().orElse(null);
            if (m == null) {
                throw new IllegalArgumentException("%s %s: %s is not a metric of %s; give %s".formatted(option, given, kv[0].strip(), what,
                        bounded.stream().map(Metric::id).collect(java.util.stream.Collectors.joining(", "))));
            }
            if (limits.stream().anyMatch(l -> l.metric() == m)) {
                throw new IllegalArgumentException("%s %s: %s is given twice; give each metric once".formatted(option, given, m.id()));
            }
            limits.add(new Limit(m, Double.parseDouble(kv[1].strip())));
        }
        return new Slo(limits);
    }

    /** The run judged by this objective, as its result file keeps it: each limit, the run's value, met. */
    public dev.latencylab.load.result.SloVerdict verdict(RunRow row) {
        List<dev.latencylab.load.result.SloVerdict.Objective> each = limits.stream().map(l -> {
            Double v = l.metric().of(row);
            boolean atMost = !l.metric().higherIsBetter();
            return new dev.latencylab.load.result.SloVerdict.Objective(l.metric().id(), l.metric().unit(), l.value(), atMost, v,
                    dev.latencylab.load.result.SloVerdict.Objective.meets(v, l.value(), atMost));
        }).toList();
        return new dev.latencylab.load.result.SloVerdict(each.stream().allMatch(dev.latencylab.load.result.SloVerdict.Objective::met), each);
    }

    /**
     * A capacity search judged by this objective, as its capacity.json keeps it: the capacity it had to find (none found
     * misses it), and the p99 (from due; a flow's, its requests' own) and KO of the level it found, which the search's SLO held.
     */
    public dev.latencylab.load.result.SloVerdict capacityVerdict(Double capacity, Long p99Ms, Double koPercent) {
        List<dev.latencylab.load.result.SloVerdict.Objective> each = limits.stream().map(l -> {
            Double v = switch (l.metric()) {
                case CAPACITY -> capacity;
                case P99 -> p99Ms == null ? null : p99Ms.doubleValue();
                case KO -> koPercent;
                default -> null;
            };
            boolean atMost = !l.metric().higherIsBetter();
            boolean met = l.metric() == Metric.CAPACITY ? capacityMissedBy(capacity) == null // none found misses it
                    : dev.latencylab.load.result.SloVerdict.Objective.meets(v, l.value(), atMost);
            return new dev.latencylab.load.result.SloVerdict.Objective(l.metric().id(), l.metric().unit(), l.value(), atMost, v, met);
        }).toList();
        return new dev.latencylab.load.result.SloVerdict(each.stream().allMatch(dev.latencylab.load.result.SloVerdict.Objective::met), each);
    }

    /** What the run missed, one clause per limit; empty when it met them all. */
    public List<String> missed(RunRow row) {
        return limits.stream().map(l -> l.missedBy(l.metric().of(row))).filter(java.util.Objects::nonNull).toList();
    }
}
