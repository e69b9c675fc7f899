package dev.latencylab.lab.page;

import static dev.latencylab.lab.page.Html.esc;
import static dev.latencylab.lab.page.Html.f0;
import static dev.latencylab.lab.page.Html.td;

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
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

import dev.latencylab.load.Result;
import dev.latencylab.load.ResultFile;
import dev.latencylab.lab.format.Figures;
import dev.latencylab.lab.layout.OutputFile;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.machine.Machine;
import dev.latencylab.lab.summary.MachineCeiling;
import dev.latencylab.lab.summary.Spread;
import dev.latencylab.lab.summary.RecordCsv;
import dev.latencylab.lab.summary.Summary;
import dev.latencylab.lab.sweep.Sweep;
import dev.latencylab.lab.sweep.SweepFile;
import dev.latencylab.lab.targets.Target;

/**
 * The comparison page of a sweep, or of several side by side (./lab report A B --out C): summary.csv and runs.csv,
 * charts (XChart, written as SVG for the page and PNG for README) and index.html, which needs nothing but the files
 * beside it (no CDN, works offline). Every measure is the median of a point's runs with its range drawn as a bar.
 */
public final class ComparisonPage {

    /** The charts, by file name: title, y axis, a point's value (median and range), log scale. */
    private record Chart(String file, String title, String yAxis, Function<Summary.PointRow, Spread> value, boolean log) {
    }

    private static final List<Chart> CHARTS = List.of(
            new Chart("throughput", "Goodput on the plateau (OK responses, all users active)", "OK responses / s",
                    r -> r.rates().goodput(), false),
            new Chart("p50", "Median response time", "ms (log scale)", r -> r.latency().p50Ms(), true),
            new Chart("p95", "95th percentile response time", "ms (log scale)", r -> r.latency().p95Ms(), true),
            new Chart("p99", "99th percentile response time", "ms (log scale)", r -> r.latency().p99Ms(), true),
            new Chart("ko", "Failed requests (KO), median of the runs", "% of requests", r -> one(r.requests().koPercent()), false),
            new Chart("server-threads", "Peak live JVM threads of the server, median of the runs", "threads",
                    r -> one(r.threads().serverPeakThreads()), false),
            new Chart("server-cpu", "Server CPU on the plateau", "% of all cores", r -> r.cpu().serverCpu().times(100), false),
            new Chart("injector-cpu", "Injector (Gatling) CPU on the plateau", "% of all cores", r -> r.cpu().injectorCpu().times(100), false),
            new Chart("machine-cpu", "Machine CPU on the plateau (everything on it)", "% of all cores",
                    r -> r.cpu().machineCpu().times(100), false));

    /** The open points' charts, against the offered rate: goodput, and p99 from each arrival's due time. */
    private static final List<Chart> OPEN_CHARTS = List.of(
            new Chart("throughput", "Open model: goodput while the rate was held", "OK responses / s", r -> r.rates().goodput(), false),
            new Chart("p99", "Open model: 99th percentile from due (whole wait, coordinated omission included)", "ms (log scale)",
                    r -> r.latency().p99Ms(), true));

