package dev.latencylab.lab.summary;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.latencylab.lab.run.Status;

/**
 * A sweep's points from its runs: each point's row the median and range of its runs that finished, its flags those
 * of its runs plus what only repeats show (unstable runs, failed ones) and what the target's machine ceiling says.
 */
public final class Points {

    private Points() {
    }

    /** One row per point (latency, target, users), in the order of the runs, with each target's machine ceiling. */
    public static List<Summary.PointRow> of(List<Summary.RunRow> runs, Map<String, MachineCeiling> ceilings) {
        Map<String, List<Summary.RunRow>> byPoint = new LinkedHashMap<>();
        runs.forEach(r -> byPoint.computeIfAbsent(r.pointId(), id -> new ArrayList<>()).add(r));
        return byPoint.values().stream().map(point -> point(point, ceilings.get(point.get(0).identity().target()))).toList();
    }

    /** The runs of one point as its median and range; ceiling: the target's, or null. */
    static Summary.PointRow point(List<Summary.RunRow> runs, MachineCeiling ceiling) {
        Summary.RunRow first = runs.get(0);
        List<Summary.RunRow> done = runs.stream().filter(Summary.RunRow::done).toList();
        List<Summary.RunRow> failed = runs.stream().filter(r -> !r.done()).toList();
        String runIds = runs.stream().map(r -> r.identity().point()).collect(Collectors.joining(" "));
        if (done.isEmpty()) {
            return Summary.PointRow.failed(first, failed.size(), failed.get(0).outcome().reason(), ceiling == null
                    ? null : ceiling.requestsPerSecond(), runIds);
        }
        Summary.RunRow model = done.get(0); // the model's numbers are the same for every run of a point
        Spread goodput = spread(done, r -> r.rates().goodput());
        Spread p95 = spread(done, r -> Summary.ms(r.latency().p95Ms()));
        Double koPercent = spread(done, r -> r.requests().koPercent()).median();
        String topKoReason = mostCommon(done.stream().map(r -> r.requests().topKoReason()).toList());

        Set<String> flags = new LinkedHashSet<>();
        done.forEach(r -> flags.addAll(r.flags().withoutKo()));
        if (koPercent != null && koPercent > 0) {
            flags.add(RowFlags.ko(koPercent, topKoReason));
        }
        if (goodput.widerThan(Summary.GOODPUT_TOLERANCE, 0) || p95.widerThan(Summary.P95_TOLERANCE, Summary.P95_TOLERANCE_MS)) {
            flags.add(Flags.UNSTABLE);
        }
        if (ceiling != null && model.model().modelThroughput() != null && ceiling.near(model.model().modelThroughput())) {
            flags.add(Flags.NEAR_MACHINE_CEILING);
        }
        if (!failed.isEmpty()) {
            flags.add("%d of %d runs failed".formatted(failed.size(), runs.size()));
        }
        Summary.RunRow.Identity id = first.identity();
        return new Summary.PointRow(new Summary.PointRow.Identity(first.pointId(), id.target(), id.users(), id.rate(), id.latencyMs()),
                new Summary.PointRow.Tally(done.size(), failed.size(), Status.DONE, failed.isEmpty() ? null : failed.get(0).outcome().reason()),
                new Summary.Pool(model.pool().poolThreads(), model.pool().connectionSettings(),
                        done.stream().map(r -> r.pool().connections()).distinct().collect(Collectors.joining("/"))),
                new Summary.PointRow.Rates(goodput, spread(done, r -> r.rates().throughput())),
                new Summary.PointRow.Latencies(spread(done, r -> Summary.ms(r.latency().p50Ms())), p95, spread(done, r -> Summary.ms(r.latency().p99Ms())),
                        spread(done, r -> Summary.ms(r.latency().maxMs())).max()),
                new Summary.PointRow.Requests(koPercent, topKoReason),
                new Summary.PointRow.Threads(spread(done, r -> r.threads().serverPeakThreads()).median()),
                new Summary.PointRow.Cpu(spread(done, r -> r.cpu().serverCpu()), spread(done, r -> r.cpu().injectorCpu()), spread(done,
                        r -> r.cpu().machineCpu()),
                        spread(done, r -> r.cpu().serverCpuMsPerRequest()).median(), spread(done, r -> r.cpu().injectorCpuMsPerRequest()).median(),
                        spread(done, r -> r.cpu().machineSteal()).median(), spread(done, r -> r.cpu().loadAverage()).median()),
                model.model(), PoolEvidence.point(done),
                new Summary.PointRow.Notes(ceiling == null ? null : ceiling.requestsPerSecond(), RowFlags.of(flags), runIds,
                        SloCell.ofPoint(done.stream().map(r -> r.notes().slo()).toList())));
    }

    private static Spread spread(List<Summary.RunRow> runs, Function<Summary.RunRow, Double> value) {
        return Spread.of(runs.stream().map(value).toList());
    }

    /** The value most runs have (the first of them on a tie); null when none has one. */
    private static String mostCommon(List<String> values) {
        Map<String, Long> counts = new LinkedHashMap<>();
        values.stream().filter(Objects::nonNull).forEach(v -> counts.merge(v, 1L, Long::sum));
        return counts.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(null);
    }
}
