package dev.latencylab.lab.summary;

import java.util.List;
import java.util.Objects;

/**
 * A measure over the runs of one point: its median and its range (min to max). With one run all three are that
 * run's value; with none, all are null.
 */
public record Spread(Double median, Double min, Double max, int runs) {

    static final Spread NONE = new Spread(null, null, null, 0);

    /** The spread of the values present (nulls are runs that did not have this measure). */
    public static Spread of(List<? extends Number> values) {
        List<Double> v = values.stream().filter(Objects::nonNull).map(Number::doubleValue).sorted().toList();
        if (v.isEmpty()) {
            return NONE;
        }
        int n = v.size();
        double median = n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
        return new Spread(median, v.get(0), v.get(n - 1), n);
    }

    /** The same spread of the values times a factor (e.g. a share as a percentage). */
    public Spread times(double factor) {
        return median == null ? this : new Spread(median * factor, min * factor, max * factor, runs);
    }

    /** max - min; null without values. */
    public Double range() {
        return median == null ? null : max - min;
    }

    /** The range as a share of the median; null without values or with a median of 0. */
    public Double relativeRange() {
        return median == null || median == 0 ? null : range() / Math.abs(median);
    }

    /** Whether the runs disagree by more than this share of the median and, as well, by more than this much. */
    public boolean widerThan(double share, double absolute) {
        Double relative = relativeRange();
        return relative != null && relative > share && range() > absolute;
    }

    /** e.g. "3,111 (3,105–3,116)" with a pattern "%,.0f"; the median alone for one run; "" without values. */
    public String format(String pattern) {
        if (median == null) {
            return "";
        }
        String m = pattern.formatted(median);
        if (runs < 2) {
            return m;
        }
        return m + " (" + pattern.formatted(min) + "–" + pattern.formatted(max) + ")";
    }
}
