package dev.latencylab.lab.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * The intervals on synthetic data with a known effect: an effect is found with its sign, and a null effect is called
 * "no difference" at about the stated rate (95%). Seeded: the same draws on every run.
 */
class IntervalTest {

    private static final int TRIALS = 2000;

    @Test
    void welchFindsAKnownEffectWithItsSign() {
        SplittableRandom random = new SplittableRandom(7);
        double[] a = normal(random, 3, 2000, 20);
        double[] b = normal(random, 3, 3100, 20);
        Interval up = Interval.welch(a, b);
        assertThat(up.low()).as("B is higher").isPositive();
        assertThat(Interval.mean(b) - Interval.mean(a)).isBetween(up.low(), up.high());
        Interval down = Interval.welch(b, a);
        assertThat(down.high()).as("the other way round").isNegative();
        assertThat(Comparison.verdict(Metric.GOODPUT, Interval.mean(b) - Interval.mean(a), up)).isEqualTo(Comparison.Call.BETTER);
        assertThat(Comparison.verdict(Metric.P99, Interval.mean(b) - Interval.mean(a), up)).as("higher latency is worse")
                .isEqualTo(Comparison.Call.WORSE);
    }

    @Test
    void welchCallsANullEffectNoDifferenceAtItsStatedRate() {
        SplittableRandom random = new SplittableRandom(11);
        int held = 0;
        for (int i = 0; i < TRIALS; i++) {
            if (Interval.welch(normal(random, 3, 100, 5), normal(random, 3, 100, 5)).holds(0)) {
                held++;
            }
        }
        // 95% stated; the binomial spread of 2,000 trials is about 0.5%
        System.out.printf("Welch, null effect: %d of %d intervals hold 0%n", held, TRIALS);
        assertThat(held / (double) TRIALS).isBetween(0.93, 0.98);
    }

    /**
     * Synthetic capacity searches: each search's true capacity is drawn around mean (spread sd), and its ladder, with
     * steps of step req/s from a random offset, reports the highest rate at or below it and the next, which missed.
     */
    private static double[][] searches(SplittableRandom random, int n, double mean, double sd, double step) {
        double[][] found = new double[n][];
        double offset = random.nextDouble(step);
        for (int i = 0; i < n; i++) {
            double truth = mean + sd * gaussian(random);
            double capacity = offset + Math.floor((truth - offset) / step) * step;
            found[i] = new double[] {capacity, capacity + step};
        }
        return found;
    }

    @Test
    void searchesFindAKnownEffectWithItsSignAndKeepTheirSteps() {
        SplittableRandom random = new SplittableRandom(17);
        // T/L 2,000 against 4,000, steps of 80 and 160 req/s as the default ladders' refinements: the difference is found
        double[][] a = searches(random, 3, 2000, 10, 80);
        double[][] b = searches(random, 3, 4000, 10, 160);
        Interval i = Interval.brackets(a, b);
        assertThat(i.low()).as("B is higher").isPositive();
        assertThat(Comparison.verdict(Metric.CAPACITY, 2000, i)).isEqualTo(Comparison.Call.BETTER);
        assertThat(i.method()).contains("3 and 3 searches");
        // searches that agree exactly leave their steps: the interval is the steps' width, not a point
        Interval same = Interval.brackets(new double[][] {{2000, 2080}, {2000, 2080}}, new double[][] {{2000, 2080}, {2000, 2080}});
        assertThat(same.low()).isEqualTo(-80);
        assertThat(same.high()).isEqualTo(80);
        assertThat(Comparison.verdict(Metric.CAPACITY, 0, same)).isEqualTo(Comparison.Call.NO_DIFFERENCE);
    }

    /** The same target searched twice, three times each: no difference at least at the stated rate (the steps widen it). */
    @Test
    void searchesCallANullEffectNoDifferenceAtLeastAtTheStatedRate() {
        SplittableRandom random = new SplittableRandom(19);
        int held = 0;
        for (int i = 0; i < TRIALS; i++) {
            if (Interval.brackets(searches(random, 3, 6500, 300, 160), searches(random, 3, 6500, 300, 160)).holds(0)) {
                held++;
            }
        }
        System.out.printf("Searches, null effect: %d of %d intervals hold 0%n", held, TRIALS);
        assertThat(held / (double) TRIALS).isGreaterThanOrEqualTo(0.94);
    }

    @Test
    void batchMeansFindAShiftInDependentSeconds() {
        SplittableRandom random = new SplittableRandom(13);
        double[] a = ar1(random, 40, 600, 15, 0.5);
        double[] b = ar1(random, 40, 640, 15, 0.5);
        Interval i = Interval.batchMeans(a, b);
        assertThat(i.low()).as("B is higher").isPositive();
        assertThat(i.method()).contains("batch means over 40 and 40 plateau seconds");
    }

