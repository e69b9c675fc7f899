package dev.latencylab.lab.compare;

import java.util.Arrays;

import org.apache.commons.statistics.distribution.TDistribution;

import dev.latencylab.lab.format.Figures;

/**
 * An interval for the difference B − A of two means, and how it was taken.
 *
 * @param method how the noise was estimated, as the reader sees it
 */
public record Interval(double low, double high, String method) {

    /** The share of intervals that hold the true difference. */
    public static final double LEVEL = 0.95;

    /** As a reader sees it: -709 .. -690. */
    public String range() {
        return Figures.signed(low) + " .. " + Figures.signed(high);
    }

    public boolean holds(double difference) {
        return low <= difference && difference <= high;
    }

    /**
     * Welch's t interval over the runs' values (two or more each): the runs of a point are independent repeats, their
     * spread the noise. With a few runs a t quantile is wide, as it should be: three runs each say little more.
     */
    public static Interval welch(double[] a, double[] b) {
        if (a.length < 2 || b.length < 2) {
            throw new IllegalArgumentException("Welch's interval needs two values or more on each side");
        }
        double va = variance(a) / a.length;
        double vb = variance(b) / b.length;
        double difference = mean(b) - mean(a);
        String method = "Welch's t over %d and %d runs".formatted(a.length, b.length);
        if (va + vb == 0) {
            return new Interval(difference, difference, method); // runs that agree exactly: no noise seen
        }
        double df = (va + vb) * (va + vb) / (va * va / (a.length - 1) + vb * vb / (b.length - 1));
        double t = TDistribution.of(df).inverseCumulativeProbability(1 - (1 - LEVEL) / 2);
        double half = t * Math.sqrt(va + vb);
        return new Interval(difference - half, difference + half, method);
    }

    /**
     * Capacity searches, two or more a side. A search knows its capacity only to its ladder's step: it lies at or above
     * the highest rate within the SLO and below the next rate, which missed it. So B − A lies between mean(capB) −
     * mean(missA) and mean(missB) − mean(capA); each end is widened by the half-width of Welch's t over the capacities,
     * the noise between searches. Searches that agree exactly still leave their step's width.
     *
     * @param a, b each search's capacity and the rate that missed above it, as {capacity, firstMiss}
     */
    public static Interval brackets(double[][] a, double[][] b) {
        double[] capA = column(a, 0);
        double[] capB = column(b, 0);
        Interval welch = welch(capA, capB);
        double half = (welch.high() - welch.low()) / 2;
        return new Interval(mean(capB) - mean(column(a, 1)) - half, mean(column(b, 1)) - mean(capA) + half,
                "Welch's t over %d and %d searches, widened by their ladders' steps (a capacity lies below the rate that missed)"
                        .formatted(a.length, b.length));
    }

    private static double[] column(double[][] rows, int k) {
        return Arrays.stream(rows).mapToDouble(r -> r[k]).toArray();
    }

    /**
     * Batch means over one run's per-second series each (e.g. OK responses per second on the plateau), as simulation
     * output is analysed: neighbouring seconds depend on each other (a queue carries over), so the seconds are cut into
     * batches of about the square root of their number, whose means are nearly independent, and Welch's t is taken over
     * those. Weaker than repeats: it sees the noise within a run, not between runs (a target's start, the machine).
     * (On dependent synthetic seconds a circular block bootstrap held a null effect in 86% of its 95% intervals, batch
     * means in 93%: IntervalTest.)
     *
     * @return null when either side has fewer than two batches (a plateau under 6 s): no interval, not a refusal
     */
    public static Interval batchMeans(double[] a, double[] b) {
        double[] ba = batches(a);
        double[] bb = batches(b);
        if (ba.length < 2 || bb.length < 2) {
            return null;
        }
        Interval welch = welch(ba, bb);
        return new Interval(welch.low(), welch.high(), "batch means over %d and %d plateau seconds of one run each (%d and %d batches; weaker than repeats)"
                .formatted(a.length, b.length, ba.length, bb.length));
    }

    /** Means of consecutive batches of about √n seconds (at least 3), the first seconds left out when they do not fill one. */
    static double[] batches(double[] series) {
        int size = Math.max(3, (int) Math.round(Math.sqrt(series.length)));
        int count = series.length / size;
        int skip = series.length - count * size;
        double[] means = new double[count];
        for (int i = 0; i < count; i++) {
            means[i] = mean(Arrays.copyOfRange(series, skip + i * size, skip + (i + 1) * size));
        }
        return means;
    }

    static double mean(double[] values) {
        return Arrays.stream(values).average().orElse(Double.NaN);
    }

    private static double variance(double[] values) {
        double mean = mean(values);
        return Arrays.stream(values).map(v -> (v - mean) * (v - mean)).sum() / (values.length - 1);
    }
}
