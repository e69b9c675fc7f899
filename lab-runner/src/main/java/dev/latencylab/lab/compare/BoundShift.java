package dev.latencylab.lab.compare;

import java.util.Optional;

import dev.latencylab.lab.summary.PoolEvidence;
import dev.latencylab.lab.summary.Summary.PointRow;

/**
 * Which pool decided each side of a pair, from the server's own metrics (the pool full on the plateau), and how far its
 * bound moved: e.g. "HikariCP 10 → 20 connections: its bound moved from 99 to 198 req/s (full on both sides)". A
 * pair's bound, where either side's server published its pools.
 */
final class BoundShift {

    private BoundShift() {
    }

    static Optional<String> of(PointRow a, PointRow b) {
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
            return Optional.of("%s %s: its bound %s (full on both sides)".formatted(ea.fullPool(), sizes,
                    ea.fullPoolBound() == null || eb.fullPoolBound() == null ? "is not published (no hold time)"
                            : "moved from %,.0f to %,.0f req/s".formatted(ea.fullPoolBound(), eb.fullPoolBound())));
        }
        return Optional.of("the pool that decided moved: A %s, B %s".formatted(side(ea), side(eb)));
    }

    private static String side(PoolEvidence e) {
        return e.fullPool() == null ? "none full" : "%s (%.0f %s%s)".formatted(e.fullPool(), e.fullPoolSize(), e.fullPoolUnit(),
                e.fullPoolBound() == null ? "" : ", bound %,.0f req/s".formatted(e.fullPoolBound()));
    }
}
