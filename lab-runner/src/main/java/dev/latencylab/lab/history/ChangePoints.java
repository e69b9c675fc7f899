package dev.latencylab.lab.history;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import org.apache.commons.statistics.distribution.TDistribution;

/**
 * Change points of a series by Apache Otava's method (0.8, after Hunter: Fleming et al., "Hunter: Using Change Point
 * Detection to Hunt for Performance Regressions", ICPE 2023): E-divisive means (Matteson and James) in sliding windows
 * with a Student's t-test at a relaxed p-value (the split), then the weak points dropped, weakest first, until each is
 * significant and larger than the least magnitude (the merge). Written here rather than run from Python so that ./lab
 * needs no Python; OtavaAgreementIT checks its answers against Otava's own on the same series.
 *
 * @param windowLength Otava's window_len (50)
 * @param maxPValue    Otava's max_pvalue (0.001)
 * @param minMagnitude Otava's min_magnitude (0: any change that is significant)
 */
public record ChangePoints(int windowLength, double maxPValue, double minMagnitude) {

    /** Otava's defaults. */
    public static final ChangePoints OTAVA = new ChangePoints(50, 0.001, 0.0);

    /**
     * The least change ./lab history reports by default, in percent: percentiles are whole milliseconds, and two runs
     * alike on each side of a 1-ms step give a t-test without spread, significant by construction.
     */
    public static final int MIN_CHANGE_PERCENT = 5;

    /** ./lab history's defaults: Otava's, with the least change above. */
    public static final ChangePoints LAB = new ChangePoints(50, 0.001, MIN_CHANGE_PERCENT / 100.0);

    /**
     * A change point: the index of the first value after the change, and the two sides' means and (population) standard
     * deviations between the change points around it, with the t-test's p-value.
     */
    public record Change(int index, double pValue, double meanBefore, double meanAfter, double stdBefore, double stdAfter) {

        /** The change relative to the mean before it (0.2: 20% more); 0 when the mean before is 0, as Otava has it. */
        public double forwardChange() {
            return meanBefore == 0 ? 0 : meanAfter / meanBefore - 1;
        }

        /** The larger of the change relative to either side's mean, as Otava's merge weighs it. */
        public double magnitude() {
            return Math.max(Math.abs(forwardChange()), Math.abs(meanAfter == 0 ? 0 : meanBefore / meanAfter - 1));
        }
    }

    public ChangePoints {
        if (windowLength < 2) {
            throw new IllegalArgumentException("a window of at least 2 values, not " + windowLength);
        }
    }

    /** The change points of the series, in order. */
    public List<Change> of(double[] series) {
        double firstPass = maxPValue < 0.05 ? maxPValue * 10 : maxPValue < 0.5 ? maxPValue * 2 : maxPValue;
        return merge(split(series, firstPass), series);
    }

    private List<Change> split(double[] series, double pValue) {
        List<Integer> found = new ArrayList<>();
        int step = windowLength / 2;
        int start = 0;
        while (start < series.length) {
            int end = Math.min(start + windowLength, series.length);
            List<Integer> inWindow = divisive(Arrays.copyOfRange(series, start, end), pValue);
            int last = inWindow.isEmpty() ? 0 : inWindow.getLast() + start;
            for (int index : inWindow) {
                if (!found.contains(index + start)) {
                    found.add(index + start);
                }
            }
            start = Math.max(last, start + step);
        }
        found.sort(Comparator.naturalOrder());
        return stats(found, series);
    }

    /** E-divisive within one window: the best split of a segment, kept while the t-test says it is one. */
    private static List<Integer> divisive(double[] window, double pValue) {
        List<Integer> points = new ArrayList<>();
        while (true) {
            int[] bounds = bounds(points, window.length);
            int best = -1;
            double bestQ = Double.NEGATIVE_INFINITY;
            for (int s = 0; s + 1 < bounds.length; s++) {
                if (bounds[s + 1] - bounds[s] > 1) {
                    double[] candidate = candidate(window, bounds[s], bounds[s + 1]);
                    if (candidate[1] > bestQ) {
                        bestQ = candidate[1];
                        best = (int) candidate[0];
                    }
                }
            }
            if (best < 0) {
                return points;
            }
            int s = 0;
            while (!(bounds[s] < best && best < bounds[s + 1])) {
                s++;
            }
            if (!(tTest(window, bounds[s], best, bounds[s + 1]).pValue() <= pValue)) {
                return points;
            }
            points.add(best);
            points.sort(Comparator.naturalOrder());
        }
    }

    /** 0, each point, length: the segments' bounds. */
    private static int[] bounds(List<Integer> points, int length) {
        int[] bounds = new int[points.size() + 2];
        for (int i = 0; i < points.size(); i++) {
            bounds[i + 1] = points.get(i);
        }
        bounds[bounds.length - 1] = length;
        return bounds;
    }

