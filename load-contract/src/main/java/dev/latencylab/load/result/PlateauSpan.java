package dev.latencylab.load.result;

import java.util.Arrays;

/**
 * The plateau of a run, by one rule for a run's samples (RunResult) and for a merge's summed rows (ResultMerge): which
 * samples are on it, its whole seconds, and the mean completions and OK responses per second in them.
 */
public final class PlateauSpan {

    /** Samples with at least this share of the peak of active users make up the plateau (full population). */
    public static final double PLATEAU_SHARE = 0.95;

    private PlateauSpan() {
    }

    /**
     * The whole seconds of a plateau, from the second of its first sample up to (not including) that of its last, and
     * the mean completions and OK responses per second in them (null when that is no whole second). One rule for a
     * run's plateau and for a merged one (ResultMerge).
     */
    public record Seconds(int from, int to, Double throughput, Double goodput) {

        public static final Seconds NONE = new Seconds(0, 0, null, null);

        public static Seconds of(double firstSample, double lastSample, long[] perSecond, long[] okPerSecond) {
            int from = (int) Math.floor(firstSample);
            int to = Math.min((int) Math.floor(lastSample), perSecond.length);
            return to > from ? new Seconds(from, to, Arrays.stream(perSecond, from, to).average().orElse(0),
                    Arrays.stream(okPerSecond, from, to).average().orElse(0)) : new Seconds(from, to, null, null);
        }
    }

    /** The mean of a per-second series over the whole seconds within from..to (those the run reached); null if none. */
    public static Double meanOfWholeSeconds(long[] perSecond, double from, double to) {
        int first = (int) Math.ceil(from);
        int end = Math.min((int) Math.floor(to), perSecond.length);
        return end <= first ? null : Arrays.stream(perSecond, first, end).average().orElse(0);
    }

    /** Whether a sample (its second on the run's clock, its active users if known) is on the plateau. */
    public interface Rule {
        boolean test(double second, Double activeUsers);
    }

    /**
     * The plateau's one rule, for a run's samples here and for a merge's summed rows (ResultMerge): an open run's is its
     * highest level reached (the seconds its arrivals were due in), a closed run's the samples with at least
     * {@link #PLATEAU_SHARE} of the peak of active users (its full population).
     */
    public static Rule rule(Result.Open open, double peakActiveUsers) {
        if (open != null) {
            Result.Level top = open.topLevel();
            return (second, active) -> top != null && second >= top.window().fromSecond() && second <= top.window().toSecond();
        }
        return (second, active) -> peakActiveUsers > 0 && active != null && active >= PLATEAU_SHARE * peakActiveUsers;
    }
}
