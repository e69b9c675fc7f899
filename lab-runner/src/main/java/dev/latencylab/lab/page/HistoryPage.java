package dev.latencylab.lab.page;

import java.awt.BasicStroke;
import java.awt.Color;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

import dev.latencylab.lab.format.Figures;
import dev.latencylab.lab.history.History;
import dev.latencylab.lab.history.HistoryLines;
import dev.latencylab.lab.layout.OutputFile;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.load.result.ResultFile;

/**
 * ./lab history --out DIR: each point's history, its lines as the console says them, a chart per metric (each run's
 * value, the mean between change points, each change point marked where it begins) and its runs, each linked to its
 * page (or its result file), relative to the page so that both can move together.
 */
public final class HistoryPage {

    static final String PAGE = "index.html";
    private static final Color VALUE = new Color(31, 119, 180);
    private static final Color MEAN = new Color(90, 90, 90);
    private static final Color CHANGE = new Color(214, 39, 40);

    private HistoryPage() {
    }

    /** A point's history as the page shows it: its lines, its charts' files, its runs. */
    record Point(String name, List<String> lines, List<String> charts, List<Run> runs) {
    }

    /** A run as the table shows it: its number, when, its folder linked, the machine, each metric's value. */
    record Run(int number, String started, String href, String folder, String machine, List<String> values) {
    }

    /** How every history page's title starts: a page that does not is not history's, and is never replaced. */
    private static final String TITLE = "History of ";

    /**
     * The page history --out DIR would write, refused before anything is read where DIR holds a page that is not a
     * history's (a sweep's index.html, say: an input) or is a run's or a sweep's own folder.
     */
    public static Path writable(Path out) {
        Path dir = out.toAbsolutePath().normalize();
        if (Files.isRegularFile(dir.resolve(ResultFile.NAME)) || Files.isDirectory(dir.resolve(SweepFolder.POINTS))) {
            throw new IllegalArgumentException("--out %s is a run's or a sweep's folder: its files are not replaced; give a new folder".formatted(out));
        }
        String head = Html.head(TITLE);
        return OutputFile.ownFile("--out", dir.resolve(PAGE), ".html", head.substring(0, head.indexOf(TITLE) + TITLE.length()));
    }

    /** Writes out/index.html and its charts; returns the page. */
    public static Path write(List<History> histories, Path out) {
        List<Point> points = new ArrayList<>();
        for (History h : histories) {
            List<String> charts = new ArrayList<>();
            for (History.Track t : h.tracks()) {
                String chart = "%s-%s.png".formatted(h.point().replaceAll("[^A-Za-z0-9._-]+", "-"), t.metric().id());
                OutputFile.png(out.resolve(chart), chart(h, t));
                charts.add(chart);
            }
            List<Run> runs = IntStream.range(0, h.entries().size()).mapToObj(i -> run(h, i, out)).toList();
            points.add(new Point(h.point(), HistoryLines.of(h), charts, runs));
        }
        Path page = out.resolve(PAGE);
        OutputFile.text(page, Templates.render("history.jte", Map.of("title", "History of %d point%s".formatted(points.size(),
                points.size() == 1 ? "" : "s"), "points", points, "metrics", History.METRICS.stream().map(m -> m.id() + " " + m.unit()).toList())));
        return page;
    }

    private static Run run(History h, int i, Path out) {
        History.Entry e = h.entries().get(i);
        Path linked = RunPage.of(e.folder().resolve(ResultFile.NAME));
        linked = Files.isRegularFile(linked) ? linked : e.folder().resolve(ResultFile.NAME);
        List<String> values = new ArrayList<>();
        for (var metric : History.METRICS) {
            Double v = metric.of(e.run().row());
            values.add(v == null ? "" : Math.abs(v) >= 100 ? "%,.0f".formatted(v) : "%.2f".formatted(v));
        }
        return new Run(i + 1, Figures.when(e.started()), out.toAbsolutePath().normalize().relativize(linked.toAbsolutePath().normalize()).toString(),
                e.name(), e.machine() == null ? "unrecorded" : "%d cores, probe %.0f MiB/s, load %.1f".formatted(
                        e.machine().cores(), e.machine().cpuProbeMibPerSecond() == null ? Double.NaN : e.machine().cpuProbeMibPerSecond(),
                        e.machine().loadAverage() == null ? Double.NaN : e.machine().loadAverage()),
                values);
    }

    private static XYChart chart(History h, History.Track t) {
        XYChart chart = new XYChartBuilder().width(1000).height(330).title("%s of %s, run by run".formatted(t.metric().id(), h.point()))
                .xAxisTitle("run, oldest first").yAxisTitle(t.metric().id() + " (" + t.metric().unit() + ")").build();
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(org.knowm.xchart.style.Styler.LegendLayout.Horizontal);
        double[] x = IntStream.rangeClosed(1, t.values().length).asDoubleStream().toArray();
        XYSeries values = chart.addSeries("each run", x, t.values());
        values.setMarker(SeriesMarkers.CIRCLE);
        values.setLineColor(VALUE);
        values.setMarkerColor(VALUE);
        // the mean of each stretch between change points, as the method compares them
        List<Integer> bounds = new ArrayList<>(List.of(0));
        t.shifts().forEach(s -> bounds.add(s.at()));
        bounds.add(t.values().length);
        List<Double> mx = new ArrayList<>();
        List<Double> my = new ArrayList<>();
        for (int i = 0; i + 1 < bounds.size(); i++) {
            double mean = Arrays.stream(t.values(), bounds.get(i), bounds.get(i + 1)).average().orElse(Double.NaN);
            mx.addAll(List.of(bounds.get(i) + 0.5, bounds.get(i + 1) + 0.5));
            my.addAll(List.of(mean, mean));
        }
        XYSeries means = chart.addSeries("mean between change points", mx, my);
        means.setMarker(SeriesMarkers.NONE);
        means.setLineColor(MEAN);
        means.setLineStyle(new BasicStroke(2f));
        double low = Arrays.stream(t.values()).min().orElse(0);
        double high = Arrays.stream(t.values()).max().orElse(1);
        for (History.Shift s : t.shifts()) {
            XYSeries change = chart.addSeries("change from run %d (%+.1f%%)".formatted(s.at() + 1, 100 * s.relative()),
                    new double[] {s.at() + 0.5, s.at() + 0.5}, new double[] {low, high});
            change.setMarker(SeriesMarkers.NONE);
            change.setLineColor(CHANGE);
            change.setLineStyle(new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
        }
        return chart;
    }
}