    /**
     * The τ in (start, end) that maximizes Q(τ, κ) over κ in (τ, end], as Otava's matrix has it (rows τ, columns κ, the
     * entries below the diagonal 0, the first maximum in row order): {τ, Q}.
     */
    private static double[] candidate(double[] z, int start, int end) {
        int size = end - 1 - start;
        double best = Double.NEGATIVE_INFINITY;
        int bestTau = start + 1;
        for (int i = 0; i < size; i++) {
            for (int j = 0; j < size; j++) {
                int tau = start + 1 + i;
                int kappa = start + 2 + j;
                double q = j >= i ? qq(z, start, tau, kappa) : 0;
                if (q > best) {
                    best = q;
                    bestTau = tau;
                }
            }
        }
        return new double[] {bestTau, best};
    }

    /** Q of X = z[start, tau) against Y = z[tau, kappa): the energy distance between the two, scaled as Otava scales it. */
    private static double qq(double[] z, int start, int tau, int kappa) {
        int n = tau - start;
        int m = kappa - tau;
        double between = 0;
        for (int i = start; i < tau; i++) {
            for (int j = tau; j < kappa; j++) {
                between += Math.abs(z[i] - z[j]);
            }
        }
        double inX = 0;
        for (int i = start; i < tau; i++) {
            for (int k = i + 1; k < tau; k++) {
                inX += Math.abs(z[i] - z[k]);
            }
        }
        double inY = 0;
        for (int j = tau; j < kappa; j++) {
            for (int k = j + 1; k < kappa; k++) {
                inY += Math.abs(z[j] - z[k]);
            }
        }
        double a = 2.0 / (m + n) * between;
        double b = n > 1 ? 2.0 * m / (m + n) / (n - 1) * inX : 0;
        double c = m > 1 ? 2.0 * n / (m + n) / (m - 1) * inY : 0;
        return a - b - c;
    }

    /**
     * The changes at these indices (ascending) of the series, each judged against its neighbours, the weak dropped as
     * the method drops them: what is left when some of its points are set aside.
     */
    List<Change> judged(List<Integer> indices, double[] series) {
        return merge(stats(indices, series), series);
    }

    /** The change at index of series, judged on z[from, at) against z[at, to). */
    static Change between(double[] series, int from, int at, int to) {
        return tTest(series, from, at, to);
    }

    /** Each point's statistics against its neighbours (the series' ends beyond the first and the last). */
    private static List<Change> stats(List<Integer> points, double[] series) {
        int[] bounds = bounds(points, series.length);
        List<Change> changes = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) {
            changes.add(tTest(series, bounds[i], bounds[i + 1], bounds[i + 2]));
        }
        return changes;
    }

    /**
     * Student's two-sided t-test of z[from, at) against z[at, to) with a pooled variance, from the sides' means and
     * population standard deviations, as Otava calls scipy's ttest_ind_from_stats; p = 1 for two values in all.
     */
    private static Change tTest(double[] z, int from, int at, int to) {
        int n1 = at - from;
        int n2 = to - at;
        double m1 = mean(z, from, at);
        double m2 = mean(z, at, to);
        double s1 = n1 >= 2 ? std(z, from, at, m1) : 0;
        double s2 = n2 >= 2 ? std(z, at, to, m2) : 0;
        double p = 1;
        if (n1 + n2 > 2) {
            int df = n1 + n2 - 2;
            double pooled = ((n1 - 1) * s1 * s1 + (n2 - 1) * s2 * s2) / df;
            double t = (m1 - m2) / Math.sqrt(pooled * (1.0 / n1 + 1.0 / n2));
            // 0/0 (equal sides without spread) is NaN, as in scipy: never significant
            p = Double.isNaN(t) ? Double.NaN : 2 * TDistribution.of(df).survivalProbability(Math.abs(t));
        }
        return new Change(at, p, m1, m2, s1, s2);
    }

    private static double mean(double[] z, int from, int to) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += z[i];
        }
        return sum / (to - from);
    }

    private static double std(double[] z, int from, int to, double mean) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += (z[i] - mean) * (z[i] - mean);
        }
        return Math.sqrt(sum / (to - from));
    }

    /** Otava's merge: the weakest point dropped (the least significant, or else the smallest), its neighbours judged again. */
    private List<Change> merge(List<Change> weak, double[] series) {
        List<Change> points = new ArrayList<>(weak);
        while (!points.isEmpty()) {
            Change weakest = points.getFirst();
            for (Change c : points) {
                if (c.pValue() > weakest.pValue()) { // as Python's max: a NaN is kept only where it comes first
                    weakest = c;
                }
            }
            if (weakest.pValue() < maxPValue) {
                weakest = points.getFirst();
                for (Change c : points) {
                    if (c.magnitude() < weakest.magnitude()) {
                        weakest = c;
                    }
                }
                if (weakest.magnitude() > minMagnitude) {
                    return points;
                }
            }
            int at = points.indexOf(weakest);
            points.remove(at);
            int[] bounds = bounds(points.stream().map(Change::index).toList(), series.length);
            for (int i : new int[] {at, at + 1}) {
                if (i < points.size()) {
                    points.set(i, tTest(series, bounds[i], bounds[i + 1], bounds[i + 2]));
                }
            }
        }
        return points;
    }
}
