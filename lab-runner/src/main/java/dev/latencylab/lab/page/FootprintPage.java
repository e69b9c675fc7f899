package dev.latencylab.lab.page;

import java.awt.BasicStroke;
import java.awt.Color;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import dev.latencylab.lab.footprint.Footprint;
import dev.latencylab.lab.footprint.Footprint.Fit;
import dev.latencylab.lab.footprint.Footprint.Measure;
import dev.latencylab.lab.footprint.Footprint.Measurement;
import dev.latencylab.lab.footprint.Footprint.Mode;
import dev.latencylab.lab.footprint.MemorySnapshot;
import dev.latencylab.lab.layout.FootprintFolder;
import dev.latencylab.lab.layout.OutputFile;
import dev.latencylab.lab.summary.Spread;

/**
 * A footprint experiment read for a person (./lab footprint): the verdict first (the cost of a request in flight and
 * of an idle connection for each target, where it goes, and the largest count a container and a heap hold), then the
 * charts (each measurement, each target's line), the fits and every measurement.
 */
public final class FootprintPage {

    /** The measures whose slopes say where the memory goes, in the fits' table. */
    private static final List<Measure> WHERE = List.of(Measure.RSS, Measure.HEAP_USED, Measure.HEAP_COMMITTED, Measure.THREAD_STACKS, Measure.NATIVE_OTHER,
            Measure.NATIVE_TOTAL, Measure.THREADS);
    /** The charts: a measure against the count, for one mode. */
    record Chart(Measure measure, Mode mode) {

        String name() {
            return measure.id() + "-" + mode.id();
        }
    }

    private FootprintPage() {
    }

    /** The verdict in Markdown, as the docs carry it between markers (./lab footprint --report DIR --verdict). */
    public static String markdown(Footprint f) {
        return verdict(f).stream().map(l -> "- " + l + "\n").collect(Collectors.joining());
    }

    /**
     * The verdict's lines, Markdown bold around target ids: per mode the cost of one more (RSS slope) from the cheapest,
     * where it goes for the dearest, then the largest counts a container and a heap hold, then any failed measurement.
     */
    static List<String> verdict(Footprint f) {
        List<String> lines = new ArrayList<>();
        Footprint.Settings s = f.settings();
        int most = s.counts().getLast();
        for (Mode mode : s.modes()) {
            List<Fit> rss = fits(f, mode, Measure.RSS);
            if (rss.isEmpty()) {
                continue;
            }
            lines.add("Per %s (RSS, the slope over 0–%,d, median and range over %s): %s.".formatted(one(mode), most, repeats(rss.get(0)),
                    rss.stream().map(x -> "**%s** %s".formatted(x.target(), kib(x.slope()))).collect(Collectors.joining(", "))));
            Fit dearest = rss.getLast();
            List<Footprint.HeapCost> heap = f.heapCosts(dearest.target(), mode);
            lines.add("Where %s's %s goes: %s%s.".formatted(dearest.target(), kib(dearest.slope().median()),
                    List.of(Measure.HEAP_USED, Measure.HEAP_COMMITTED, Measure.THREAD_STACKS, Measure.NATIVE_OTHER).stream()
                            .map(m -> f.fit(dearest.target(), mode, m).map(x -> m.words() + " " + kib(x.slope().median())))
                            .flatMap(Optional::stream).collect(Collectors.joining(", ")),
                    heap.isEmpty() ? "" : "; on the heap most in " + classes(heap, 3)));
        }
        fits(f, Mode.IN_FLIGHT, Measure.RSS).stream().findFirst().ifPresent(any -> {
            List<String> fit = new ArrayList<>();
            for (Fit x : fits(f, Mode.IN_FLIGHT, Measure.RSS)) {
                Double inContainer = x.countAt(s.containerMiB() * 1024.0 * 1024);
                Double inHeap = f.fit(x.target(), Mode.IN_FLIGHT, Measure.HEAP_USED).map(h -> h.countAt(s.heapMiB() * 1024.0 * 1024)).orElse(null);
                fit.add("**%s** %s (heap: %s)".formatted(x.target(), count(inContainer, most), count(inHeap, most)));
            }
            lines.add(("Requests in flight that fit in a %,d MiB container by the RSS line, and in a %,d MiB heap by the heap-used "
                    + "line: %s; beyond %,d an extrapolation, and a heap needs room to allocate beside what is live.")
                    .formatted(s.containerMiB(), s.heapMiB(), String.join(", ", fit), most));
        });
        long failed = f.measurements().stream().filter(m -> !m.done()).count();
        if (failed > 0) {
            lines.add("**%d of %d measurements failed**; the fits leave them out (the table below says why).".formatted(failed, f.measurements().size()));
        }
        return lines;
    }

    /** The n classes that grow most, with what each adds, e.g. "byte[] 64.0 KiB, char[] 16.0 KiB". */
    static String classes(List<Footprint.HeapCost> heap, int n) {
        return heap.stream().limit(n).map(c -> c.javaName() + " " + kib(c.bytesEach().median())).collect(Collectors.joining(", "));
    }

    /** The fits of one measure for each target in this mode, cheapest first. */
    private static List<Fit> fits(Footprint f, Mode mode, Measure measure) {
        return f.settings().targets().stream().map(t -> f.fit(t, mode, measure)).flatMap(Optional::stream)
                .sorted(Comparator.comparingDouble(x -> x.slope().median())).toList();
    }

