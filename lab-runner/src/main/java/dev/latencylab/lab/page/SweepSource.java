package dev.latencylab.lab.page;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.latencylab.load.result.ResultFile;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.summary.MachineCeiling;
import dev.latencylab.lab.summary.Points;
import dev.latencylab.lab.summary.Summary;
import dev.latencylab.lab.sweep.SweepFile;
import dev.latencylab.lab.targets.Target;

/**
 * One sweep on the page: its folder, its label (its name when the page shows several, else null), runs, points,
 * each target's machine ceiling, its plan (sweep.json; null for a folder without one).
 */
record SweepSource(SweepFolder sweep, String label, List<Summary.RunRow> runs, List<Summary.PointRow> points,
        Map<String, MachineCeiling> ceilings, Map<String, String> notDrawn, SweepFile plan, int index, Long connectTimeoutMs) {

    static SweepSource read(SweepFolder sweep, String label, int index) {
        SweepFile plan = SweepFile.read(sweep);
        List<Summary.RunRow> runs = Summary.rows(sweep, plan == null ? null : plan.machine().bootId());
        Map<String, MachineCeiling> ceilings = MachineCeiling.of(runs);
        List<Summary.PointRow> points = Points.of(runs, ceilings);
        return new SweepSource(sweep, label, runs, points, ceilings, notDrawn(points, ceilings),
                plan, index, connectTimeout(sweep, runs));
    }

    /** Gatling's connect timeout, as the finished runs' result files record it; null unless they agree. */
    private static Long connectTimeout(SweepFolder sweep, List<Summary.RunRow> runs) {
        List<Long> timeouts = runs.stream().filter(Summary.RunRow::done).map(r -> ResultFile.read(sweep.point(r.identity().point()).resultFile()))
                .map(r -> r.requests().timeoutsMs() == null ? null : r.requests().timeoutsMs().connect()).distinct().toList();
        return timeouts.size() == 1 ? timeouts.get(0) : null;
    }

    /**
     * The targets whose machine ceiling is not drawn, and why. A ceiling is a lower bound, measured at the target's
     * busiest point within its pool: a line below goodput that the same stack served on this page with a larger
     * pool would mislead.
     */
    private static Map<String, String> notDrawn(List<Summary.PointRow> points, Map<String, MachineCeiling> ceilings) {
        Map<String, String> why = new LinkedHashMap<>();
        ceilings.values().forEach(c -> {
            double ceiling = c.requestsPerSecond();
            Optional<Target.DependencyId> stack = Target.DependencyId.of(c.target());
            points.stream().filter(p -> p.done() && p.rates().goodput().median() != null && p.rates().goodput().median() > ceiling
                    && stack.isPresent() && Target.DependencyId.of(p.identity().target())
                            .filter(d -> d.base().equals(stack.get().base()) && d.database() == stack.get().database()).isPresent())
                    .max(java.util.Comparator.comparing((Summary.PointRow p) -> p.rates().goodput().median()))
                    .ifPresent(v -> why.put(c.target(), "it is below the %,.0f req/s that %s, the same stack with another pool, served at %,d users"
                            .formatted(v.rates().goodput().median(), v.identity().target(), v.identity().users())));
        });
        return why;
    }

    /**
     * A response time at Gatling's connect timeout (up to 5% past it): a request that never connected failed then,
     * so a percentile there counts failures, not a wait for the server.
     */
    boolean atConnectTimeout(double ms) {
        return connectTimeoutMs != null && ms >= connectTimeoutMs && ms <= connectTimeoutMs * 1.05;
    }

    String series(String target) {
        return label == null ? target : target + " @ " + label;
    }

    /** The runs its plan holds (0 without a plan). */
    int planned() {
        return plan == null ? 0 : plan.plan().points().size();
    }
}