    /**
     * An open chart: each target's medians and ranges against the offered rate; on goodput the model's lines (every
     * arrival served: goodput = rate; each pool's T/L), on p99 the default SLO (latency + 100 ms).
     */
    private static XYChart openChart(Chart c, long latency, boolean modelled, List<Source> sources, double right) {
        XYChart chart = new XYChartBuilder().width(1300).height(520).title(c.title() + at(latency, modelled))
                .xAxisTitle("offered rate (arrivals per second)").yAxisTitle(c.yAxis()).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setYAxisLogarithmic(c.log());
        chart.getStyler().setXAxisDecimalPattern("#,##0");
        chart.getStyler().setYAxisDecimalPattern("#,##0");
        double maxRate = 0;
        double dataMax = 1;
        double dataMin = Double.MAX_VALUE;
        TreeSet<Integer> pools = new TreeSet<>();
        for (Source source : sources) {
            Map<String, List<Summary.PointRow>> byTarget = byTarget(source, latency, true);
            for (Map.Entry<String, List<Summary.PointRow>> target : byTarget.entrySet()) {
                Style style = Style.of(target.getKey());
                List<Double> x = new ArrayList<>();
                List<Double> y = new ArrayList<>();
                for (Summary.PointRow r : target.getValue()) {
                    Spread v = c.value().apply(r);
                    if (r.pool().poolThreads() != null) {
                        pools.add(r.pool().poolThreads());
                    }
                    if (v.median() == null || (c.log() && v.min() <= 0)) {
                        continue;
                    }
                    x.add(r.identity().rate());
                    y.add(v.median());
                    maxRate = Math.max(maxRate, r.identity().rate());
                    dataMax = Math.max(dataMax, v.max());
                    dataMin = Math.min(dataMin, v.min());
                    rangeBar(chart, source.series(target.getKey()) + " range " + r.identity().rate(), r.identity().rate(), v, style, right * CAP);
                }
                medianLine(chart, source, target.getKey(), x, y, style);
            }
        }
        chart.getStyler().setXAxisMin(0.0);
        chart.getStyler().setXAxisMax(right);
        List<String> offChart = new ArrayList<>();
        if (c.log() && !modelled) {
            // no latency known (a service of the user's): the data's own range, no default SLO
            chart.getStyler().setYAxisMin(dataMin == Double.MAX_VALUE ? 1 : Math.pow(10, Math.floor(Math.log10(dataMin))));
            chart.getStyler().setYAxisMax(Math.pow(10, Math.ceil(Math.log10(dataMax * 1.01))));
        }
        else if (c.log()) {
            double slo = latency + dev.latencylab.load.SimulationSettings.SLO_MARGIN_MS;
            double top = Math.pow(10, Math.ceil(Math.log10(Math.max(dataMax, slo) * 1.01)));
            chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(Math.min(dataMin, latency)))));
            chart.getStyler().setYAxisMax(top);
            ChartLines.addModelLine(chart, "SLO p99 " + (long) slo + " ms (default)", List.of(0.0, right), rate -> slo, top, offChart);
        }
        else {
            double top = ChartLines.niceCeiling(Math.max(dataMax, maxRate) * 1.1);
            chart.getStyler().setYAxisMin(0.0);
            chart.getStyler().setYAxisMax(top);
            ChartLines.addModelLine(chart, "model: every arrival served", List.of(0.0, right), rate -> rate, top, offChart);
            for (int t : modelled ? pools : new TreeSet<Integer>()) {
                double bound = t * 1000.0 / latency;
                ChartLines.addModelLine(chart, "model: T/L, T=" + t, List.of(0.0, right), rate -> bound, top, offChart);
            }
            if (!modelled) {
                ChartLines.addServiceBounds(chart, sources.stream().flatMap(s -> byTarget(s, latency, true).values().stream()).flatMap(List::stream).toList(),
                        r -> r.identity().rate(), right, top, offChart);
            }
        }
        if (!offChart.isEmpty()) {
            chart.setTitle(chart.getTitle() + " (above the chart: " + String.join(", ", offChart) + ")");
        }
        return chart;
    }

    /**
     * The range of a point's runs: a bar from min to max in the target's colour, capped at both ends like an error bar
     * (a bare bar ending in a marker read as an arrow off the chart), not in the legend (none for one run); cap is the
     * half-width of the caps in x's units.
     */
    private static void rangeBar(XYChart chart, String name, double x, Spread v, Style style, double cap) {
        if (v.runs() > 1) {
            XYSeries range = chart.addSeries(name, List.of(x - cap, x + cap, x, x, x - cap, x + cap),
                    List.of(v.min(), v.min(), v.min(), v.max(), v.max(), v.max()));
            range.setMarker(SeriesMarkers.NONE);
            range.setLineColor(style.color());
            range.setLineStyle(new BasicStroke(3f));
            range.setShowInLegend(false);
        }
    }

    /** A target's percentiles at the connect timeout: a cross each in its colour, on the timeout's line, no line between. */
    private static void addTimeouts(XYChart chart, Source source, String target, List<Double> x, Style style) {
        XYSeries s = chart.addSeries(source.series(target) + " at the connect timeout", x,
                x.stream().map(u -> (double) source.connectTimeoutMs()).toList());
        s.setMarker(SeriesMarkers.CROSS);
        s.setMarkerColor(style.color());
        s.setLineStyle(SeriesLines.NONE);
        s.setShowInLegend(false);
    }

    /** A target's medians as one line, dashed by its source. */
    private static void medianLine(XYChart chart, Source source, String target, List<Double> x, List<Double> y, Style style) {
        if (x.isEmpty()) {
            return;
        }
        XYSeries series = chart.addSeries(source.series(target), x, y);
        series.setMarker(style.marker());
        series.setMarkerColor(style.color());
        series.setLineColor(style.color());
        // explicit, or XChart picks each series' line by its index, and range bars shift that
        float[] dash = SOURCE_DASHES[source.index() % SOURCE_DASHES.length];
        series.setLineStyle(dash == null ? new BasicStroke(2f)
                : new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, dash, 0f));
    }

    private static final float[][] SOURCE_DASHES = {null, {10f, 5f}, {2f, 4f}, {10f, 4f, 2f, 4f}};

    /**
     * One sweep on the page: its folder, its label (its name when the page shows several, else null), runs, points,
     * each target's machine ceiling, its plan (sweep.json; null for a folder without one).
     */
    private record Source(SweepFolder sweep, String label, List<Summary.RunRow> runs, List<Summary.PointRow> points,
            Map<String, MachineCeiling> ceilings, Map<String, String> notDrawn, SweepFile plan, int index, Long connectTimeoutMs) {

        static Source read(SweepFolder sweep, String label, int index) {
            SweepFile plan = SweepFile.read(sweep);
            List<Summary.RunRow> runs = Summary.rows(sweep, plan == null ? null : plan.machine().bootId());
            Map<String, MachineCeiling> ceilings = MachineCeiling.of(runs);
            List<Summary.PointRow> points = Summary.points(runs, ceilings);
            return new Source(sweep, label, runs, points, ceilings, notDrawn(points, ceilings),
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
    }

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

        /**
         * A known id's own style; a db or http target its base target's colour (the stack), lighter when it names its
         * pool (-p) and darker when it names PostgreSQL's max_connections (-pg), so that its variants differ on one
         * chart (two darkened stacks, green and blue, were hard to tell apart); any other id always gets the same one
         * of a few more, from its name.
         */
        static Style of(String target) {
            Style known = KNOWN.get(target);
            if (known != null) {
                return known;
            }
            Optional<Target.DependencyId> dependency = Target.DependencyId.of(target);
            if (dependency.isPresent()) {
                Style base = of(dependency.get().base());
                Color c = base.color();
                if (dependency.get().connections() != null) {
                    c = new Color(c.getRed() + (255 - c.getRed()) * 9 / 20, c.getGreen() + (255 - c.getGreen()) * 9 / 20,
                            c.getBlue() + (255 - c.getBlue()) * 9 / 20);
                }
                if (dependency.get().serverMax() != null) {
                    c = new Color(c.getRed() * 3 / 5, c.getGreen() * 3 / 5, c.getBlue() * 3 / 5);
                }
                if (dependency.get().legacyDriver()) {
                    // the same stack on the old JDBC driver: darker, and its own marker, beside the build's driver
                    return new Style(new Color(c.getRed() / 2, c.getGreen() / 2, c.getBlue() / 2),
                            OTHER_MARKERS[(java.util.Arrays.asList(OTHER_MARKERS).indexOf(base.marker()) + 1) % OTHER_MARKERS.length]);
                }
                return new Style(c, base.marker());
            }
            int h = Math.floorMod(target.hashCode(), OTHERS.length * OTHER_MARKERS.length);
            return new Style(OTHERS[h % OTHERS.length], OTHER_MARKERS[h / OTHERS.length]);
        }
    }

    private ComparisonPage() {
    }

    /** Rebuilds summary.csv, runs.csv, charts/ and index.html of a sweep from its run folders. */
    public static void write(SweepFolder sweep) {
        Source source = Source.read(sweep, null, 0);
        RecordCsv.write(source.points(), Summary.PointRow.class, sweep.summaryCsv());
        RecordCsv.write(source.runs(), Summary.RunRow.class, sweep.runsCsv());
        draw(List.of(source), sweep);
    }

    /**
     * One page of several sweeps (e.g. from two machines) in out: each sweep's points under its name, its machine and
     * ceilings beside it. Its numbers stay in each sweep's own summary.csv, which the page links.
     */
    public static void write(List<SweepFolder> sweeps, SweepFolder out) {
        List<Source> sources = new ArrayList<>();
        for (SweepFolder s : sweeps) {
            sources.add(Source.read(s, s.name(), sources.size()));
        }
        draw(sources, out);
    }

    private static void draw(List<Source> sources, SweepFolder out) {
        try {
            Files.createDirectories(out.charts());
            Map<String, XYChart> drawn = chartsOf(sources);
            for (Map.Entry<String, XYChart> chart : drawn.entrySet()) {
                OutputFile.svg(out.charts().resolve(chart.getKey() + ".svg"), chart.getValue());
                OutputFile.png(out.charts().resolve(chart.getKey() + ".png"), chart.getValue());
            }
            OutputFile.text(out.page(), html(out, sources, List.copyOf(drawn.keySet())));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The charts of these sweeps' page, by file name (without extension), in the page's order. */
    public static Map<String, XYChart> charts(List<SweepFolder> sweeps) {
        List<Source> sources = new ArrayList<>();
        for (SweepFolder s : sweeps) {
            sources.add(Source.read(s, sweeps.size() == 1 ? null : s.name(), sources.size()));
        }
        return chartsOf(sources);
    }

    private static Map<String, XYChart> chartsOf(List<Source> sources) {
        Map<String, XYChart> drawn = new LinkedHashMap<>();
        Sweep.Pacing plan = sources.stream().map(Source::plan).filter(p -> p != null).findFirst().map(f -> f.plan().pacing()).orElse(null);
        TreeSet<Long> latencies = sources.stream().flatMap(s -> s.points().stream()).map(r -> r.identity().latencyMs())
                .collect(Collectors.toCollection(TreeSet::new));
        for (long latency : latencies) {
            // the charts of one latency share their x axis: one range, so one set of ticks
            List<Summary.PointRow> closed = sources.stream().flatMap(s -> s.points().stream())
                    .filter(r -> r.identity().latencyMs() == latency && r.done() && r.identity().rate() == null).toList();
            if (!closed.isEmpty()) {
                int maxUsers = closed.stream().mapToInt(r -> r.identity().users()).max().orElseThrow();
                for (Chart c : CHARTS) {
                    drawn.put("%s-l%d".formatted(c.file(), latency), chart(c, latency, modelled(closed), sources, plan, maxUsers));
                }
            }
            List<Summary.PointRow> open = sources.stream().flatMap(s -> s.points().stream())
                    .filter(r -> r.identity().latencyMs() == latency && r.done() && r.identity().rate() != null).toList();
            if (!open.isEmpty()) {
                double right = ChartLines.niceCeiling(open.stream().mapToDouble(r -> r.identity().rate()).max().orElseThrow() * 1.05);
                for (Chart c : OPEN_CHARTS) {
                    drawn.put("open-%s-l%d".formatted(c.file(), latency), openChart(c, latency, modelled(open), sources, right));
                }
            }
        }
        return drawn;
    }

    /**
     * Whether the model knows these points' latency: the lab's targets' paths name it; a service of the user's has none,
     * and its charts then carry no model line and no latency in their titles.
     */
    private static boolean modelled(List<Summary.PointRow> points) {
        return points.stream().anyMatch(r -> r.model().modelThroughput() != null);
    }

    /** A chart title's latency: " at 100 ms latency", none where the model knows no latency. */
    private static String at(long latency, boolean modelled) {
        return modelled ? " at " + latency + " ms latency" : "";
    }

    /** The half-width of a range bar's caps, as a share of the x axis. */
    private static final double CAP = 0.004;

    /**
     * A closed chart: each target's medians and ranges against users, x from 0 to a little past maxUsers (the same on
     * every chart of the latency); on the percentiles, a value at the connect timeout drawn as what it is (see
     * {@link #addTimeouts}); on goodput the model's lines and each target's machine ceiling.
     */
    private static XYChart chart(Chart c, long latency, boolean modelled, List<Source> sources, Sweep.Pacing plan, int maxUsers) {
        XYChart chart = new XYChartBuilder().width(1300).height(520)
                .title(c.title() + at(latency, modelled)).xAxisTitle("users").yAxisTitle(c.yAxis()).build();
        Styler styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        styler.setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setYAxisLogarithmic(c.log());
        chart.getStyler().setXAxisDecimalPattern("#,##0");
        chart.getStyler().setYAxisDecimalPattern("#,##0");
        double right = maxUsers * 1.04;
        chart.getStyler().setXAxisMin(0.0);
        chart.getStyler().setXAxisMax(right);
        boolean percentile = c.log();
        double dataMin = Double.MAX_VALUE;
        double dataMax = 0;
        List<Summary.PointRow> all = new ArrayList<>();
        // each sweep's own connect timeout: sweeps side by side may have run with different ones
        java.util.SortedSet<Long> timeouts = new java.util.TreeSet<>();
        for (Source source : sources) {
            Map<String, List<Summary.PointRow>> byTarget = byTarget(source, latency, false);
            for (Map.Entry<String, List<Summary.PointRow>> target : byTarget.entrySet()) {
                Style style = Style.of(target.getKey());
                List<Double> x = new ArrayList<>();
                List<Double> y = new ArrayList<>();
                List<Double> timeoutX = new ArrayList<>();
                for (Summary.PointRow r : target.getValue()) {
                    all.add(r);
                    Spread v = c.value().apply(r);
                    if (v.median() == null || (c.log() && v.min() <= 0)) {
                        continue;
                    }
                    dataMin = Math.min(dataMin, v.min());
                    dataMax = Math.max(dataMax, v.max());
                    rangeBar(chart, source.series(target.getKey()) + " range " + r.identity().users(), r.identity().users(), v, style, right * CAP);
                    if (percentile && source.atConnectTimeout(v.median())) {
                        timeoutX.add((double) r.identity().users());
                        continue;
                    }
                    x.add((double) r.identity().users());
                    y.add(v.median());
                }
                medianLine(chart, source, target.getKey(), x, y, style);
                if (!timeoutX.isEmpty()) {
                    addTimeouts(chart, source, target.getKey(), timeoutX, style);
                    timeouts.add(source.connectTimeoutMs());
                }
            }
        }
        if (c.file().equals("throughput")) {
            // the headroom to each target's machine ceiling is what a reader looks for: the axis reaches the highest
            for (Source source : sources) {
                for (Map.Entry<String, MachineCeiling> ceiling : source.ceilings().entrySet()) {
                    if (all.stream().anyMatch(r -> r.identity().target().equals(ceiling.getKey()))
                            && !source.notDrawn().containsKey(ceiling.getKey())) {
                        dataMax = Math.max(dataMax, ceiling.getValue().requestsPerSecond());
                    }
                }
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
            top = ChartLines.niceCeiling(dataMax * 1.1);
            chart.getStyler().setYAxisMin(0.0);
            chart.getStyler().setYAxisMax(top);
        }
        List<String> offChart = new ArrayList<>();
        for (long timeout : timeouts) {
            XYSeries line = chart.addSeries("connect timeout %s s (×: never connected)"
                    .formatted(java.math.BigDecimal.valueOf(timeout, 3).stripTrailingZeros().toPlainString()), List.of(0.0, right),
                    List.of((double) timeout, (double) timeout));
            line.setMarker(SeriesMarkers.NONE);
            line.setLineColor(Color.GRAY);
            line.setLineStyle(new BasicStroke(1f));
        }
        if (plan != null && modelled && (c.file().equals("throughput") || c.file().equals("p95"))) {
            offChart.addAll(ChartLines.addModel(chart, c.file(), latency, all, maxUsers, plan, top));
        }
        if (!modelled && c.file().equals("throughput")) {
            ChartLines.addServiceBounds(chart, all, r -> (double) r.identity().users(), right, top, offChart);
        }
        if (c.file().equals("throughput")) {
            int lineEnd = maxUsers;
            for (Source source : sources) {
                source.ceilings().forEach((target, ceiling) -> {
                    if (all.stream().anyMatch(r -> r.identity().target().equals(target)) && !source.notDrawn().containsKey(target)) {
                        ChartLines.addCeiling(chart, source.series(target) + " machine ceiling", Style.of(target).color(), lineEnd,
                                ceiling.requestsPerSecond(), top, offChart);
                    }
                });
            }
        }
        if (!offChart.isEmpty()) {
            chart.setTitle(chart.getTitle() + " (above the chart: " + String.join(", ", offChart) + ")");
        }
        return chart;
    }

    /** A single value as a spread of one run (measures the point keeps only the median of). */
    private static Spread one(Double v) {
        return Spread.of(java.util.Collections.singletonList(v));
    }

    /** The runs a sweep's plan holds (0 without a plan). */
    private static int planned(Source s) {
        return s.plan() == null ? 0 : s.plan().plan().points().size();
    }

    /**
     * What each run's target JVM recorded (GC pauses, safepoints, pinned virtual threads), for the runs that have it; a
     * sweep from before JVM events has none, and says so.
     */
    private static void jvmEvents(StringBuilder h, List<Source> sources) {
        h.append("<h2>The targets' JVMs</h2>\n");
        for (Source source : sources) {
            List<Summary.RunJvm> runs = Summary.jvmEvents(source.sweep());
            String which = source.label() == null ? "This sweep's" : "Sweep <code>" + esc(source.label()) + "</code>'s";
            if (runs.isEmpty()) {
                h.append("<p>").append(which).append(" runs hold no JVM events: recorded before they were, or with --no-jvm-events.</p>\n");
                continue;
            }
            h.append("<p>").append(which).append(" runs, from each target's flight recording, within the run:</p>\n<div class=scroll><table>\n")
                    .append("<tr><th class=l>run<th>GC pauses<th>GC ms<th>longest ms<th>safepoints ms<th>pinned<th class=l>pinned most at</tr>\n");
            for (Summary.RunJvm e : runs) {
                Result.Jvm j = e.jvm();
                h.append("<tr>").append(td(e.run(), true)).append(td("%,d".formatted(j.gc().count()), false))
                        .append(td("%,.1f".formatted(j.gc().totalMs()), false)).append(td("%,.1f".formatted(j.gc().longestMs()), false))
                        .append(td("%,.1f".formatted(j.safepoints().totalMs()), false)).append(td("%,d".formatted(j.pinned().count()), false))
                        .append(td(j.pinned().topStack().isEmpty() ? "" : j.pinned().topStack().get(0), true)).append("</tr>\n");
            }
            h.append("</table></div>\n");
        }
    }

    private static String html(SweepFolder out, List<Source> sources, List<String> charts) {
        String title = sources.size() == 1 ? out.name() : sources.stream().map(Source::label).collect(Collectors.joining(" and "));
        StringBuilder h = new StringBuilder();
        h.append(Html.head("latency-lab sweep " + title)).append("<h1>latency-lab sweep <code>").append(esc(title)).append("</code></h1>\n");
        for (Source s : sources) {
            int planned = planned(s);
            if (s.runs().size() < planned) {
                // stopped (a signal) or still under way: the page must not read as the sweep's whole answer
                h.append("<p><strong>Incomplete%s:</strong> %d of the %d runs its plan holds have a record (the sweep was stopped, "
                        .formatted(s.label() == null ? "" : " (" + esc(s.label()) + ")", s.runs().size(), planned)
                        + "or is under way); what follows is those runs only. The same command with <code>--name %s</code> finishes it.</p>\n"
                        .formatted(esc(s.sweep().name())));
            }
        }
        // the answer first: what bounded each target, in words made from the points below
        h.append("<h2>Verdict</h2>\n");
        for (Source s : sources) {
            if (sources.size() > 1) {
                h.append("<h3>").append(esc(s.label())).append("</h3>\n");
            }
            h.append(Verdict.html(s.points()));
        }
        h.append("""
                <h2>How to read this page</h2>
                <p>Each chart puts the number of users on the x axis and one measure of every target on the y axis, one
                colour and marker per target (the same on every page); every chart of one latency has the same x axis. A
                marker is the median of the point's runs and the capped bar through it their range, lowest to highest
                (the table gives the number of runs). On the response-time charts, a cross on the grey line of Gatling's
                connect timeout is a percentile made of requests that never connected and failed there: a count of
                failures, not a wait for the server. The dashed grey
                lines are the queueing model: the offered load N/(L+Z), a thread pool's bound T/L, and past a pool's
                knee N = T(L+Z)/L its response time N&middot;L/T &minus; Z; these hold on any machine. The dotted line
                in a target's colour is this machine's ceiling for it: the goodput at which injector and server
                together would use every core, from the CPU an OK response cost them (see &ldquo;Machine&rdquo;); it
                holds on this machine only, and is a lower bound (the CPU per response falls as the load grows); one
                below what the same stack served with a larger pool is not drawn (&ldquo;Machine&rdquo; says which). A point on a model line is explained by it; a point off it is a finding, and the
                table's flags say when a number is not the server's alone (the machine's CPU, its ceiling, runs that
                disagree, connections, open files, another process; see docs/sweeps.md, &ldquo;Flags&rdquo;). Goodput counts
                OK responses per second on the plateau, while all users are active; the table also gives all
                completions, failed ones included. Response times are over the whole run. CPU is a percentage of all
                the machine's cores. A line above a chart's top is named in its title.</p>
                <p>Open-model points (<code>--rates</code>) have charts of their own, against the offered rate: their
                requests arrive at that rate whatever the server does, and each is timed from when it was due, so a
                queue anywhere (server or injector) shows in full. Their goodput, completions and percentiles are those
                of the arrivals due while the rate was held.</p>
                """);
        if (sources.stream().anyMatch(s -> !modelled(s.points()))) {
            h.append("<p>A service of yours has no model (its path names no latency): its dashed line is the bound of a pool ")
                    .append("its own metrics showed full, its size over the time one was held, from the first load it was full at ")
                    .append("(docs/your-service.md).</p>\n");
        }
        if (sources.size() > 1) {
            h.append("<p>This page shows several sweeps: a series is named <code>target @ sweep</code>, the first sweep's ")
                    .append("lines solid, the others' dashed or dotted. Each sweep's machine is described below.</p>\n");
        }
        h.append("<h2>Charts</h2>\n");
        for (String c : charts) {
            h.append("<img src=\"charts/").append(c).append(".svg\" alt=\"").append(c).append("\">\n");
        }
        h.append("<h2>Points</h2>\n<p>Each cell: median of the runs, and (lowest&ndash;highest) when there were several.</p>\n")
                .append("<div class=scroll><table><tr><th class=l>target</th><th>users</th><th>latency ms</th><th>runs</th><th>goodput req/s</th>")
                .append("<th>completions req/s</th><th>model req/s</th><th>machine ceiling req/s</th><th>p50 ms</th><th>p95 ms</th>")
                .append("<th>p99 ms</th><th>max ms</th><th>KO %</th><th>server threads</th><th>server CPU</th><th>injector CPU</th>")
                .append("<th>machine CPU</th><th>CPU ms per OK response (server + injector)</th><th>steal</th>")
                .append("<th class=l>connections</th><th class=l>flags</th><th class=l>files</th></tr>\n");
        for (Source source : sources) {
            for (Summary.PointRow r : source.points()) {
                h.append(r.done() ? "<tr>" : "<tr class=failed>").append(td(source.series(r.identity().target()), true))
                        .append(td(r.identity().rate() != null
                                ? "open: " + Figures.rate(r.identity().rate()) + "/s" : "%,d".formatted(r.identity().users()), false))
                        .append(td(String.valueOf(r.identity().latencyMs()), false))
                        .append(td(r.outcome().runs() + (r.outcome().failedRuns() > 0 ? " (+" + r.outcome().failedRuns() + " failed)" : ""), false));
                if (r.done()) {
                    h.append(spread(r.rates().goodput(), "%,.0f")).append(spread(r.rates().throughput(), "%,.0f"))
                            .append(td(f0(r.model().modelThroughput()), false)).append(td(f0(r.notes().machineCeiling()), false))
                            .append(spread(r.latency().p50Ms(), "%,.0f")).append(spread(r.latency().p95Ms(),
                                    "%,.0f")).append(spread(r.latency().p99Ms(), "%,.0f"))
                            .append(td(f0(r.latency().maxMs()), false)).append(td("%.2f".formatted(r.requests().koPercent()), false))
                            .append(td(f0(r.threads().serverPeakThreads()), false)).append(spread(r.cpu().serverCpu().times(100), "%.0f%%"))
                            .append(spread(r.cpu().injectorCpu().times(100), "%.0f%%")).append(spread(r.cpu().machineCpu().times(100), "%.0f%%"))
                            .append(td(r.cpu().serverCpuMsPerRequest() == null || r.cpu().injectorCpuMsPerRequest() == null ? ""
                                    : "%.3f + %.3f".formatted(r.cpu().serverCpuMsPerRequest(), r.cpu().injectorCpuMsPerRequest()), false))
                            .append(td(r.cpu().machineSteal() == null ? "" : "%.1f%%".formatted(100 * r.cpu().machineSteal()), false))
                            .append(td(r.pool().connections() + (r.pool().connectionSettings().isEmpty()
                                    ? "" : ", " + r.pool().connectionSettings()), true))
                            .append("<td class=flags>").append(esc(r.notes().flags())).append("</td>");
                }
                else {
                    h.append("<td colspan=17 class=flags>FAILED: ").append(esc(r.outcome().reason())).append("</td>");
                }
                h.append("<td class=l>").append(files(out, source, r)).append("</td></tr>\n");
            }
        }
        h.append("</table></div>\n<p>All numbers: ");
        for (Source source : sources) {
            Path dir = out.dir().toAbsolutePath().normalize().relativize(source.sweep().dir().toAbsolutePath().normalize());
            String prefix = dir.toString().isEmpty() ? "" : dir + "/";
            h.append("<a href=\"").append(esc(prefix)).append("summary.csv\">").append(esc(prefix)).append("summary.csv</a> ")
                    .append("(points) and <a href=\"").append(esc(prefix)).append("runs.csv\">").append(esc(prefix))
                    .append("runs.csv</a> (runs); ");
        }
        h.append("each run's folder under <code>points/</code> holds what was kept of it (result.json, point.json, and in a ")
                .append("sweep of your own the Gatling report and the logs of target and simulation).</p>\n");
        for (Source source : sources) {
            machine(h, source);
        }
        jvmEvents(h, sources);
        h.append("<h2>Settings</h2>\n");
        for (Source source : sources) {
            if (source.plan() != null) {
                h.append("<p>").append(source.label() == null ? "The sweep" : "Sweep <code>" + esc(source.label()) + "</code>")
                        .append(", as <code>sweep.json</code> records it (plan, machine, versions):</p><pre>")
                        .append(esc(text(source.sweep().planFile()))).append("</pre>\n");
            }
            List<String> others = fromOtherSweeps(source);
            if (!others.isEmpty()) {
                h.append("<p>Points on this page that are not in that plan (added from another sweep), with their own settings ")
                        .append("from their result files:</p>\n<ul>\n");
                others.forEach(o -> h.append("<li>").append(esc(o)).append("</li>\n"));
                h.append("</ul>\n");
            }
        }
        return h.append("</body></html>\n").toString();
    }

    /** The machine a sweep ran on, its fingerprint and the ceiling of each target on it. */
    private static void machine(StringBuilder h, Source source) {
        h.append("<h2>Machine").append(source.label() == null ? "" : " of <code>" + esc(source.label()) + "</code>").append("</h2>\n");
        Machine.Description m = source.plan() == null ? null : source.plan().machine();
        if (m != null) {
            Machine.CpuProbe probe = m.cpuProbe() == null ? new Machine.CpuProbe(null, null) : m.cpuProbe();
            String targetsJdk = source.plan().plan().jdk() == null ? "" : "; the targets on --jdk " + source.plan().plan().jdk();
            h.append("<p>").append(esc("%s, %d cores, %s GiB, %s; JDK %s%s.".formatted(m.cpu(), m.cores(), m.memoryGiB(), m.os(), m.jdk(),
                    targetsJdk)))
                    .append(" CPU probe (").append(esc(probe.workload() == null ? "not recorded" : probe.workload())).append("): <b>")
                    .append(esc(probe.mibPerSecond() == null ? "not recorded" : String.valueOf(probe.mibPerSecond()))).append(" MiB/s</b> at the start");
            Spread probes = Spread.of(source.runs().stream().map(r -> r.cpu().cpuProbe()).toList());
            if (probes.median() != null) {
                h.append(esc(", %s MiB/s before each run".formatted(probes.format("%,.0f"))));
            }
            h.append("; load average at the start ").append(m.loadAverageAtStart() != null
                    ? "%.2f".formatted(m.loadAverageAtStart()) : "not recorded");
            Spread steal = Spread.of(source.runs().stream().map(r -> r.cpu().machineSteal()).toList()).times(100);
            if (steal.median() != null) {
                h.append(esc("; steal on the plateaus %s".formatted(steal.format("%.1f%%"))));
            }
            h.append(".</p>\n");
        }
        List<String> without = source.points().stream().map(r -> r.identity().target()).distinct()
                .filter(t -> !source.ceilings().containsKey(t)).toList();
        String none = ("a target has none when no finished run of it had its pool not the limit and no other process busy on "
                + "the machine, or when its busiest such run served under a quarter of the ceiling it would imply: at so light a "
                + "load fixed costs weigh on every response");
        if (source.ceilings().isEmpty()) {
            h.append("<p>No machine ceiling: ").append(esc(none)).append(".</p>\n");
            return;
        }
        h.append("<p>This machine's ceiling per target: its cores over the CPU time one OK response cost server and ")
                .append("injector together, at the target's busiest point whose pool was not the limit and beside which no other ")
                .append("process was busy (median of its runs). The CPU per response falls as the load grows, so measured below ")
                .append("the machine's limit it is a lower bound. Points whose model throughput reaches 80% of it are flagged ")
                .append("near-machine-ceiling.").append(without.isEmpty() ? "" : esc(" None for " + String.join(", ", without) + ": " + none + "."))
                .append("</p>\n<ul>\n");
        source.ceilings().values().forEach(c -> h.append("<li>").append(esc(("%s: %.3f ms server + %.3f ms injector = %.3f ms of CPU "
                + "per OK response, measured at %,d users: %d cores / %.3f ms = %,.0f req/s").formatted(c.target(), c.serverCpuMsPerRequest(),
                c.injectorCpuMsPerRequest(), c.cpuMsPerRequest(), c.fromUsers(), c.cores(), c.cpuMsPerRequest(),
                c.requestsPerSecond()))).append(source.notDrawn().containsKey(c.target())
                        ? esc(". Not drawn on the charts: " + source.notDrawn().get(c.target()) + ".") : "")
                .append("</li>\n"));
        h.append("</ul>\n");
    }

    private static String spread(Spread s, String pattern) {
        if (s.median() == null) {
            return "<td></td>";
        }
        String range = s.runs() < 2 ? "" : " <span class=range>(" + esc(pattern.formatted(s.min())) + "&ndash;"
                + esc(pattern.formatted(s.max())) + ")</span>";
        return "<td>" + esc(pattern.formatted(s.median())) + range + "</td>";
    }

    /** Links to what each run of a point kept, relative to the page. */
    private static String files(SweepFolder out, Source source, Summary.PointRow r) {
        List<String> runs = new ArrayList<>();
        for (Summary.RunRow run : source.runs()) {
            if (!run.pointId().equals(r.identity().point())) {
                continue;
            }
            RunFolder folder = source.sweep().point(run.identity().point());
            List<String> links = new ArrayList<>();
            for (Path f : List.of(folder.resultFile(), folder.pointRecord(), folder.reportPage())) {
                if (Files.isRegularFile(f)) {
                    String label = f.equals(folder.reportPage()) ? "report" : f.getFileName().toString();
                    links.add("<a href=\"" + esc(out.dir().toAbsolutePath().normalize().relativize(f.toAbsolutePath().normalize())
                            .toString()) + "\">" + label + "</a>");
                }
            }
            runs.add("run " + run.identity().run() + (run.done() ? "" : " (failed)") + ": " + String.join(" ", links));
        }
        return String.join("<br>", runs);
    }

    /** A file as it was written (sweep.json, shown on the page as the sweep recorded it). */
    private static String text(Path file) {
        try {
            return Files.readString(file).strip();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The points outside a sweep's plan, each with the settings its result file records. */
    private static List<String> fromOtherSweeps(Source source) {
        Sweep.Plan plan = source.plan() == null ? null : source.plan().plan();
        List<String> others = new ArrayList<>();
        for (Summary.RunRow r : source.runs()) {
            boolean planned = plan != null && plan.matrix().targets().contains(r.identity().target())
                    && (r.identity().rate() != null ? plan.open().rates().contains(r.identity().rate())
                            : plan.matrix().users().contains(r.identity().users()))
                    && plan.matrix().latenciesMs().contains(r.identity().latencyMs());
            Path result = source.sweep().point(r.identity().point()).resultFile();
            if (!planned && r.identity().rate() != null && Files.isRegularFile(result)) {
                others.add("%s at %s arrivals/s, %d ms (run %d): open model, level %d s".formatted(r.identity().target(),
                        Figures.rate(r.identity().rate()),
                        r.identity().latencyMs(), r.identity().run(), ResultFile.read(result).parameters().injection().levelSeconds()));
            }
            else if (!planned && Files.isRegularFile(result)) {
                Result.Parameters p = ResultFile.read(result).parameters();
                others.add("%s at %,d users, %d ms (run %d): ramp %d s, %d requests per user, think %d-%d ms, connections %s, %s"
                        .formatted(r.identity().target(), r.identity().users(), r.identity().latencyMs(), r.identity().run(),
                                p.pacing().rampSeconds(), p.pacing().repeat(), p.pacing().thinkMinMs(),
                                p.pacing().thinkMaxMs(), p.connections(),
                                r.pool().connectionSettings().isEmpty() ? "default server settings" : r.pool().connectionSettings()));
            }
        }
        return others;
    }

    /** A sweep's finished points at this latency, open or closed, by target, each target's in the order of rate or users. */
    private static Map<String, List<Summary.PointRow>> byTarget(Source source, long latency, boolean open) {
        Map<String, List<Summary.PointRow>> byTarget = new LinkedHashMap<>();
        source.points().stream().filter(r -> r.identity().latencyMs() == latency && r.done() && (r.identity().rate() != null) == open)
                .sorted(java.util.Comparator.comparingDouble(r -> open ? r.identity().rate() : r.identity().users()))
                .forEach(r -> byTarget.computeIfAbsent(r.identity().target(), t -> new ArrayList<>()).add(r));
        return byTarget;
    }
}
