package dev.latencylab.lab;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import tools.jackson.databind.JsonNode;

import dev.latencylab.load.QueueingModel;

/**
 * The comparison page of a sweep: summary.csv, charts (XChart, written as SVG for the page and PNG for README) and
 * index.html, which needs nothing but the files beside it (no CDN, works offline).
 */
public final class ComparisonPage {

    /** The charts, by file name: title, y axis, value of a row, log scale. */
    private record Chart(String file, String title, String yAxis, Function<Summary.Row, Double> value, boolean log) {
    }

    private static final List<Chart> CHARTS = List.of(
            new Chart("throughput", "Throughput on the plateau (all users active)", "requests / s", Summary.Row::throughput, false),
            new Chart("p50", "Median response time", "ms (log)", r -> d(r.p50Ms()), true),
            new Chart("p95", "95th percentile response time", "ms (log)", r -> d(r.p95Ms()), true),
            new Chart("p99", "99th percentile response time", "ms (log)", r -> d(r.p99Ms()), true),
            new Chart("ko", "Failed requests (KO)", "% of requests", Summary.Row::koPercent, false),
            new Chart("server-threads", "Peak live JVM threads of the server", "threads", Summary.Row::serverPeakThreads, false),
            new Chart("server-cpu", "Server CPU on the plateau", "share of all cores", Summary.Row::serverCpu, false),
            new Chart("injector-cpu", "Injector (Gatling) CPU on the plateau", "share of all cores", Summary.Row::injectorCpu, false));

    private ComparisonPage() {
    }