    private static String one(Mode mode) {
        return mode == Mode.IN_FLIGHT ? "request in flight" : "idle keep-alive connection";
    }

    private static String repeats(Fit x) {
        return x.slope().runs() == 1 ? "1 repeat" : x.slope().runs() + " repeats";
    }

    private static String count(Double n, int most) {
        if (n == null) {
            return "no bound (it does not grow)";
        }
        return n < 0 ? "none" : "~%,d".formatted(Math.round(n / 100) * 100) + (n > most ? "*" : "");
    }

    /** A slope in KiB: its median and range. */
    private static String kib(Spread bytes) {
        Spread k = bytes.times(1 / 1024.0);
        return new Spread(tenth(k.median()), tenth(k.min()), tenth(k.max()), k.runs()).format("%,.1f") + " KiB";
    }

    private static String kib(double bytes) {
        return "%,.1f KiB".formatted(tenth(bytes / 1024));
    }

    /** To a tenth, and never "-0.0": a slope that rounds to nothing is nothing. */
    private static double tenth(double v) {
        return Math.round(v * 10) / 10.0 + 0.0;
    }

    /** Writes the page and its charts into the folder; returns the page. */
    public static Path write(Footprint f, FootprintFolder folder) {
        List<Chart> charts = new ArrayList<>();
        for (Mode mode : f.settings().modes()) {
            charts.add(new Chart(Measure.RSS, mode));
            charts.add(new Chart(Measure.HEAP_USED, mode));
        }
        for (Chart c : charts) {
            OutputFile.png(folder.chartPng(c.name()), chart(f, c));
        }
        OutputFile.text(folder.page(), Templates.render("footprint.jte", Map.of("f", f, "charts", charts, "where", WHERE,
                "verdict", verdict(f).stream().map(Strong::parts).toList())));
        return folder.page();
    }

    /** A target's cost of one more in a mode, where it goes: KiB, or threads per 1,000; empty when nothing was fitted. */
    static String cost(Footprint f, String target, Mode mode, Measure m) {
        return f.fit(target, mode, m).map(x -> m.bytes() ? x.slope().times(1 / 1024.0).format("%,.1f") : x.slope().times(1000).format("%,.0f"))
                .orElse("");
    }

    /** What each measurement held, and of what. */
    static String held(Footprint.Settings s) {
        String what = s.modes().stream().map(Mode::words).collect(Collectors.joining(" or "));
        if (s.service() == null) {
            return "Each target, fresh for each count, held that many " + what;
        }
        return "The service %s, started from %s fresh for each count, held that many %s, each after one answered GET %s"
                .formatted(s.service().name(), Path.of(s.service().jar()).getFileName(), what, s.service().located().path());
    }

    /** How the targets were started beside Native Memory Tracking, and where the JVM's own gauges came from. */
    static String started(Footprint.Settings s) {
        if (s.service() == null) {
            return " besides each id's settings; requests in flight wait " + s.holdSeconds() + " s on /hello";
        }
        List<String> own = new ArrayList<>(s.service().jvmOptions());
        own.addAll(s.service().jarArgs());
        return (own.isEmpty() ? "" : " and its own " + String.join(" ", own)) + "; its heap and threads read through its JVM's "
                + "management agent, started in each run before anything was held (the same cost in every measurement)";
    }

    static String mib(double bytes) {
        return "%,.1f".formatted(bytes / 1024 / 1024);
    }

    static String title(Chart c) {
        return c.measure().words() + " against " + c.mode().words() + " (MiB)";
    }

    /** One measure against the count: each measurement a marker, each target's fitted line dashed, in its colour. */
    private static XYChart chart(Footprint f, Chart c) {
        XYChart chart = new XYChartBuilder().width(1100).height(480).title(title(c)).xAxisTitle(c.mode().words())
                .yAxisTitle("MiB").build();
        Styler styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        styler.setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setXAxisMin(0.0);
        chart.getStyler().setYAxisMin(0.0);
        int most = f.settings().counts().getLast();
        for (String target : f.settings().targets()) {
            List<Measurement> of = f.measurements().stream().filter(m -> m.done() && m.target().equals(target) && m.mode() == c.mode()).toList();
            if (of.isEmpty()) {
                continue;
            }
            ChartStyle style = ChartStyle.of(target);
            XYSeries points = chart.addSeries(target, of.stream().map(m -> (double) m.count()).toList(),
                    of.stream().map(m -> c.measure().of(m.memory()) / 1024 / 1024).toList());
            points.setXYSeriesRenderStyle(org.knowm.xchart.XYSeries.XYSeriesRenderStyle.Scatter);
            points.setMarker(style.marker());
            points.setMarkerColor(style.color());
            f.fit(target, c.mode(), c.measure()).ifPresent(x -> {
                double a = x.intercept().median() / 1024 / 1024;
                double b = x.slope().median() / 1024 / 1024;
                XYSeries line = chart.addSeries(target + ": " + kib(x.slope().median()) + " each", List.of(0.0, (double) most),
                        List.of(a, a + b * most));
                line.setMarker(SeriesMarkers.NONE);
                line.setLineColor(style.color());
                line.setLineStyle(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
            });
        }
        return chart;
    }
}
