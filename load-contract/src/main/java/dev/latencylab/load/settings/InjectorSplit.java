package dev.latencylab.load.settings;

import java.time.Instant;
import java.util.Optional;

/**
 * One of K Gatling processes that load a target together (sim.injectors, sim.injector.index): which share of the
 * run's users (closed model) or of each rate (open model) it starts, and when all of them start (sim.start.at), so
 * that their per-second series line up and their result files merge (see ResultMerge).
 *
 * @param injectors how many processes share the run (1: the run is this process alone)
 * @param index     this one, 0 to injectors - 1
 * @param startAt   when every injector starts its load (each waits until then); empty: at once
 */
public record InjectorSplit(int injectors, int index, Optional<Instant> startAt) {

    public static final InjectorSplit ALONE = new InjectorSplit(1, 0, Optional.empty());

    public InjectorSplit {
        if (injectors < 1 || index < 0 || index >= injectors) {
            throw new IllegalArgumentException("injector %d of %d: the index must be 0 to %d".formatted(index, injectors, injectors - 1));
        }
    }

    /** This injector's share of a total: the total divided evenly, the first (total mod K) injectors one more each. */
    public int share(int total) {
        return total / injectors + (index < total % injectors ? 1 : 0);
    }

    /**
     * This injector's share of a rate in requests per second, split like users but in thousandths of a request per
     * second, so that the K shares add up to the rate exactly (rates of a split run are multiples of 0.001, see
     * {@link #divisible}). K independent Poisson streams of the shares make one Poisson stream of the rate; K uniform
     * ones send their arrivals in groups of K, evenly spaced.
     */
    public double shareOfRate(double rate) {
        if (!split()) {
            return rate; // alone: the rate as given, however fine
        }
        long thousandths = Math.round(rate * RATE_STEPS);
        return (thousandths / injectors + (index < thousandths % injectors ? 1 : 0)) / (double) RATE_STEPS;
    }

    /** Steps of a rate that split exactly: thousandths of a request per second. */
    public static final int RATE_STEPS = 1000;

    /** Whether a rate splits into K shares of whole thousandths, none of them zero. */
    public static boolean divisible(double rate, int injectors) {
        double thousandths = rate * RATE_STEPS;
        return Math.abs(thousandths - Math.rint(thousandths)) < 1e-6 && Math.rint(thousandths) >= injectors;
    }

    public boolean split() {
        return injectors > 1;
    }
}