    /** Rebuilds summary.csv, charts/ and index.html from the point folders. */
    public static void write(SweepFolder sweep) {
        List<Summary.Row> rows = Summary.rows(sweep);
        try {
            Files.createDirectories(sweep.charts());
            Summary.writeCsv(rows, sweep.summaryCsv());
            List<String> charts = new ArrayList<>();
            JsonNode plan = sweep.hasPlan() ? sweep.readPlan() : null;
            for (long latency : rows.stream().map(Summary.Row::latencyMs).collect(Collectors.toCollection(TreeSet::new))) {
                List<Summary.Row> done = rows.stream().filter(r -> r.latencyMs() == latency && "done".equals(r.status())).toList();
                if (done.isEmpty()) {
                    continue;
                }
                for (Chart c : CHARTS) {
                    String name = "%s-l%d".formatted(c.file(), latency);
                    XYChart chart = chart(c, latency, done, plan);
                    VectorGraphicsEncoder.saveVectorGraphic(chart, sweep.charts().resolve(name).toString(),
                            VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
                    BitmapEncoder.saveBitmap(chart, sweep.charts().resolve(name).toString(), BitmapEncoder.BitmapFormat.PNG);
                    charts.add(name);
                }
            }
            Files.writeString(sweep.page(), html(sweep.dir(), rows, charts, plan));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static XYChart chart(Chart c, long latency, List<Summary.Row> rows, JsonNode plan) {
        XYChart chart = new XYChartBuilder().width(900).height(480)
                .title(c.title() + " at " + latency + " ms latency").xAxisTitle("users").yAxisTitle(c.yAxis()).build();
        Styler styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        styler.setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setYAxisLogarithmic(c.log());
        chart.getStyler().setYAxisMin(c.log() ? null : 0.0);
        Map<String, List<Summary.Row>> byTarget = new LinkedHashMap<>();
        rows.forEach(r -> byTarget.computeIfAbsent(r.target(), t -> new ArrayList<>()).add(r));
        byTarget.forEach((target, points) -> {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (Summary.Row r : points) {
                Double v = c.value().apply(r);
                if (v != null && (!c.log() || v > 0)) {
                    x.add((double) r.users());
                    y.add(v);
                }
            }
            if (!x.isEmpty()) {
                chart.addSeries(target, x, y).setMarker(SeriesMarkers.CIRCLE);
            }
        });
        if (plan != null && (c.file().equals("throughput") || c.file().equals("p95"))) {
            addModel(chart, c.file(), latency, rows, plan);
        }
        return chart;
    }

    /** The model as dashed lines: offered load N/(L+Z) and each pool's T/L; or each pool's response time N L / T - Z. */
    private static void addModel(XYChart chart, String kind, long latency, List<Summary.Row> rows, JsonNode plan) {
        int maxUsers = rows.stream().mapToInt(Summary.Row::users).max().orElse(0);
        double think = (plan.path("thinkMinMs").asDouble() + plan.path("thinkMaxMs").asDouble()) / 2;
        List<Double> xs = new ArrayList<>();
        for (int i = 0; i <= 40; i++) {
            xs.add(Math.max(1.0, maxUsers * i / 40.0));
        }
        TreeSet<Integer> pools = rows.stream().map(Summary.Row::poolThreads).filter(t -> t != null)
                .collect(Collectors.toCollection(TreeSet::new));
        if (kind.equals("throughput")) {
            addModelLine(chart, "model: offered N/(L+Z)", xs, n -> model(n, latency, think, OptionalInt.empty(), plan).offeredLoad());
            for (int t : pools) {
                addModelLine(chart, "model: T/L, T=" + t, xs, n -> model(n, latency, think, OptionalInt.of(t), plan).poolBound().getAsDouble());
            }
        }
        else {
            for (int t : pools) {
                addModelLine(chart, "model: T=" + t, xs, n -> model(n, latency, think, OptionalInt.of(t), plan).responseTimeMsAtFullPopulation());
            }
        }
    }

    private static QueueingModel model(double users, long latency, double think, OptionalInt threads, JsonNode plan) {
        return new QueueingModel((int) users, latency, think, threads, plan.path("rampSeconds").asDouble(), plan.path("repeat").asInt());
    }

    /** Greys for the model's lines, darkest first, so that they never take a target's color. */
    private static final Color[] MODEL_COLORS = {Color.BLACK, new Color(0x55, 0x55, 0x55), new Color(0x99, 0x99, 0x99), new Color(0xbb, 0xbb, 0xbb)};

    private static void addModelLine(XYChart chart, String name, List<Double> xs, Function<Double, Double> f) {
        long modelLines = chart.getSeriesMap().keySet().stream().filter(k -> k.startsWith("model")).count();
        XYSeries s = chart.addSeries(name, xs, xs.stream().map(f).toList());
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(MODEL_COLORS[(int) Math.min(modelLines, MODEL_COLORS.length - 1)]);
        s.setLineStyle(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
    }

    private static Double d(Long v) {
        return v == null ? null : v.doubleValue();
    }

    private static String html(Path sweepDir, List<Summary.Row> rows, List<String> charts, JsonNode plan) {
        StringBuilder h = new StringBuilder();
        h.append("""
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8"><title>latency-lab sweep %s</title>
                <style>
                body{font-family:sans-serif;margin:2em;max-width:1400px}
                table{border-collapse:collapse;font-size:13px}
                td,th{border:1px solid #ccc;padding:3px 6px;text-align:right}
                td.l,th.l{text-align:left}
                tr.failed{background:#fde}
                .flags{color:#a40;text-align:left}
                img{max-width:100%%;border:1px solid #eee;margin:4px 0}
                pre{background:#f6f6f6;padding:8px}
                </style></head><body>
                <h1>latency-lab sweep <code>%s</code></h1>
                """.formatted(esc(sweepDir.getFileName().toString()), esc(sweepDir.getFileName().toString())));
        h.append("<p>Throughput, response time, failures, server threads and CPU against users, for every target, next to ")
                .append("the queueing model (dashed lines): offered load N/(L+Z), a pool's bound T/L, and a pool's response time ")
                .append("N&middot;L/T &minus; Z past its knee N = T(L+Z)/L. Throughput is measured on the plateau, while all users ")
                .append("are active. Flags say when a number is not the server's alone (see README, &ldquo;Flags&rdquo;).</p>\n");
        if (plan != null) {
            h.append("<h2>Settings</h2><pre>").append(esc(plan.toPrettyString())).append("</pre>\n");
        }
        h.append("<h2>Charts</h2>\n");
        for (String c : charts) {
            h.append("<img src=\"charts/").append(c).append(".svg\" alt=\"").append(c).append("\">\n");
        }
        h.append("<h2>Points</h2>\n<table><tr><th class=l>target</th><th>users</th><th>latency ms</th><th>req/s</th>")
                .append("<th>model req/s</th><th>p50 ms</th><th>p95 ms</th><th>p99 ms</th><th>max ms</th><th>KO %</th>")
                .append("<th>server threads</th><th>server CPU</th><th>injector CPU</th><th>machine CPU</th>")
                .append("<th class=l>connections</th><th class=l>flags</th><th class=l>report</th></tr>\n");
        for (Summary.Row r : rows) {
            boolean done = "done".equals(r.status());
            h.append(done ? "<tr>" : "<tr class=failed>")
                    .append(td(r.target(), true)).append(td(String.valueOf(r.users()), false)).append(td(String.valueOf(r.latencyMs()), false));
            if (done) {
                h.append(td(f0(r.throughput()), false)).append(td(f0(r.modelThroughput()), false))
                        .append(td(String.valueOf(r.p50Ms()), false)).append(td(String.valueOf(r.p95Ms()), false))
                        .append(td(String.valueOf(r.p99Ms()), false)).append(td(String.valueOf(r.maxMs()), false))
                        .append(td("%.2f".formatted(r.koPercent()), false)).append(td(f0(r.serverPeakThreads()), false))
                        .append(td(pct(r.serverCpu()), false)).append(td(pct(r.injectorCpu()), false)).append(td(pct(r.machineCpu()), false))
                        .append(td(r.connections() + (r.connectionSettings().isEmpty() ? "" : ", " + r.connectionSettings()), true))
                        .append("<td class=flags>").append(esc(r.flags())).append("</td>");
            }
            else {
                h.append("<td colspan=13 class=flags>FAILED: ").append(esc(r.reason())).append("</td>");
            }
            h.append(r.report() == null ? "<td></td>" : "<td class=l><a href=\"" + esc(r.report()) + "\">report</a></td>").append("</tr>\n");
        }
        h.append("</table>\n<p>All numbers: <a href=\"summary.csv\">summary.csv</a>; each point's folder under <code>points/</code> ")
                .append("holds its result.json, Gatling report and logs.</p>\n</body></html>\n");
        return h.toString();
    }

    private static String td(String s, boolean left) {
        return (left ? "<td class=l>" : "<td>") + esc(s) + "</td>";
    }

    private static String f0(Double v) {
        return v == null ? "" : "%,.0f".formatted(v);
    }

    private static String pct(Double v) {
        return v == null ? "" : "%.0f%%".formatted(100 * v);
    }

    static String esc(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
