package dev.latencylab.load;

import java.time.Instant;
import java.util.Optional;

/**
 * One of K Gatling processes that load a target together (sim.injectors, sim.injector.index): which share of the
 * run's users it starts, and when all of them start (sim.start.at), so that their per-second series line up and
 * their result files merge (see ResultMerge).
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

    public boolean split() {
        return injectors > 1;
    }
}
