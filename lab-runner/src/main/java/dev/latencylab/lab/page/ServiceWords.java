package dev.latencylab.lab.page;

import dev.latencylab.load.Result;
import dev.latencylab.lab.capacity.Capacity;
import dev.latencylab.lab.summary.PoolEvidence;
import dev.latencylab.lab.summary.Summary;

/**
 * A service's stages in words (a target of the user's, without a model: its path names no latency), from what it said
 * of its own pools: the pool that was full and its bound (size over hold time, from its own metrics) beside the goodput
 * measured; a response time that rose with nothing it publishes full, said as exactly that; or nothing full.
 */
final class ServiceWords {

    private ServiceWords() {
    }

    /**
     * Whether a point's requests queued somewhere: its p50 rose past the lightest load's (the service's own time, the
     * calibration) by more than runs of one point may disagree (Summary's p95 tolerances).
     */
    static boolean queued(Summary.PointRow p, Summary.PointRow lightest) {
        if (lightest == null || lightest == p) {
            return false;
        }
        Double at = p.latency().p50Ms().median();
        Double light = lightest.latency().p50Ms().median();
        return at != null && light != null && at > light * (1 + Summary.P95_TOLERANCE) && at - light > Summary.P95_TOLERANCE_MS;
    }

    /** README's form: what decided, over which loads, one number. */
    static String brief(Verdict.Stage s, String loads, String goodput) {
        Summary.PointRow p = s.bound().holds() ? s.first() : s.last();
        return switch (s.bound()) {
            case SERVICE_POOL -> "%s %s (%s; %s%s; its metrics)".formatted(p.evidence().fullPool(), loads, bound(p.evidence()), goodput,
                    ofBound(p));
            case UNEXPLAINED -> "not explained by any pool this service publishes %s (%s; p50 %s ms against %s ms at its lightest load%s)"
                    .formatted(loads, goodput, Verdict.ms(p.latency().p50Ms().median()), Verdict.ms(s.lightest().latency().p50Ms().median()),
                            published(p));
            default -> "none of its pools full %s (%s%s)".formatted(loads, goodput, published(p));
        };
    }

    /** The page's form: the same, with the stage's point's numbers. */
    static String stage(Verdict.Stage s, String loads, String at) {
        Summary.PointRow p = s.bound().holds() ? s.first() : s.last();
        return switch (s.bound()) {
            case SERVICE_POOL -> "held by %s, full on %.0f%% of the plateau's samples, %s (%s; %s%s)".formatted(p.evidence().fullPool(),
                    100 * p.evidence().fullPoolShare(), loads, at, bound(p.evidence()), ofBound(p));
            case UNEXPLAINED -> ("its response time rose %s with no pool it publishes full and this machine's CPU not busy: not explained "
                    + "by any pool this service publishes (%s; p50 %s ms at its lightest load%s)").formatted(loads, at,
                            Verdict.ms(s.lightest().latency().p50Ms().median()), published(p));
            default -> "none of its pools full %s (%s%s)".formatted(loads, at, published(p));
        };
    }

    /**
     * What bounded a capacity search of a service (no model, not this machine's CPU), from what its metrics said at the
     * first rate that missed the SLO: the pool full there with its bound; none full ("not explained by any pool this
     * service publishes"); or nothing published there to tell by.
     */
    static String capacity(Capacity.Search search, String at, String ofCeiling, String next) {
        if (search.answer().firstMissPerSecond() == null) {
            return "nothing yet: no rate missed the SLO, %s (%s; %s)".formatted(at, ofCeiling, next);
        }
        Capacity.TopLevel miss = Capacity.atFirstMiss(search);
        if (miss == null) {
            return "nothing the lab can name: no model (its path names no latency), not this machine's CPU, and no pool published at "
                    + "the first rate missed, %s (%s; %s)".formatted(at, ofCeiling, next);
        }
        Result.Pool p = miss.full();
        if (p == null) {
            return "not explained by any pool this service publishes (%s; none full at %s req/s, the first rate missed), %s (%s; %s)"
                    .formatted(miss.pools().isEmpty() ? "it publishes none" : miss.pools(), Verdict.rate(miss.ratePerSecond()), at, ofCeiling, next);
        }
        return "%s, %s (full at %s req/s, the first rate missed: %s; %s; %s; its metrics)".formatted(p.name(), at,
                Verdict.rate(miss.ratePerSecond()), p.boundPerSecond() == null ? "%.0f %s, no hold time published".formatted(p.size(), p.unit())
                        : "%.0f %s held %s ms each, at most %s req/s".formatted(p.size(), p.unit(), Verdict.ms(p.holdMs()),
                                Verdict.rate(p.boundPerSecond())), ofCeiling, next);
    }

    /** e.g. "10 connections held 101 ms each: at most 99 req/s"; the size alone where the pool publishes no hold time. */
    private static String bound(PoolEvidence e) {
        return e.fullPoolBound() == null ? "%.0f %s, no hold time published: no bound drawn".formatted(e.fullPoolSize(), e.fullPoolUnit())
                : "%.0f %s held %s ms each: at most %s req/s".formatted(e.fullPoolSize(), e.fullPoolUnit(), Verdict.ms(e.fullPoolHoldMs()),
                        Verdict.rate(e.fullPoolBound()));
    }

    /** The goodput against the full pool's bound, e.g. ", 1% below it". */
    private static String ofBound(Summary.PointRow p) {
        Double bound = p.evidence().fullPoolBound();
        Double goodput = p.rates().goodput().median();
        if (bound == null || goodput == null) {
            return "";
        }
        double off = 100 * (goodput - bound) / bound;
        return Math.abs(off) < 0.5 ? ", at it" : ", %.0f%% %s it".formatted(Math.abs(off), off < 0 ? "below" : "above");
    }

    /** What it publishes and what it does not, e.g. "; it publishes HikariCP 10; unseen: Tomcat's threads". */
    private static String published(Summary.PointRow p) {
        PoolEvidence e = p.evidence();
        return (e.pools() == null ? "; it publishes no pool" : "; it publishes " + e.pools()) + (e.unseen() == null ? "" : "; unseen: " + e.unseen());
    }
}
