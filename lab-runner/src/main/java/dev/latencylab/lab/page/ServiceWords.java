package dev.latencylab.lab.page;

import java.util.Optional;

import dev.latencylab.load.result.Result;
import dev.latencylab.lab.capacity.Capacity;
import dev.latencylab.lab.summary.Flags;
import dev.latencylab.lab.summary.PoolEvidence;
import dev.latencylab.lab.summary.ServiceModel;
import dev.latencylab.lab.summary.Stages;
import dev.latencylab.lab.summary.Summary;

/**
 * A service's stages in words (a target of the user's: its path names no latency), from what it said of its own pools
 * and the model calibrated on its lightest load (ServiceModel): the pool that was full and its bound (size over hold
 * time, from its own metrics) beside the goodput measured, with the knee the model puts it at; a pool whose size the
 * user gave, where the goodput stopped at its bound and nothing it publishes was full, said as the model's; a response
 * time that rose with neither, said as exactly that; or nothing full.
 */
final class ServiceWords {

    private ServiceWords() {
    }

    /** README's form: what decided, over which loads, one number. */
    static String brief(Stages.Stage s, String loads, String goodput) {
        Summary.PointRow p = s.bound().holds() ? s.first() : s.last();
        Optional<ServiceModel> model = Optional.ofNullable(s.lightest()).flatMap(ServiceModel::calibratedAt);
        return switch (s.bound()) {
            case SERVICE_POOL -> "%s %s (%s; %s%s; %s)".formatted(p.evidence().fullPool(), loads, bound(p.evidence(), model), goodput,
                    ofBound(p, model), p.evidence().fullPoolBound() != null ? "its metrics" : "the model");
            case GIVEN_POOL -> "%s %s (%s; %s%s; the model: its metrics do not show it)".formatted(p.evidence().givenPool(), loads,
                    givenBound(p.evidence(), model.orElseThrow()), goodput, ofBound(p, model));
            case UNEXPLAINED -> "not explained by any pool this service publishes %s (%s; p50 %s ms against %s ms at its lightest load%s)"
                    .formatted(loads, goodput, Verdict.ms(p.latency().p50Ms().median()), Verdict.ms(s.lightest().latency().p50Ms().median()),
                            published(p) + givenNotMet(p, model));
            default -> "none of its pools full %s (%s%s)".formatted(loads, goodput, published(p));
        };
    }

    /** The page's form: the same, with the stage's point's numbers. */
    static String stage(Stages.Stage s, String loads, String at) {
        Summary.PointRow p = s.bound().holds() ? s.first() : s.last();
        Optional<ServiceModel> model = Optional.ofNullable(s.lightest()).flatMap(ServiceModel::calibratedAt);
        return switch (s.bound()) {
            case SERVICE_POOL -> "held by %s, full on %.0f%% of the plateau's samples, %s (%s; %s%s)".formatted(p.evidence().fullPool(),
                    100 * p.evidence().fullPoolShare(), loads, at, bound(p.evidence(), model), ofBound(p, model));
            case GIVEN_POOL -> ("held at the bound of %s, whose size you gave: its metrics do not show it, nothing they show was full, "
                    + "and its response time rose, %s (%s; %s%s)").formatted(p.evidence().givenPool(), loads, at,
                            givenBound(p.evidence(), model.orElseThrow()), ofBound(p, model));
            case UNEXPLAINED -> ("its response time rose %s with no pool it publishes full and this machine's CPU not busy: not explained "
                    + "by any pool this service publishes (%s; p50 %s ms at its lightest load%s)").formatted(loads, at,
                            Verdict.ms(s.lightest().latency().p50Ms().median()), published(p) + givenNotMet(p, model));
            default -> "none of its pools full %s (%s%s)".formatted(loads, at, published(p));
        };
    }

