package dev.latencylab.lab.page;

import java.awt.BasicStroke;
import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import dev.latencylab.lab.capacity.Capacity;
import dev.latencylab.lab.capacity.CapacitySearch;
import dev.latencylab.lab.summary.Spread;

/** The chart of capacity searches: p99 against the offered rate, the model's and the machine's lines beside it. */
public final class HockeyStickChart {

    private HockeyStickChart() {
    }

    /**
     * The hockey stick: p99 from each request's due time (solid: the whole wait a user would see) and from when Gatling
     * sent it (dashed: without the injector's own lag; a gap between the two is coordinated omission) against the offered rate, log scale, each
     * target in its colour and marker, the same as on every sweep's page (a rate measured in several ladders: the
     * median of them); the SLO as a grey line; each target's model capacity T/L (dashed) and measured machine ceiling
     * (dotted) as vertical lines in its colour.
     */
    public static XYChart chart(List<Capacity.Search> records) {
        long latency = records.get(0).settings().latencyMs();
        // a service of the user's has no latency the lab knows: none in the title
        String latencies = records.stream().filter(r -> !r.settings().ofService()).map(r -> r.settings().latencyMs() + " ms")
                .distinct().collect(Collectors.joining(", "));
        XYChart chart = new XYChartBuilder().width(1300).height(560)
                .title("p99 against offered rate" + (latencies.isEmpty() ? "" : ", " + latencies + " latency")
                        + " (solid: from when each request was due; dashed: from when sent)")
                .xAxisTitle("offered rate (requests per second)").yAxisTitle("p99 (ms, log scale)").build();
        Styler styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        styler.setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setYAxisLogarithmic(true);
        double maxRate = 0;
        double maxMs = latency;
        for (Capacity.Search r : records) {
            for (CapacitySearch.Level l : r.levels()) {
                if (l.latency().p99JudgedMs() != null) {
                    maxRate = Math.max(maxRate, l.rate());
                    maxMs = Math.max(maxMs, l.latency().p99JudgedMs());
                }
            }
        }
        double top = ChartLines.niceCeiling(maxMs * 1.2);
        double bottom = Math.max(1, latency / 2.0);
        chart.getStyler().setYAxisMin(bottom);
        chart.getStyler().setYAxisMax(top);
        double right = ChartLines.niceCeiling(maxRate * 1.05);
        chart.getStyler().setXAxisMin(0.0);
        chart.getStyler().setXAxisMax(right);
        Map<String, Long> searchesOf = records.stream().collect(Collectors.groupingBy(s -> s.settings().target(), Collectors.counting()));
        Map<String, Integer> seen = new java.util.HashMap<>();
        for (int i = 0; i < records.size(); i++) {
            Capacity.Search r = records.get(i);
            // repeated searches of one target (./lab capacity --repeats): a series each, told apart by their order
            int k = seen.merge(r.settings().target(), 1, Integer::sum);
            String name = searchesOf.get(r.settings().target()) == 1 ? r.settings().target() : r.settings().target() + " #" + k;
            search(chart, name, r, right, bottom, top);
        }
        List<Long> slos = records.stream().map(s -> s.settings().sloP99Ms()).distinct().toList();
        for (long slo : slos) {
            XYSeries s = chart.addSeries("SLO p99 " + slo + " ms", List.of(0.0, right), List.of((double) slo, (double) slo));
            s.setLineColor(Color.GRAY);
            s.setMarker(SeriesMarkers.NONE);
        }
        return chart;
    }

    /** One search's p99 from due and from sent against the rate, in its target's colour, and its model's and machine's bounds. */
    private static void search(XYChart chart, String name, Capacity.Search r, double right, double bottom, double top) {
        ChartStyle style = ChartStyle.of(r.settings().target());
        Color color = style.color();
        // a rate measured in several ladders: one point, the median of them
        Map<Double, List<CapacitySearch.Level>> byRate = new TreeMap<>(r.levels().stream()
                .filter(l -> l.latency().p99JudgedMs() != null).collect(Collectors.groupingBy(CapacitySearch.Level::rate)));
        if (byRate.isEmpty()) {
            return;
        }
        List<Double> rates = new ArrayList<>(byRate.keySet());
        XYSeries due = chart.addSeries(name + ": p99 from when due", rates,
                rates.stream().map(rate -> Math.max(1, median(byRate.get(rate), lv -> lv.latency().p99JudgedMs()))).toList());
        due.setLineColor(color);
        due.setMarkerColor(color);
        due.setMarker(style.marker());
        List<Double> timed = rates.stream().filter(rate -> byRate.get(rate).stream().anyMatch(l -> l.latency().p99Ms() != null)).toList();
        if (timed.size() > 1) {
            XYSeries gatling = chart.addSeries(name + ": p99 from when sent", timed,
                    timed.stream().map(rate -> Math.max(1, median(byRate.get(rate), lv -> lv.latency().p99Ms()))).toList());
            gatling.setLineColor(color);
            gatling.setMarker(SeriesMarkers.NONE);
            gatling.setLineStyle(new BasicStroke(1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
        }
        vertical(chart, name + ": model T/L", r.bounds().modelCapacityPerSecond(), right, bottom, top, color, new float[] {6f, 4f});
        vertical(chart, name + ": machine ceiling", r.bounds().machineCeilingPerSecond(), right, bottom, top, color, new float[] {1f, 4f});
    }

    private static double median(List<CapacitySearch.Level> levels, Function<CapacitySearch.Level, Long> ms) {
        return Spread.of(levels.stream().map(ms).toList()).median();
    }

    /** A vertical line at x, when it is on the chart. */
    private static void vertical(XYChart chart, String name, Double x, double right, double bottom, double top, Color color, float[] dash) {
        if (x == null || x > right) {
            return;
        }
        XYSeries s = chart.addSeries(name, List.of(x, x), List.of(bottom, top));
        s.setLineColor(color);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineStyle(new BasicStroke(1.5f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_MITER, 10f, dash, 0f));
    }
}
