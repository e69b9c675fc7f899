package dev.latencylab.lab.summary;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What bounded each target at each load of a sweep, from its points alone: consecutive loads with the same cause (the
 * offered load, its pool's T/L, something below the model, this machine's CPU, a service's own pool) form a stage;
 * and the load the targets are set side by side at. A load is a number of users (closed points) or an arrival rate
 * (open points), never mixed. The verdict (page.Verdict) words it.
 */
public final class Stages {

    private Stages() {
    }

    /**
     * What decided a point's goodput, in the order the model and the flags tell it. For a point without a model (a
     * service of the user's: its path names no latency), from what the service said of its own pools: SERVICE_POOL, one
     * was full on the plateau; GIVEN_POOL, none full but its response time rose and its goodput is at the bound of a pool
     * whose size the user gave (size / L, the model calibrated on its lightest load: #atGivenBound);
     * UNEXPLAINED, its response time rose past its lightest load's with none full, no given pool's bound met, and this
     * machine's CPU not busy (#queued); UNMODELLED, none full and nothing queued. A point with a model held below its
     * offered load by a pool its metrics show full, at that pool's bound, is SERVICE_POOL too.
     */
    public enum Cause {
        OFFERED_LOAD, POOL, BELOW_MODEL, MACHINE, UNMODELLED, SERVICE_POOL, GIVEN_POOL, UNEXPLAINED;

        /** This machine's CPU only when it was busy and the point fell short of the model; a point that met the model is the model's. */
        public static Cause of(Summary.PointRow p) {
            return of(p, null);
        }

        /** The same, with the target's lightest load to tell a queue by (null: none told). */
        public static Cause of(Summary.PointRow p, Summary.PointRow lightest) {
            RowFlags flags = p.flags();
            if (flags.has(Flags.MACHINE_CPU_BOUND) && !metModel(p)) {
                return MACHINE;
            }
            if (p.model().modelThroughput() == null) {
                return p.evidence().fullPool() != null ? SERVICE_POOL : !queued(p, lightest) ? UNMODELLED
                        : atGivenBound(p, lightest) ? GIVEN_POOL : UNEXPLAINED;
            }
            if (flags.has(Flags.DISAGREES_WITH_MODEL)) {
                return BELOW_MODEL;
            }
            if (!Boolean.TRUE.equals(p.model().modelSaturated()) && p.evidence().heldBelow(p.model().modelThroughput(), p.rates().goodput().median())) {
                return SERVICE_POOL;
            }
            return Boolean.TRUE.equals(p.model().modelSaturated()) && p.model().modelPoolBound() != null ? POOL : OFFERED_LOAD;
        }

        /** A pool's bound: from its first load on it holds goodput, so that load's numbers are the stage's. */
        public boolean holds() {
            return this == POOL || this == SERVICE_POOL || this == GIVEN_POOL;
        }
    }

    /** Goodput within the model's tolerance below its throughput (the flags' rule for disagreeing with it). */
    public static boolean metModel(Summary.PointRow p) {
        return p.model().modelThroughput() != null && p.rates().goodput().median() != null
                && p.rates().goodput().median() >= p.model().modelThroughput() * (1 - Summary.MODEL_TOLERANCE);
    }

    /** Consecutive loads of one target with the same bound, in order (at least one); lightest: the target's lightest load. */
    public record Stage(Cause bound, List<Summary.PointRow> points, Summary.PointRow lightest) {

        public Stage {
            points = List.copyOf(points);
        }

        public Summary.PointRow first() {
            return points.getFirst();
        }

        public Summary.PointRow last() {
            return points.getLast();
        }

        Stage and(Summary.PointRow next) {
            List<Summary.PointRow> more = new ArrayList<>(points);
            more.add(next);
            return new Stage(bound, more, lightest);
        }
    }

    /** One target's stages at one latency and model (closed or open), in the order of its loads. */
    public record TargetStages(String target, long latencyMs, boolean open, List<Stage> stages) {
    }

    /**
     * The load the targets are set side by side at: the highest that at least two targets ran, none of them bounded by
     * this machine's CPU there (else the highest that two ran), and their points there, most goodput first.
     */
    public record SideBySide(Summary.PointRow at, boolean machineBound, List<Summary.PointRow> points) {
    }

    /** The finished points, by latency, model and target, each target's in the order of its loads. */
    public static List<TargetStages> of(List<Summary.PointRow> points) {
        Map<String, List<Summary.PointRow>> byTarget = new LinkedHashMap<>();
        measured(points).forEach(p -> byTarget.computeIfAbsent(group(p) + " " + p.identity().target(), k -> new ArrayList<>()).add(p));
        List<TargetStages> targets = new ArrayList<>();
        byTarget.values().forEach(rows -> {
            List<Stage> stages = new ArrayList<>();
            for (Summary.PointRow p : rows) {
                Cause b = Cause.of(p, rows.get(0));
                Stage last = stages.isEmpty() ? null : stages.getLast();
                // a load whose users were never all active stands alone: its figure must be said, with why it is no plateau's
                if (last != null && last.bound() == b && !neverAllActive(p) && !neverAllActive(last.last())) {
                    stages.set(stages.size() - 1, last.and(p));
                }
                else {
                    stages.add(new Stage(b, List.of(p), rows.get(0)));
                }
            }
            Summary.PointRow first = rows.get(0);
            targets.add(new TargetStages(first.identity().target(), first.identity().latencyMs(), first.identity().rate() != null, stages));
        });
        return targets;
    }

    private static boolean neverAllActive(Summary.PointRow p) {
        return p.flags().has(Flags.NOT_ALL_ACTIVE) || p.flags().has(Flags.LEVEL_NOT_HELD);
    }

    /** The side-by-side load of each latency and model (see {@link SideBySide}); none where no load was run by two targets. */
    public static List<SideBySide> sideBySide(List<Summary.PointRow> points) {
        Map<String, Map<Double, List<Summary.PointRow>>> groups = new LinkedHashMap<>();
        measured(points).forEach(p -> groups.computeIfAbsent(group(p), g -> new LinkedHashMap<>())
                .computeIfAbsent(load(p), l -> new ArrayList<>()).add(p));
        List<SideBySide> out = new ArrayList<>();
        groups.values().forEach(byLoad -> {
            List<Double> shared = byLoad.keySet().stream().filter(l -> byLoad.get(l).size() >= 2).sorted(Comparator.reverseOrder()).toList();
            if (shared.isEmpty()) {
                return;
            }
            Double within = shared.stream().filter(l -> byLoad.get(l).stream().noneMatch(p -> Cause.of(p) == Cause.MACHINE))
                    .findFirst().orElse(null);
            List<Summary.PointRow> at = byLoad.get(within != null ? within : shared.get(0)).stream()
                    .sorted(Comparator.comparing((Summary.PointRow p) -> p.rates().goodput().median()).reversed()).toList();
            out.add(new SideBySide(at.get(0), within == null, at));
        });
        return out;
    }

    /** Finished points with a goodput, by latency, closed before open, then load. */
    private static List<Summary.PointRow> measured(List<Summary.PointRow> points) {
        return points.stream().filter(p -> p.done() && p.rates().goodput().median() != null)
                .sorted(Comparator.comparingLong((Summary.PointRow r) -> r.identity().latencyMs()).thenComparing(p -> p.identity().rate() != null)
                        .thenComparingDouble(Stages::load))
                .toList();
    }

    private static String group(Summary.PointRow p) {
        return p.identity().latencyMs() + (p.identity().rate() == null ? " closed" : " open");
    }

    private static double load(Summary.PointRow p) {
        return p.identity().rate() == null ? p.identity().users() : p.identity().rate();
    }

    /**
     * Whether a point's requests queued somewhere: its p50 rose past the lightest load's (the service's own time, the
     * calibration) by more than runs of one point may disagree (Summary's p95 tolerances).
     */
    public static boolean queued(Summary.PointRow p, Summary.PointRow lightest) {
        if (lightest == null || lightest == p) {
            return false;
        }
        Double at = p.latency().p50Ms().median();
        Double light = lightest.latency().p50Ms().median();
        return at != null && light != null && at > light * (1 + Summary.P95_TOLERANCE) && at - light > Summary.P95_TOLERANCE_MS;
    }

    /**
     * Whether a point's goodput is at the bound of the smallest pool whose size the user gave, size / L (the model
     * calibrated on the lightest load), within the model's tolerance either side.
     */
    public static boolean atGivenBound(Summary.PointRow p, Summary.PointRow lightest) {
        Double bound = lightest == null ? null : ServiceModel.calibratedAt(lightest).map(m -> m.givenPoolBound(p.evidence())).orElse(null);
        Double goodput = p.rates().goodput().median();
        return bound != null && goodput != null && Math.abs(goodput - bound) <= bound * Summary.MODEL_TOLERANCE;
    }
}