    /**
     * What bounded a capacity search of a service (no model, not this machine's CPU), from what its metrics said at the
     * first rate that missed the SLO: the pool full there with its bound; none full but a pool whose size the user gave
     * with its bound, size / L (L the p50 of the lowest rate within the SLO), between the capacity and that rate, said
     * as the model's; none full ("not explained by any pool this service publishes"); or nothing published there to
     * tell by.
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
        Result.GivenPool given = miss.smallestGiven();
        Double l = Capacity.calibrationMs(search);
        if (p == null && given != null && l != null) {
            // a given pool's bound, size / L, between the capacity and the first rate missed (the model's tolerance either side)
            double bound = given.size() * 1000 / l;
            String of = "%s (%s".formatted(given.name(), given(given.size(), given.unit(), l, " at its lowest rate", bound));
            Double capacity = search.answer().capacityPerSecond();
            if ((capacity == null || bound >= capacity * (1 - Summary.MODEL_TOLERANCE)) && bound <= miss.ratePerSecond() * (1 + Summary.MODEL_TOLERANCE)) {
                return "%s; none it publishes full at %s req/s, the first rate missed), %s (%s; %s; the model: its metrics do not show it)"
                        .formatted(of, Verdict.rate(miss.ratePerSecond()), at, ofCeiling, next);
            }
            return ("not explained by any pool this service publishes (%s; none full at %s req/s, the first rate missed; given: %s, not "
                    + "where it missed), %s (%s; %s)").formatted(miss.pools().isEmpty() ? "it publishes none" : miss.pools(),
                            Verdict.rate(miss.ratePerSecond()), of + ")", at, ofCeiling, next);
        }
        if (p == null) {
            return "not explained by any pool this service publishes (%s; none full at %s req/s, the first rate missed), %s (%s; %s)"
                    .formatted(miss.pools().isEmpty() ? "it publishes none" : miss.pools(), Verdict.rate(miss.ratePerSecond()), at, ofCeiling, next);
        }
        return "%s, %s (full at %s req/s, the first rate missed: %s; %s; %s; its metrics)".formatted(p.name(), at,
                Verdict.rate(miss.ratePerSecond()), p.boundPerSecond() == null ? "%.0f %s, no hold time published".formatted(p.size(), p.unit())
                        : "%.0f %s held %s ms each, at most %s req/s".formatted(p.size(), p.unit(), Verdict.ms(p.holdMs()),
                                Verdict.rate(p.boundPerSecond())),
                ofCeiling, next);
    }

    /**
     * e.g. "10 connections held 101 ms each: at most 99 req/s, the knee at 162 users"; a pool that publishes no hold time
     * held L each, the model's; the size alone without a model.
     */
    private static String bound(PoolEvidence e, Optional<ServiceModel> model) {
        if (e.fullPoolBound() != null) {
            return "%.0f %s held %s ms each: at most %s req/s%s".formatted(e.fullPoolSize(), e.fullPoolUnit(), Verdict.ms(e.fullPoolHoldMs()),
                    Verdict.rate(e.fullPoolBound()), knee(model, e.fullPoolBound()));
        }
        return model.map(m -> "%.0f %s, no hold time published, over %s %s ms: at most %s req/s%s".formatted(e.fullPoolSize(), e.fullPoolUnit(),
                m.heldAs(e.fullPool()), Verdict.ms(m.heldMs(e.fullPool())), Verdict.rate(m.fullPoolBound(e)),
                knee(model, m.fullPoolBound(e))))
                .orElse("%.0f %s, no hold time published: no bound drawn".formatted(e.fullPoolSize(), e.fullPoolUnit()));
    }

    /** e.g. "10 threads given, over L 105 ms: at most 95 req/s, the knee at 156 users". */
    private static String givenBound(PoolEvidence e, ServiceModel m) {
        double bound = m.givenPoolBound(e);
        return given(e.givenPoolSize(), e.givenPoolUnit(), m.latencyMs(), "", bound) + knee(Optional.of(m), bound);
    }

    /** A given pool's bound, e.g. "5 threads given, over L 108 ms at its lowest rate: at most 46 req/s" (where: where L was taken). */
    private static String given(double size, String unit, double latencyMs, String where, double bound) {
        return "%.0f%s given, over L %s ms%s: at most %s req/s".formatted(size, unit == null ? "" : " " + unit, Verdict.ms(latencyMs), where,
                Verdict.rate(bound));
    }

    /** e.g. ", whose bound over L, 950 req/s, is not what it served": a given pool that did not decide. */
    private static String givenNotMet(Summary.PointRow p, Optional<ServiceModel> model) {
        return model.map(m -> m.givenPoolBound(p.evidence())).map(b -> ", whose bound over L, %s req/s, is not what it served"
                .formatted(Verdict.rate(b))).orElse("");
    }

    /**
     * e.g. ", the knee at 162 users by L + Z = 1.64 s at 20 users": where the model puts a bound of so many req/s; where
     * the runs of the load it was calibrated on disagree (flagged unstable), it says so: the knee is as uncertain.
     */
    private static String knee(Optional<ServiceModel> model, double bound) {
        return model.map(m -> ", the knee at %s users by L + Z = %.2f s at %d users%s".formatted(Verdict.rate(m.kneeUsers(bound)), m.cycleMs() / 1000,
                m.at().identity().users(), m.at().flags().has(Flags.UNSTABLE) ? ", whose runs disagree" : "")).orElse("");
    }

    /** The goodput against the bound that decided (the full pool's, else the given one's), e.g. ", 1% below it". */
    private static String ofBound(Summary.PointRow p, Optional<ServiceModel> model) {
        Double bound = p.evidence().fullPool() != null ? model.map(m -> m.fullPoolBound(p.evidence())).orElse(p.evidence().fullPoolBound())
                : model.map(m -> m.givenPoolBound(p.evidence())).orElse(null);
        Double goodput = p.rates().goodput().median();
        if (bound == null || goodput == null) {
            return "";
        }
        double off = 100 * (goodput - bound) / bound;
        return Math.abs(off) < 0.5 ? ", at it" : ", %.0f%% %s it".formatted(Math.abs(off), off < 0 ? "below" : "above");
    }

    /**
     * What it publishes, what it does not, and what was given, e.g. "; it publishes HikariCP 10; unseen: Tomcat's
     * threads; given: Tomcat's threads 10".
     */
    private static String published(Summary.PointRow p) {
        PoolEvidence e = p.evidence();
        String none = PoolEvidence.NO_METRICS.equals(e.unseen()) ? "" : "; it publishes no pool";
        return (e.pools() == null ? none : "; it publishes " + e.pools()) + (e.unseen() == null ? "" : "; unseen: " + e.unseen())
                + (e.givenPools() == null ? "" : "; given: " + e.givenPools());
    }
}
