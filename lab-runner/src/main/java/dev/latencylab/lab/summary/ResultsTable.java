package dev.latencylab.lab.summary;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The Markdown table README shows of a published sweep, made from its summary.csv (./lab report DIR --markdown), so
 * that README's figures are the committed file's and a test can check that they still are. A cell: goodput and p95,
 * the median of the point's runs with their range, KO and flags.
 */
public final class ResultsTable {

    private ResultsTable() {
    }

    /**
     * One row per latency and user count, one column per target, and the model's offered load: the closed points (an
     * open point's row is on the page, beside its rate).
     */
    public static String markdown(List<Map<String, String>> all) {
        List<Map<String, String>> csv = all.stream().filter(r -> blank(r.get("rate"))).toList();
        Set<String> targets = new LinkedHashSet<>();
        csv.forEach(r -> targets.add(r.get("target")));
        Set<String> keys = new TreeSet<>((a, b) -> {
            String[] x = a.split(":");
            String[] y = b.split(":");
            int c = Long.compare(Long.parseLong(x[0]), Long.parseLong(y[0]));
            return c != 0 ? c : Integer.compare(Integer.parseInt(x[1]), Integer.parseInt(y[1]));
        });
        csv.forEach(r -> keys.add(r.get("latencyMs") + ":" + r.get("users")));
        boolean oneLatency = csv.stream().map(r -> r.get("latencyMs")).distinct().count() == 1;

        StringBuilder md = new StringBuilder("| " + (oneLatency ? "" : "latency | ") + "users | ");
        targets.forEach(t -> md.append(t).append(" | "));
        md.append("model N/(L+Z) |\n|").append(oneLatency ? "" : "---|").append("---|");
        targets.forEach(t -> md.append("---|"));
        md.append("---|\n");
        for (String key : keys) {
            String[] k = key.split(":");
            md.append("| ").append(oneLatency ? "" : k[0] + " ms | ").append("%,d".formatted(Integer.parseInt(k[1]))).append(" | ");
            String offered = "";
            for (String t : targets) {
                Map<String, String> r = csv.stream().filter(x -> x.get("target").equals(t) && x.get("latencyMs").equals(k[0])
                        && x.get("users").equals(k[1])).findFirst().orElse(null);
                md.append(cell(r)).append(" | ");
                if (r != null && !blank(r.get("modelOfferedLoad"))) {
                    offered = "%,.0f req/s".formatted(Double.parseDouble(r.get("modelOfferedLoad")));
                }
            }
            md.append(offered).append(" |\n");
        }
        return md.toString();
    }

    private static String cell(Map<String, String> r) {
        if (r == null) {
            return "";
        }
        if (!"done".equals(r.get("status"))) {
            return "failed";
        }
        List<String> parts = new ArrayList<>();
        parts.add(spread(r, "goodput", "%,.0f") + " req/s");
        parts.add("p95 " + spread(r, "p95Ms", "%,.0f") + " ms");
        double ko = Double.parseDouble(r.get("koPercent"));
        if (ko > 0) {
            parts.add("%.1f%% KO (%s)".formatted(ko, r.get("topKoReason").replace("no response: ", "").replace(" (", " ").replace(")", "")));
        }
        // the KO flag is already in the cell, with its reason
        List<String> flags = Summary.flagList(r.get("flags")).stream().filter(f -> !f.startsWith("ko ")).toList();
        return String.join(", ", parts) + (flags.isEmpty() ? "" : " (" + String.join(", ", flags) + ")");
    }

    /** The median of a column and, when the point had several runs, their range: "3,111 (3,105–3,116)". */
    private static String spread(Map<String, String> r, String column, String pattern) {
        String median = pattern.formatted(Double.parseDouble(r.get(column)));
        if (Integer.parseInt(r.get("runs")) < 2) {
            return median;
        }
        return median + " (" + pattern.formatted(Double.parseDouble(r.get(column + "Min"))) + "–"
                + pattern.formatted(Double.parseDouble(r.get(column + "Max"))) + ")";
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
