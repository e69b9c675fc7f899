package dev.latencylab.lab.page;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.lab.summary.Spread;
import dev.latencylab.lab.summary.Summary;

/**
 * Each request of a mix or of a user's flow at each load of a sweep, for one target: its p50 (ms), the median of the
 * point's finished runs (their range when they differ), from each run's result file (byRequest). It shows which
 * request waited as the load grew, where the point's own figures mix them all. None for runs of one request.
 *
 * @param loads each column's load, as the points table gives it
 * @param rows  each request, in the order of its first run, with one cell a load ("" where it has none)
 */
record RequestTimes(String target, List<String> loads, List<Row> rows) {

    record Row(String request, List<String> p50) {
    }

    /** The tables of a sweep: one for each target whose runs sent more than one request. */
    static List<RequestTimes> of(SweepSource source) {
        // a target at each latency: its own table, its loads in the points' order
        Map<List<Object>, List<Summary.PointRow>> byTarget = new LinkedHashMap<>();
        source.points().stream().filter(Summary.PointRow::done).forEach(p -> byTarget.computeIfAbsent(List.of(p.identity().target(),
                p.identity().latencyMs()), t -> new ArrayList<>()).add(p));
        List<RequestTimes> tables = new ArrayList<>();
        byTarget.forEach((key, points) -> {
            String target = (String) key.get(0);
            Map<String, Map<Integer, List<Long>>> times = new LinkedHashMap<>();
            List<String> loads = new ArrayList<>();
            for (int column = 0; column < points.size(); column++) {
                Summary.PointRow p = points.get(column);
                loads.add(p.identity().rate() != null ? "open: %s/s".formatted(dev.latencylab.lab.format.Figures.rate(p.identity().rate()))
                        : "%,d".formatted(p.identity().users()));
                for (Summary.RunRow run : source.runs()) {
                    if (run.done() && run.pointId().equals(p.identity().point())) {
                        List<Result.ByRequest> each = ResultFile.read(source.sweep().point(run.identity().point()).resultFile()).byRequest();
                        int at = column;
                        if (each != null) {
                            each.forEach(q -> times.computeIfAbsent(q.name(), n -> new LinkedHashMap<>()).computeIfAbsent(at, c -> new ArrayList<>())
                                    .add(q.responseTimeMs().p50()));
                        }
                    }
                }
            }
            if (!times.isEmpty()) {
                List<Row> rows = new ArrayList<>();
                times.forEach((name, columns) -> {
                    List<String> cells = new ArrayList<>();
                    for (int c = 0; c < points.size(); c++) {
                        cells.add(cell(columns.getOrDefault(c, List.of())));
                    }
                    rows.add(new Row(name, cells));
                });
                tables.add(new RequestTimes(target, loads, rows));
            }
        });
        return tables;
    }

    /** The median of these p50s, and (lowest-highest) when they differ; "" for none. */
    private static String cell(List<Long> p50s) {
        Spread s = Spread.of(p50s);
        return s.median() != null && s.min().equals(s.max()) ? "%,.0f".formatted(s.median()) : s.format("%,.0f");
    }
}
