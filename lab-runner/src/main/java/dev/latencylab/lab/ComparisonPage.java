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
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;
import tools.jackson.databind.JsonNode;

import dev.latencylab.load.QueueingModel;
import dev.latencylab.load.Result;
import dev.latencylab.load.ResultFile;

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
            new Chart("p50", "Median response time", "ms (log scale)", r -> d(r.p50Ms()), true),
            new Chart("p95", "95th percentile response time", "ms (log scale)", r -> d(r.p95Ms()), true),
            new Chart("p99", "99th percentile response time", "ms (log scale)", r -> d(r.p99Ms()), true),
            new Chart("ko", "Failed requests (KO)", "% of requests", Summary.Row::koPercent, false),
            new Chart("server-threads", "Peak live JVM threads of the server", "threads", Summary.Row::serverPeakThreads, false),
            new Chart("server-cpu", "Server CPU on the plateau", "% of all cores", r -> percent(r.serverCpu()), false),
            new Chart("injector-cpu", "Injector (Gatling) CPU on the plateau", "% of all cores", r -> percent(r.injectorCpu()), false));

    /** A target's colour and marker, the same on every page and chart (Okabe-Ito, readable with colour blindness). */
    record Style(Color color, Marker marker) {

        private static final Map<String, Style> KNOWN = Map.of(
                "webflux", new Style(new Color(0, 114, 178), SeriesMarkers.CIRCLE),
                "mvc-t200", new Style(new Color(213, 94, 0), SeriesMarkers.SQUARE),
                "mvc-t400", new Style(new Color(230, 159, 0), SeriesMarkers.DIAMOND),
                "mvc-virtual", new Style(new Color(0, 158, 115), SeriesMarkers.TRIANGLE_UP),
                "mvc-virtual-uncapped", new Style(new Color(86, 180, 233), SeriesMarkers.TRIANGLE_DOWN),
                "webflux-block-parallel", new Style(new Color(204, 121, 167), SeriesMarkers.CROSS),
                "webflux-block-elastic", new Style(new Color(120, 94, 240), SeriesMarkers.CROSS));
        private static final Color[] OTHERS = {new Color(153, 79, 0), new Color(0, 90, 90), new Color(140, 0, 140), new Color(90, 90, 0)};
        private static final Marker[] OTHER_MARKERS = {SeriesMarkers.SQUARE, SeriesMarkers.DIAMOND, SeriesMarkers.TRIANGLE_UP, SeriesMarkers.CIRCLE};

        /** A known id's own style; any other id always gets the same one of a few more, from its name. */
        static Style of(String target) {
            Style known = KNOWN.get(target);
            if (known != null) {
                return known;
            }
            int h = Math.floorMod(target.hashCode(), OTHERS.length * OTHER_MARKERS.length);
            return new Style(OTHERS[h % OTHERS.length], OTHER_MARKERS[h / OTHERS.length]);
        }
    }

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
            Files.writeString(sweep.page(), html(sweep, rows, charts, plan));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static XYChart chart(Chart c, long latency, List<Summary.Row> rows, JsonNode plan) {
        XYChart chart = new XYChartBuilder().width(1300).height(520)
                .title(c.title() + " at " + latency + " ms latency").xAxisTitle("users").yAxisTitle(c.yAxis()).build();
        Styler styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        styler.setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setYAxisLogarithmic(c.log());
        chart.getStyler().setXAxisDecimalPattern("#,##0");
        chart.getStyler().setYAxisDecimalPattern("#,##0");
        Map<String, List<Summary.Row>> byTarget = new LinkedHashMap<>();
        rows.forEach(r -> byTarget.computeIfAbsent(r.target(), t -> new ArrayList<>()).add(r));
        double dataMin = Double.MAX_VALUE;
        double dataMax = 0;
        for (Map.Entry<String, List<Summary.Row>> target : byTarget.entrySet()) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (Summary.Row r : target.getValue()) {
                Double v = c.value().apply(r);
                if (v != null && (!c.log() || v > 0)) {
                    x.add((double) r.users());
                    y.add(v);
                    dataMin = Math.min(dataMin, v);
                    dataMax = Math.max(dataMax, v);
                }
            }
            if (!x.isEmpty()) {
                Style style = Style.of(target.getKey());
                XYSeries series = chart.addSeries(target.getKey(), x, y);
                series.setMarker(style.marker());
                series.setMarkerColor(style.color());
                series.setLineColor(style.color());
            }
        }
        // the axis fits the data; model lines are cut at its top, and one wholly above it is named in the title
        double top;
        if (c.log()) {
            double bottom = dataMax == 0 ? 1 : Math.pow(10, Math.floor(Math.log10(dataMin)));
            top = dataMax == 0 ? 10 : Math.pow(10, Math.ceil(Math.log10(dataMax * 1.01)));
            chart.getStyler().setYAxisMin(bottom);
            chart.getStyler().setYAxisMax(top);
        }
        else {
            top = niceCeiling(dataMax * 1.1);
            chart.getStyler().setYAxisMin(0.0);
            chart.getStyler().setYAxisMax(top);
        }
        if (plan != null && (c.file().equals("throughput") || c.file().equals("p95"))) {
            List<String> offChart = addModel(chart, c.file(), latency, rows, plan, top);
            if (!offChart.isEmpty()) {
                chart.setTitle(chart.getTitle() + " (above the chart: " + String.join(", ", offChart) + ")");
            }
        }
        return chart;
    }

    /** A round number at or above the value (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a power of ten): where the axis ends. */
    static double niceCeiling(double value) {
        if (value <= 0) {
            return 1;
        }
        double decade = Math.pow(10, Math.floor(Math.log10(value)));
        for (double step : new double[] {1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10}) {
            if (step * decade >= value) {
                return step * decade;
            }
        }
        return 10 * decade;
    }

    /**
     * The model as dashed lines: offered load N/(L+Z) and each pool's T/L; or each pool's response time N L / T - Z.
     * Each is drawn up to the chart's top; returns the names of the lines wholly above it.
     */
    private static List<String> addModel(XYChart chart, String kind, long latency, List<Summary.Row> rows, JsonNode plan, double top) {
        int maxUsers = rows.stream().mapToInt(Summary.Row::users).max().orElse(0);
        double think = (plan.path("thinkMinMs").asDouble() + plan.path("thinkMaxMs").asDouble()) / 2;
        // whole users (the model counts users), at most 41 points: few enough segments for the dashes to show
        List<Double> xs = new ArrayList<>(new TreeSet<>(java.util.stream.IntStream.rangeClosed(0, 40)
                .mapToObj(i -> (double) Math.max(1, Math.round(maxUsers * i / 40.0))).toList()));
        TreeSet<Integer> pools = rows.stream().map(Summary.Row::poolThreads).filter(t -> t != null)
                .collect(Collectors.toCollection(TreeSet::new));
        List<String> offChart = new ArrayList<>();
        if (kind.equals("throughput")) {
            addModelLine(chart, "model: offered N/(L+Z)", xs, n -> model(n, latency, think, OptionalInt.empty(), plan).offeredLoad(), top, offChart);
            for (int t : pools) {
                addModelLine(chart, "model: T/L, T=" + t, xs, n -> model(n, latency, think, OptionalInt.of(t), plan).poolBound().getAsDouble(), top, offChart);
            }
        }
        else {
            for (int t : pools) {
                addModelLine(chart, "model: T=" + t, xs, n -> model(n, latency, think, OptionalInt.of(t), plan).responseTimeMsAtFullPopulation(), top, offChart);
            }
        }
        return offChart;
    }

    private static QueueingModel model(double users, long latency, double think, OptionalInt threads, JsonNode plan) {
        return new QueueingModel((int) users, latency, think, threads, plan.path("rampSeconds").asDouble(), plan.path("repeat").asInt());
    }

    /** Greys for the model's lines, darkest first, so that they never take a target's color. */
    private static final Color[] MODEL_COLORS = {Color.BLACK, new Color(0x55, 0x55, 0x55), new Color(0x99, 0x99, 0x99), new Color(0xbb, 0xbb, 0xbb)};

    private static void addModelLine(XYChart chart, String name, List<Double> xs, Function<Double, Double> f, double top,
            List<String> offChart) {
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        for (double n : xs) {
            double v = f.apply(n);
            if (v > top) {
                // every model line rises with N: end it where it crosses the top, nothing after is on the chart
                if (!x.isEmpty()) {
                    double n0 = x.get(x.size() - 1);
                    double v0 = y.get(y.size() - 1);
                    x.add(n0 + (n - n0) * (top - v0) / (v - v0));
                    y.add(top);
                }
                break;
            }
            x.add(n);
            y.add(v);
        }
        if (x.size() < 2) {
            offChart.add(name.replace("model: ", "") + " = " + "%,.0f".formatted(f.apply(xs.get(xs.size() - 1))));
            return;
        }
        long modelLines = chart.getSeriesMap().keySet().stream().filter(k -> k.startsWith("model")).count();
        XYSeries s = chart.addSeries(name, x, y);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(MODEL_COLORS[(int) Math.min(modelLines, MODEL_COLORS.length - 1)]);
        s.setLineStyle(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
    }

    private static Double percent(Double share) {
        return share == null ? null : 100 * share;
    }

    private static Double d(Long v) {
        return v == null ? null : v.doubleValue();
    }

    private static String html(SweepFolder sweep, List<Summary.Row> rows, List<String> charts, JsonNode plan) {
        String name = esc(sweep.dir().getFileName().toString());
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
                img{width:100%%;border:1px solid #eee;margin:4px 0}
                pre{background:#f6f6f6;padding:8px;overflow-x:auto}
                </style></head><body>
                <h1>latency-lab sweep <code>%s</code></h1>
                """.formatted(name, name));
        h.append("""
                <h2>How to read this page</h2>
                <p>Each chart puts the number of users on the x axis and one measure of every target on the y axis, one
                colour and marker per target (the same on every page). The dashed grey lines are the queueing model: the
                offered load N/(L+Z), a thread pool's bound T/L, and past a pool's knee N = T(L+Z)/L its response time
                N&middot;L/T &minus; Z. A point on its model line is explained by it; a point off it is a finding, and the
                table's flags say when a number is not the server's alone (the machine's CPU, connections, open files,
                another process; see README, &ldquo;Flags&rdquo;). Throughput is measured on the plateau, while all
                users are active; response times are over the whole run. CPU is a percentage of all the machine's cores.
                A model line above a chart's top is named in its title.</p>
                """);
        h.append("<h2>Charts</h2>\n");
        for (String c : charts) {
            h.append("<img src=\"charts/").append(c).append(".svg\" alt=\"").append(c).append("\">\n");
        }
        h.append("<h2>Points</h2>\n<table><tr><th class=l>target</th><th>users</th><th>latency ms</th><th>req/s</th>")
                .append("<th>model req/s</th><th>p50 ms</th><th>p95 ms</th><th>p99 ms</th><th>max ms</th><th>KO %</th>")
                .append("<th>server threads</th><th>server CPU</th><th>injector CPU</th><th>machine CPU</th>")
                .append("<th class=l>connections</th><th class=l>flags</th><th class=l>files</th></tr>\n");
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
            h.append("<td class=l>").append(files(sweep, r)).append("</td></tr>\n");
        }
        h.append("</table>\n<p>All numbers: <a href=\"summary.csv\">summary.csv</a>; each point's folder under <code>points/</code> ")
                .append("holds what was kept of its run (result.json, point.json, and in a sweep of your own the Gatling report ")
                .append("and the logs of target and simulation).</p>\n");
        h.append("<h2>Settings</h2>\n");
        if (plan != null) {
            h.append("<p>The sweep, as <code>sweep.json</code> records it (plan, machine, versions):</p><pre>")
                    .append(esc(plan.toPrettyString())).append("</pre>\n");
        }
        List<String> others = fromOtherSweeps(sweep, rows, plan);
        if (!others.isEmpty()) {
            h.append("<p>Points on this page that are not in that plan (added from another sweep), with their own settings ")
                    .append("from their result files:</p>\n<ul>\n");
            others.forEach(o -> h.append("<li>").append(esc(o)).append("</li>\n"));
            h.append("</ul>\n");
        }
        return h.append("</body></html>\n").toString();
    }

    /** Links to what a point's folder kept. */
    private static String files(SweepFolder sweep, Summary.Row r) {
        RunFolder point = sweep.point(r.point());
        List<String> links = new ArrayList<>();
        for (Path f : List.of(point.resultFile(), point.pointRecord(), point.reportPage())) {
            if (Files.isRegularFile(f)) {
                String label = f.equals(point.reportPage()) ? "report" : f.getFileName().toString();
                links.add("<a href=\"" + esc(sweep.dir().relativize(f).toString()) + "\">" + label + "</a>");
            }
        }
        return String.join(" ", links);
    }

    /** The points outside sweep.json's plan, each with the settings its result file records. */
    private static List<String> fromOtherSweeps(SweepFolder sweep, List<Summary.Row> rows, JsonNode plan) {
        List<String> others = new ArrayList<>();
        for (Summary.Row r : rows) {
            boolean planned = plan != null && contains(plan.path("targets"), r.target())
                    && contains(plan.path("users"), String.valueOf(r.users())) && contains(plan.path("latenciesMs"), String.valueOf(r.latencyMs()));
            Path result = sweep.point(r.point()).resultFile();
            if (!planned && Files.isRegularFile(result)) {
                Result.Parameters p = ResultFile.read(result).parameters();
                others.add("%s at %,d users, %d ms: ramp %d s, %d requests per user, think %d-%d ms, connections %s, %s"
                        .formatted(r.target(), r.users(), r.latencyMs(), p.rampSeconds(), p.repeat(), p.thinkMinMs(), p.thinkMaxMs(),
                                p.connections(), r.connectionSettings().isEmpty() ? "default server settings" : r.connectionSettings()));
            }
        }
        return others;
    }

    private static boolean contains(JsonNode array, String value) {
        for (JsonNode n : array) {
            if (n.asString().equals(value)) {
                return true;
            }
        }
        return false;
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
