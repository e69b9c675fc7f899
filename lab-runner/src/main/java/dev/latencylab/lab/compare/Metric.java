package dev.latencylab.lab.compare;

import java.util.Arrays;
import java.util.Locale;
import java.util.function.Function;

import dev.latencylab.load.result.Result;
import dev.latencylab.lab.summary.Summary.RunRow;

/**
 * What a comparison compares, as the summary rows have it (or, for capacity, as a search's capacity.json has it), and
 * which way is better. Goodput also has a per-second series on the plateau, so that two single runs can be compared
 * against their own noise.
 */
public enum Metric {

    GOODPUT("goodput", "req/s", true, r -> r.rates().goodput()),
    P50("p50", "ms", false, r -> ms(r.latency().p50Ms())),
    P95("p95", "ms", false, r -> ms(r.latency().p95Ms())),
    P99("p99", "ms", false, r -> ms(r.latency().p99Ms())),
    KO("ko", "%", false, r -> r.requests().koPercent()),
    SERVER_CPU("server-cpu", "ms/response", false, r -> r.cpu().serverCpuMsPerRequest()),
    /** A capacity search's answer: the highest arrival rate within the SLO (SearchComparison.outcome; no run has it). */
    CAPACITY("capacity", "req/s", true, r -> null);

    private final String id;
    private final String unit;
    private final boolean higherIsBetter;
    private final Function<RunRow, Double> value;

    Metric(String id, String unit, boolean higherIsBetter, Function<RunRow, Double> value) {
        this.id = id;
        this.unit = unit;
        this.higherIsBetter = higherIsBetter;
        this.value = value;
    }

    public String id() {
        return id;
    }

    public String unit() {
        return unit;
    }

    public boolean higherIsBetter() {
        return higherIsBetter;
    }

    /** Its value in a finished run's row; null where the run does not have it (e.g. CPU not sampled). */
    public Double of(RunRow row) {
        return value.apply(row);
    }

    /**
     * Its per-second values on the run's plateau (a closed run's full population, an open run's top level), for a
     * comparison of single runs; null where this metric has none (percentiles, KO and CPU are not kept per second).
     */
    public double[] perSecond(Result r) {
        if (this != GOODPUT || r.throughput().okPerSecond() == null) {
            return null;
        }
        long[] ok = r.throughput().okPerSecond();
        Result.Level level = r.open() == null ? null : r.open().topLevel();
        int from;
        int to;
        if (level != null) {
            from = (int) Math.ceil(level.window().fromSecond());
            to = Math.min((int) Math.floor(level.window().toSecond()), ok.length);
        }
        else if (r.plateau() != null && r.throughput().plateauPerSecond() != null) {
            from = r.plateau().fromSecond();
            to = Math.min(r.plateau().toSecond(), ok.length);
        }
        else {
            return null;
        }
        return to <= from ? null : Arrays.stream(ok, from, to).asDoubleStream().toArray();
    }

    /** The metric named on the command line (goodput, p50, p95, p99, ko, server-cpu, capacity). */
    public static Metric parse(String id) {
        for (Metric m : values()) {
            if (m.id.equals(id.strip().toLowerCase(Locale.ROOT))) {
                return m;
            }
        }
        throw new IllegalArgumentException("'%s' is not a metric; allowed: %s".formatted(id,
                String.join(", ", Arrays.stream(values()).map(Metric::id).toList())));
    }

    private static Double ms(Long ms) {
        return ms == null ? null : ms.doubleValue();
    }
}
