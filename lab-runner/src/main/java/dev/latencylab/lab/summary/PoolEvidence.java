package dev.latencylab.lab.summary;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

import dev.latencylab.load.result.Result;

/**
 * What a run's server said of its own pools on the plateau (result.json's server.pools): the pools it publishes with
 * their sizes, and the one that was full there and so decided its goodput (Result.Pools#decided), with that pool's
 * bound (its size over its hold time) and the share of samples it was full; and the sizes the user gave of pools it
 * does not publish. A part of a run's row and of a point's.
 *
 * @param pools          the pools it publishes, e.g. "Tomcat's threads 50, HikariCP 10"; null where it published none
 * @param fullPool       the pool that decided, null where none was full
 * @param fullPoolSize   its size, in fullPoolUnit (connections or threads)
 * @param fullPoolHoldMs the mean time one of it was held, null where it publishes none
 * @param fullPoolBound  its size / hold time (req/s), null without a hold time
 * @param fullPoolShare  the share of the plateau's samples it was full
 * @param unseen         the pools it has but does not publish, e.g. "Tomcat's threads"; null where none
 * @param givenPools     the pools whose sizes the user gave (--pool), e.g. "Tomcat's threads 10"; null where none
 * @param givenPool      the smallest of them (its bound, size / L, is the lowest), null where none
 * @param givenPoolSize  its size
 * @param givenPoolUnit  what it pools, null where the lab does not know the pool
 */
public record PoolEvidence(String pools, String fullPool, Double fullPoolSize, String fullPoolUnit, Double fullPoolHoldMs,
        Double fullPoolBound, Double fullPoolShare, String unseen, String givenPools, String givenPool, Double givenPoolSize,
        String givenPoolUnit) {

    public static final PoolEvidence NONE = new PoolEvidence(null, null, null, null, null, null, null, null, null, null, null, null);

    /** What is unseen where no metrics were read at all: then whether it publishes a pool is not known either. */
    public static final String NO_METRICS = "its pools (no metrics read)";

    /** A run's evidence, from its result file's pools (none in files written before them). */
    static PoolEvidence of(Result r) {
        Result.Pools pools = r.server() == null ? null : r.server().pools();
        boolean read = r.server() == null || r.server().sampling() == null || r.server().sampling().sampled();
        if (pools == null) {
            return read ? NONE : new PoolEvidence(null, null, null, null, null, null, null, NO_METRICS, null, null, null, null);
        }
        Result.Pool decided = pools.decided().orElse(null);
        String published = published(pools);
        String unseen = read ? pools.unseen().stream().map(Result.Unseen::pool).collect(Collectors.joining(", ")) : NO_METRICS;
        List<Result.GivenPool> unpublished = pools.givenUnpublished();
        String given = unpublished.stream().map(g -> "%s %.0f".formatted(g.name(), g.size())).collect(Collectors.joining(", "));
        Result.GivenPool smallest = unpublished.stream().min(java.util.Comparator.comparingDouble(Result.GivenPool::size)).orElse(null);
        return new PoolEvidence(published.isEmpty() ? null : published, decided == null ? null : decided.name(),
                decided == null ? null : decided.size(), decided == null ? null : decided.unit(), decided == null ? null : decided.holdMs(),
                decided == null ? null : decided.boundPerSecond(),
                decided == null ? null : decided.fullShare(), unseen.isEmpty() ? null : unseen, given.isEmpty() ? null : given,
                smallest == null ? null : smallest.name(), smallest == null ? null : smallest.size(), smallest == null ? null : smallest.unit());
    }

    /**
     * Held below the model's offered load at the bound of the pool its own metrics show full: the throughput short of
     * the model by more than its tolerance and within that tolerance of the pool's bound (its size over its hold time).
     * A pool the settings' model does not count (Tomcat's HTTP/2 streams, whose size is the connections clients spread
     * their requests over): named, not a disagreement to explain. The one rule for a run's flags, a point's cause and
     * the run line; each caller has already ruled out a pool the model counts.
     */
    public boolean heldBelow(Double modelThroughput, Double throughput) {
        return modelThroughput != null && throughput != null && fullPoolBound != null && fullPoolBound > 0
                && throughput < modelThroughput * (1 - Summary.MODEL_TOLERANCE)
                && Math.abs(throughput - fullPoolBound) / fullPoolBound <= Summary.MODEL_TOLERANCE;
    }

    /** The pools a server publishes with their sizes, e.g. "Tomcat's threads 50, HikariCP 10"; "" where none. */
    public static String published(Result.Pools pools) {
        return pools.published().stream().map(p -> p.size() == null ? p.name() + " (no bound)" : "%s %.0f".formatted(p.name(), p.size()))
                .collect(Collectors.joining(", "));
    }

    /**
     * A point's: the pool most of its runs found full (none when at least half found none), the median of those runs'
     * hold times, bounds and shares; the pools of its first run.
     */
    static PoolEvidence point(List<Summary.RunRow> done) {
        PoolEvidence first = done.get(0).evidence();
        List<PoolEvidence> runs = done.stream().map(Summary.RunRow::evidence).toList();
        long none = runs.stream().filter(e -> e.fullPool() == null).count();
        String full = none * 2 >= runs.size() ? null : runs.stream().map(PoolEvidence::fullPool).filter(Objects::nonNull)
                .collect(Collectors.groupingBy(p -> p, java.util.LinkedHashMap::new, Collectors.counting())).entrySet().stream()
                .max(java.util.Map.Entry.comparingByValue()).map(java.util.Map.Entry::getKey).orElse(null);
        if (full == null) {
            return new PoolEvidence(first.pools(), null, null, null, null, null, null, first.unseen(), first.givenPools(), first.givenPool(),
                    first.givenPoolSize(), first.givenPoolUnit());
        }
        List<PoolEvidence> same = runs.stream().filter(e -> full.equals(e.fullPool())).toList();
        return new PoolEvidence(first.pools(), full, same.get(0).fullPoolSize(), same.get(0).fullPoolUnit(), median(same, PoolEvidence::fullPoolHoldMs),
                median(same, PoolEvidence::fullPoolBound), median(same, PoolEvidence::fullPoolShare), first.unseen(), first.givenPools(),
                first.givenPool(), first.givenPoolSize(), first.givenPoolUnit());
    }

    private static Double median(List<PoolEvidence> runs, java.util.function.Function<PoolEvidence, Double> value) {
        return Spread.of(runs.stream().map(value).toList()).median();
    }
}
