package dev.latencylab.lab.summary;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import dev.latencylab.lab.run.Status;

/**
 * The Markdown table README shows of a published sweep, made from its points' rows (./lab report DIR --markdown), so
 * that README's figures are the committed runs' and a test can check that they still are. A cell: goodput and p95,
 * the median of the point's runs with their range, KO and flags.
 */
public final class ResultsTable {

    private ResultsTable() {
    }

    /** A load of the table: a latency and a user count. */
    private record Row(long latencyMs, int users) {
    }

    /**
     * One row per latency and user count, one column per target, and the model's offered load: the closed points (an
     * open point's row is on the page, beside its rate).
     */
    public static String markdown(List<Summary.PointRow> all) {
        List<Summary.PointRow> closed = all.stream().filter(p -> p.identity().rate() == null).toList();
        Set<String> targets = new LinkedHashSet<>();
        closed.forEach(p -> targets.add(p.identity().target()));
        Set<Row> rows = new TreeSet<>(Comparator.comparingLong(Row::latencyMs).thenComparingInt(Row::users));
        closed.forEach(p -> rows.add(new Row(p.identity().latencyMs(), p.identity().users())));
        boolean oneLatency = rows.stream().map(Row::latencyMs).distinct().count() == 1;

        StringBuilder md = new StringBuilder("| " + (oneLatency ? "" : "latency | ") + "users | ");
        targets.forEach(t -> md.append(t).append(" | "));
        md.append("model N/(L+Z) |\n|").append(oneLatency ? "" : "---|").append("---|");
        targets.forEach(t -> md.append("---|"));
        md.append("---|\n");
        for (Row row : rows) {
            md.append("| ").append(oneLatency ? "" : row.latencyMs() + " ms | ").append("%,d".formatted(row.users())).append(" | ");
            String offered = "";
            for (String t : targets) {
                Summary.PointRow p = closed.stream().filter(x -> x.identity().target().equals(t) && x.identity().latencyMs() == row.latencyMs()
                        && x.identity().users() == row.users()).findFirst().orElse(null);
                md.append(cell(p)).append(" | ");
                if (p != null && p.model().modelOfferedLoad() != null) {
                    offered = "%,.0f req/s".formatted(p.model().modelOfferedLoad());
                }
            }
            md.append(offered).append(" |\n");
        }
        return md.toString();
    }

    private static String cell(Summary.PointRow p) {
        if (p == null) {
            return "";
        }
        if (!p.done()) {
            return Status.FAILED.toString();
        }
        List<String> parts = new ArrayList<>();
        parts.add(p.rates().goodput().format("%,.0f") + " req/s");
        parts.add("p95 " + p.latency().p95Ms().format("%,.0f") + " ms");
        double ko = p.requests().koPercent();
        if (ko > 0) {
            parts.add("%.1f%% KO (%s)".formatted(ko, p.requests().topKoReason().replace("no response: ", "").replace(" (", " ").replace(")", "")));
        }
        // the KO flag is already in the cell, with its reason
        List<String> flags = p.flags().withoutKo();
        return String.join(", ", parts) + (flags.isEmpty() ? "" : " (" + String.join(", ", flags) + ")");
    }
}
