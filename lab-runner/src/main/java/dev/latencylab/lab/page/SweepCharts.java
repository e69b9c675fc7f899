package dev.latencylab.lab.page;

import java.awt.BasicStroke;
import java.awt.Color;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.machine.Machine;
import dev.latencylab.lab.summary.MachineCeiling;
import dev.latencylab.lab.summary.Spread;
import dev.latencylab.lab.summary.Summary;
import dev.latencylab.lab.sweep.SweepPlan;

/**
 * A sweep page's charts (XChart): each measure of every target against users, or against the offered rate for open
 * points, a latency's charts on one x axis; each point the median of its runs with their range as a bar, the model's
 * lines and each target's machine ceiling beside the data.
 */
public final class SweepCharts {

    private SweepCharts() {
    }

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
    private static XYChart openChart(Chart c, long latency, boolean modelled, List<SweepSource> sources, double right) {
        XYChart chart = styled(c, latency, modelled, "offered rate (arrivals per second)");
        OpenDrawn drawn = drawOpen(chart, c, latency, sources, right);
        chart.getStyler().setXAxisMin(0.0);
        chart.getStyler().setXAxisMax(right);
        List<String> offChart = new ArrayList<>();
        if (c.log() && !modelled) {
            // no latency known (a service of the user's): the data's own range, no default SLO
            chart.getStyler().setYAxisMin(drawn.min() == Double.MAX_VALUE ? 1 : Math.pow(10, Math.floor(Math.log10(drawn.min()))));
            chart.getStyler().setYAxisMax(Math.pow(10, Math.ceil(Math.log10(drawn.max() * 1.01))));
        }
        else if (c.log()) {
            double slo = latency + dev.latencylab.load.settings.SimulationSettings.SLO_MARGIN_MS;
            double top = Math.pow(10, Math.ceil(Math.log10(Math.max(drawn.max(), slo) * 1.01)));
            chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(Math.min(drawn.min(), latency)))));
            chart.getStyler().setYAxisMax(top);
            ChartLines.addModelLine(chart, "SLO p99 " + (long) slo + " ms (default)", List.of(0.0, right), rate -> slo, top, offChart);
        }
        else {
            double top = ChartLines.niceCeiling(Math.max(drawn.max(), drawn.maxRate()) * 1.1);
            chart.getStyler().setYAxisMin(0.0);
            chart.getStyler().setYAxisMax(top);
            ChartLines.addModelLine(chart, "model: every arrival served", List.of(0.0, right), rate -> rate, top, offChart);
            for (int t : modelled ? drawn.pools() : new TreeSet<Integer>()) {
                double bound = t * 1000.0 / latency;
                ChartLines.addModelLine(chart, "model: T/L, T=" + t, List.of(0.0, right), rate -> bound, top, offChart);
            }
            if (!modelled) {
                ChartLines.addServiceBounds(chart, sources.stream().flatMap(s -> byTarget(s, latency, true).values().stream()).flatMap(List::stream).toList(),
                        r -> r.identity().rate(), right, top, offChart);
            }
        }
        return named(chart, offChart);
    }

    /** What an open chart's data spanned: its highest rate, lowest and highest value, and the pools of its points. */
    private record OpenDrawn(double maxRate, double min, double max, TreeSet<Integer> pools) {
    }

    /** Each target's medians and ranges against the offered rate. */
    private static OpenDrawn drawOpen(XYChart chart, Chart c, long latency, List<SweepSource> sources, double right) {
        double maxRate = 0;
        double dataMax = 1;
        double dataMin = Double.MAX_VALUE;
        TreeSet<Integer> pools = new TreeSet<>();
        for (SweepSource source : sources) {
            Map<String, List<Summary.PointRow>> byTarget = byTarget(source, latency, true);
            for (Map.Entry<String, List<Summary.PointRow>> target : byTarget.entrySet()) {
                ChartStyle style = ChartStyle.of(target.getKey());
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
        return new OpenDrawn(maxRate, dataMin, dataMax, pools);
    }

    /**
     * The range of a point's runs: a bar from min to max in the target's colour, capped at both ends like an error bar
     * (a bare bar ending in a marker read as an arrow off the chart), not in the legend (none for one run); cap is the
     * half-width of the caps in x's units.
     */
    private static void rangeBar(XYChart chart, String name, double x, Spread v, ChartStyle style, double cap) {
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
    private static void addTimeouts(XYChart chart, SweepSource source, String target, List<Double> x, ChartStyle style) {
        XYSeries s = chart.addSeries(source.series(target) + " at the connect timeout", x,
                x.stream().map(u -> (double) source.connectTimeoutMs()).toList());
        s.setMarker(SeriesMarkers.CROSS);
        s.setMarkerColor(style.color());
        s.setLineStyle(SeriesLines.NONE);
        s.setShowInLegend(false);
    }

    /** A target's medians as one line, dashed by its source. */
    private static void medianLine(XYChart chart, SweepSource source, String target, List<Double> x, List<Double> y, ChartStyle style) {
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

    /** The charts of these sweeps' page, by file name (without extension), in the page's order. */
    public static Map<String, XYChart> charts(List<SweepFolder> sweeps) {
        List<SweepSource> sources = new ArrayList<>();
        for (SweepFolder s : sweeps) {
            sources.add(SweepSource.read(s, sweeps.size() == 1 ? null : s.name(), sources.size()));
        }
        return of(sources);
    }

    static Map<String, XYChart> of(List<SweepSource> sources) {
        Map<String, XYChart> drawn = new LinkedHashMap<>();
        SweepPlan.PerRun plan = sources.stream().map(SweepSource::plan).filter(p -> p != null).findFirst().map(f -> f.plan().pacing()).orElse(null);
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
    static boolean modelled(List<Summary.PointRow> points) {
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
    private static XYChart chart(Chart c, long latency, boolean modelled, List<SweepSource> sources, SweepPlan.PerRun plan, int maxUsers) {
        XYChart chart = styled(c, latency, modelled, "users");
        double right = maxUsers * 1.04;
        chart.getStyler().setXAxisMin(0.0);
        chart.getStyler().setXAxisMax(right);
        Drawn drawn = drawClosed(chart, c, latency, sources, right);
        double top = closedYAxis(chart, c, c.file().equals("throughput") ? withCeilings(drawn, sources) : drawn);
        List<String> offChart = new ArrayList<>();
        for (long timeout : drawn.timeouts()) {
            XYSeries line = chart.addSeries("connect timeout %s s (×: never connected)"
                    .formatted(java.math.BigDecimal.valueOf(timeout, 3).stripTrailingZeros().toPlainString()), List.of(0.0, right),
                    List.of((double) timeout, (double) timeout));
            line.setMarker(SeriesMarkers.NONE);
            line.setLineColor(Color.GRAY);
            line.setLineStyle(new BasicStroke(1f));
        }
        if (plan != null && modelled && (c.file().equals("throughput") || c.file().equals("p95"))) {
            offChart.addAll(ChartLines.addModel(chart, c.file(), latency, drawn.all(), maxUsers, plan, top));
        }
        if (modelled && c.file().equals("throughput")) {
            ChartLines.addOwnPoolBounds(chart, drawn.all());
        }
        if (!modelled && c.file().equals("throughput")) {
            ChartLines.addServiceBounds(chart, drawn.all(), r -> (double) r.identity().users(), right, top, offChart);
        }
        if (c.file().equals("throughput")) {
            for (SweepSource source : sources) {
                source.ceilings().forEach((target, ceiling) -> {
                    if (drawn.has(target) && !source.notDrawn().containsKey(target)) {
                        ChartLines.addCeiling(chart, source.series(target) + " machine ceiling", ChartStyle.of(target).color(), maxUsers,
                                ceiling.requestsPerSecond(), top, offChart);
                    }
                });
            }
        }
        if (c.file().equals("throughput")) {
            // the title says "all users active": a load where they never were is named, its goodput no plateau's
            List<String> never = drawn.all().stream().filter(p -> p.flags().has(dev.latencylab.lab.summary.Flags.NOT_ALL_ACTIVE))
                    .map(p -> "%,d".formatted(p.identity().users())).distinct().toList();
            if (!never.isEmpty()) {
                chart.setTitle(chart.getTitle() + "; never all active at " + String.join(", ", never) + " users: no plateau");
            }
        }
        return named(chart, offChart);
    }

    /** A chart of this page's size and style, its y axis logarithmic for the percentiles. */
    private static XYChart styled(Chart c, long latency, boolean modelled, String xAxis) {
        XYChart chart = new XYChartBuilder().width(1300).height(520).title(c.title() + at(latency, modelled)).xAxisTitle(xAxis)
                .yAxisTitle(c.yAxis()).build();
        org.knowm.xchart.style.XYStyler styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setYAxisLogarithmic(c.log());
        styler.setXAxisDecimalPattern("#,##0");
        styler.setYAxisDecimalPattern("#,##0");
        return chart;
    }

    /** A chart's title with the lines above its top named (one wholly above the axis is not seen). */
    private static XYChart named(XYChart chart, List<String> offChart) {
        if (!offChart.isEmpty()) {
            chart.setTitle(chart.getTitle() + " (above the chart: " + String.join(", ", offChart) + ")");
        }
        return chart;
    }

    /**
     * What a closed chart's data spanned: its lowest and highest value, the points drawn and the connect timeouts some
     * of them were at (each sweep's own: sweeps side by side may have run with different ones).
     */
    private record Drawn(double min, double max, List<Summary.PointRow> all, SortedSet<Long> timeouts) {

        boolean has(String target) {
            return all.stream().anyMatch(r -> r.identity().target().equals(target));
        }
    }

    /** Each target's medians and ranges against users; on the percentiles, a value at the connect timeout as a cross. */
    private static Drawn drawClosed(XYChart chart, Chart c, long latency, List<SweepSource> sources, double right) {
        double dataMin = Double.MAX_VALUE;
        double dataMax = 0;
        List<Summary.PointRow> all = new ArrayList<>();
        SortedSet<Long> timeouts = new TreeSet<>();
        for (SweepSource source : sources) {
            for (Map.Entry<String, List<Summary.PointRow>> target : byTarget(source, latency, false).entrySet()) {
                ChartStyle style = ChartStyle.of(target.getKey());
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
                    if (c.log() && source.atConnectTimeout(v.median())) {
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
        return new Drawn(dataMin, dataMax, all, timeouts);
    }

    /** The headroom to each drawn target's machine ceiling is what a reader of goodput looks for: the axis reaches the highest. */
    private static Drawn withCeilings(Drawn drawn, List<SweepSource> sources) {
        double max = drawn.max();
        for (SweepSource source : sources) {
            for (Map.Entry<String, MachineCeiling> ceiling : source.ceilings().entrySet()) {
                if (drawn.has(ceiling.getKey()) && !source.notDrawn().containsKey(ceiling.getKey())) {
                    max = Math.max(max, ceiling.getValue().requestsPerSecond());
                }
            }
        }
        return new Drawn(drawn.min(), max, drawn.all(), drawn.timeouts());
    }

    /** The y axis fits the data (model lines are cut at its top); returns its top. */
    private static double closedYAxis(XYChart chart, Chart c, Drawn drawn) {
        double top;
        if (c.log()) {
            top = drawn.max() == 0 ? 10 : Math.pow(10, Math.ceil(Math.log10(drawn.max() * 1.01)));
            chart.getStyler().setYAxisMin(drawn.max() == 0 ? 1 : Math.pow(10, Math.floor(Math.log10(drawn.min()))));
        }
        else {
            top = ChartLines.niceCeiling(drawn.max() * 1.1);
            chart.getStyler().setYAxisMin(0.0);
        }
        chart.getStyler().setYAxisMax(top);
        return top;
    }

    /** A single value as a spread of one run (measures the point keeps only the median of). */
    private static Spread one(Double v) {
        return Spread.of(java.util.Collections.singletonList(v));
    }

    /** A sweep's finished points at this latency, open or closed, by target, each target's in the order of rate or users. */
    private static Map<String, List<Summary.PointRow>> byTarget(SweepSource source, long latency, boolean open) {
        Map<String, List<Summary.PointRow>> byTarget = new LinkedHashMap<>();
        source.points().stream().filter(r -> r.identity().latencyMs() == latency && r.done() && (r.identity().rate() != null) == open)
                .sorted(java.util.Comparator.comparingDouble(r -> open ? r.identity().rate() : r.identity().users()))
                .forEach(r -> byTarget.computeIfAbsent(r.identity().target(), t -> new ArrayList<>()).add(r));
        return byTarget;
    }
}
