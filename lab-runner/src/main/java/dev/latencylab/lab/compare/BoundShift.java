package dev.latencylab.lab.compare;

import java.util.Optional;

import dev.latencylab.lab.summary.PoolEvidence;
import dev.latencylab.lab.summary.ServiceModel;
import dev.latencylab.lab.summary.Summary.PointRow;

/**
 * Which pool decided each side of a pair, from the server's own metrics (the pool full on the plateau), and how far its
 * bound moved, and with it the knee the model puts it at: e.g. "HikariCP 10 → 20 connections: its bound moved from 99
 * to 198 req/s, the knee from 162 to 323 users (full on both sides)". A pair's bound, where either side's server
 * published its pools.
 */
final class BoundShift {

    private BoundShift() {
    }

    static Optional<String> of(PointRow a, PointRow b) {
        return of(a, b, Optional.empty(), Optional.empty());
    }

    /**
     * The same, with each side's service model (ServiceModel, calibrated on its lightest load) where there is one: a
     * bound that moved moves its knee, B (L + Z), said beside it ("the knee from 162 to 323 users").
     */
    static Optional<String> of(PointRow a, PointRow b, Optional<ServiceModel> modelA, Optional<ServiceModel> modelB) {
        PoolEvidence ea = a.evidence();
        PoolEvidence eb = b.evidence();
        if (ea.pools() == null && eb.pools() == null) {
            return Optional.empty();
        }
        if (ea.fullPool() == null && eb.fullPool() == null) {
            return Optional.of("no pool the server publishes was full on either side");
        }
        if (ea.fullPool() != null && ea.fullPool().equals(eb.fullPool())) {
            String sizes = ea.fullPoolSize().equals(eb.fullPoolSize()) ? "%.0f %s".formatted(ea.fullPoolSize(), ea.fullPoolUnit())
                    : "%.0f → %.0f %s".formatted(ea.fullPoolSize(), eb.fullPoolSize(), eb.fullPoolUnit());
            Double boundA = modelA.map(m -> m.fullPoolBound(ea)).orElse(ea.fullPoolBound());
            Double boundB = modelB.map(m -> m.fullPoolBound(eb)).orElse(eb.fullPoolBound());
            String knee = modelA.isEmpty() || modelB.isEmpty() || boundA == null || boundB == null ? ""
                    : ", the knee from %,.0f to %,.0f users".formatted(modelA.get().kneeUsers(boundA), modelB.get().kneeUsers(boundB));
            return Optional.of("%s %s: its bound %s (full on both sides)".formatted(ea.fullPool(), sizes,
                    boundA == null || boundB == null ? "is not published (no hold time)"
                            : "moved from %,.0f to %,.0f req/s%s".formatted(boundA, boundB, knee)));
        }
        return Optional.of("the pool that decided moved: A %s, B %s".formatted(side(ea), side(eb)));
    }

    private static String side(PoolEvidence e) {
        return e.fullPool() == null ? "none full" : "%s (%.0f %s%s)".formatted(e.fullPool(), e.fullPoolSize(), e.fullPoolUnit(),
                e.fullPoolBound() == null ? "" : ", bound %,.0f req/s".formatted(e.fullPoolBound()));
    }
}