    /**
     * Seconds that depend on their neighbours (AR(1), 0.5): batch means hold a null effect near their stated rate
     * (printed); the bound leaves room for the small dependence left between neighbouring batches.
     */
    @Test
    void batchMeansCallANullEffectNoDifferenceNearTheirStatedRate() {
        SplittableRandom random = new SplittableRandom(17);
        int held = 0;
        for (int i = 0; i < TRIALS; i++) {
            if (Interval.batchMeans(ar1(random, 40, 600, 15, 0.5), ar1(random, 40, 600, 15, 0.5)).holds(0)) {
                held++;
            }
        }
        System.out.printf("batch means, null effect: %d of %d intervals hold 0%n", held, TRIALS);
        assertThat(held / (double) TRIALS).isBetween(0.90, 0.98);
    }

    /** A plateau too short for two batches (quick runs' few seconds) gives no interval, not a refusal. */
    @Test
    void tooFewSecondsForTwoBatchesGiveNoInterval() {
        assertThat(Interval.batchMeans(new double[] {60, 61, 59, 62, 60}, new double[] {60, 61, 59, 62, 60, 61, 60})).isNull();
        assertThat(Interval.batchMeans(new double[] {60, 61, 59, 62, 60, 61}, new double[] {60, 61, 59, 62, 60, 61})).isNotNull();
        assertThat(Comparison.verdict(Metric.GOODPUT, 1.5, null)).isEqualTo(Comparison.Call.NO_INTERVAL);
    }

    /**
     * Why there is no interval follows the counts: too few runs a side asks for repeats; repeats whose runs did not all
     * measure the metric say how many did, never "one run each" (a compare of 3 runs a side once said so).
     */
    @Test
    void noIntervalSaysWhichRunsMeasuredTheMetric() {
        assertThat(Comparison.noInterval(Metric.P99, 1, 1, 1, 1, Comparison.Kind.RUNS.repeat()))
                .isEqualTo("1 run vs 1 run: sweep with --repeats 3 on both sides");
        assertThat(Comparison.noInterval(Metric.P99, 1, 1, 3, 3, Comparison.Kind.RUNS.repeat())).startsWith("1 run vs 3 runs: ");
        assertThat(Comparison.noInterval(Metric.SERVER_CPU, 3, 1, 3, 3, Comparison.Kind.RUNS.repeat())).isEqualTo(
                "server-cpu measured in 1 of 3 runs of A and 3 of 3 of B: an interval needs two a side");
    }

    /** One run of a point that has three, against another: the advice is to give the points whole, not to repeat them. */
    @Test
    void oneRunOfARepeatedPointIsToldToGiveThePointWhole() {
        java.nio.file.Path points = dev.latencylab.lab.Lab.repo().resolve("docs/results/points");
        String advice = Comparison.repeatAdvice(Side.read(points.resolve("mvc-t200-l100-u5000-r1")), Side.read(points.resolve("mvc-t400-l100-u5000-r1")));
        assertThat(advice).isEqualTo("give the points whole, without -r<n>, to compare all their runs: A %s (3 runs), B %s (3 runs)"
                .formatted(points.resolve("mvc-t200-l100-u5000"), points.resolve("mvc-t400-l100-u5000")));
        assertThat(Comparison.repeatAdvice(Side.read(points.resolve("mvc-t200-l100-u5000")), Side.read(points.resolve("mvc-t400-l100-u5000"))))
                .as("whole points: repeats are the advice").isEqualTo(Comparison.Kind.RUNS.repeat());
        assertThat(Comparison.repeatAdvice(Side.read(points.resolve("mvc-t200-l100-u5000-r1")), Side.read(points.resolve("mvc-t200-l100-u5000-r2"))))
                .as("two runs of one point, against each other on purpose").isEqualTo(Comparison.Kind.RUNS.repeat());
    }

    @Test
    void runsThatAgreeExactlyGiveAPointInterval() {
        Interval i = Interval.welch(new double[] {0, 0, 0}, new double[] {0, 0});
        assertThat(i.holds(0)).isTrue();
        assertThat(Comparison.verdict(Metric.KO, 0, i)).isEqualTo(Comparison.Call.NO_DIFFERENCE);
    }

    private static double[] normal(SplittableRandom random, int n, double mean, double sd) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = mean + sd * gaussian(random);
        }
        return v;
    }

    private static double[] ar1(SplittableRandom random, int n, double mean, double sd, double phi) {
        double[] v = new double[n];
        double e = gaussian(random) * sd;
        for (int i = 0; i < n; i++) {
            e = phi * e + Math.sqrt(1 - phi * phi) * sd * gaussian(random);
            v[i] = mean + e;
        }
        return v;
    }

    private static double gaussian(SplittableRandom random) {
        // Box-Muller: SplittableRandom has no nextGaussian on every JDK this builds on
        return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
    }
}
