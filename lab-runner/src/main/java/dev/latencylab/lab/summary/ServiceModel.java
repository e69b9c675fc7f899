package dev.latencylab.lab.summary;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import dev.latencylab.load.model.PoolKind;

/**
 * The queueing model of a service of the user's, whose path names no latency, calibrated on its own lightest load: L,
 * the time one request takes there (its p50, nothing queued: no pool full), and L + Z, the time one user takes for a
 * request and its think time, from Little's law (N / goodput). From them: the load N users offer, N / (L + Z); a pool
 * of T held L each (a pool the user gave the size of, or one that publishes no hold time) serves at most T / L, and
 * T connections a client keeps, T / (L + Z); and a bound B is met at the knee, N = B (L + Z).
 *
 * @param at      the point it was calibrated on
 * @param latencyMs L
 * @param cycleMs L + Z
 */
public record ServiceModel(Summary.PointRow at, double latencyMs, double cycleMs) {

    /**
     * Calibrated on the lightest closed point of one service's points: one that finished, with none of its pools full
     * and requests served; none where there is no such point (an open search, or a lightest load already queued).
     */
    public static Optional<ServiceModel> of(List<Summary.PointRow> points) {
        return points.stream().filter(p -> p.done() && p.identity().rate() == null && p.identity().users() > 0)
                .min(Comparator.comparingInt(p -> p.identity().users())).flatMap(ServiceModel::calibratedAt);
    }

    /** Calibrated on this point, where it can be: finished, all its users active at once, nothing of it full, a p50 and a goodput. */
    public static Optional<ServiceModel> calibratedAt(Summary.PointRow p) {
        Double p50 = p.latency().p50Ms().median();
        Double goodput = p.rates().goodput().median();
        // a load whose users were never all active at once offered less than N/(L+Z): L + Z from it would be too long
        if (!p.done() || p.identity().rate() != null || p.evidence().fullPool() != null || p50 == null || p50 <= 0 || goodput == null
                || goodput <= 0 || p.flags().has(Flags.NOT_ALL_ACTIVE)) {
            return Optional.empty();
        }
        return Optional.of(new ServiceModel(p, p50, p.identity().users() * 1000.0 / goodput));
    }

    /** N / (L + Z): what n users offer, req/s. */
    public double offeredLoad(int users) {
        return users * 1000.0 / cycleMs;
    }

    /** T / L: the most a pool of this size held L each serves, req/s. */
    public double bound(double size) {
        return size * 1000.0 / latencyMs;
    }

    /** B (L + Z): the users at which the offered load meets a bound of B req/s. */
    public double kneeUsers(double boundPerSecond) {
        return boundPerSecond * cycleMs / 1000.0;
    }

    /**
     * How long one of a pool that publishes no hold time is held, by the model: a request's time, L; a connection a
     * client keeps (Tomcat's connections, one a user), a user's whole cycle, L + Z.
     */
    public double heldMs(String pool) {
        return PoolKind.heldByClients(pool) ? cycleMs : latencyMs;
    }

    /** What heldMs takes for this pool, in the model's words: "L", or "L + Z" for a connection a client keeps. */
    public String heldAs(String pool) {
        return PoolKind.heldByClients(pool) ? "L + Z" : "L";
    }

    /** The bound of a point's pool that decided, from its own hold time, else its size over the model's (heldMs); null where none was full. */
    public Double fullPoolBound(PoolEvidence e) {
        return e.fullPool() == null ? null : e.fullPoolBound() != null ? e.fullPoolBound() : e.fullPoolSize() * 1000.0 / heldMs(e.fullPool());
    }

    /** The bound of the smallest pool the user gave the size of: size / L; null where none was given. */
    public Double givenPoolBound(PoolEvidence e) {
        return e.givenPoolSize() == null ? null : bound(e.givenPoolSize());
    }
}
