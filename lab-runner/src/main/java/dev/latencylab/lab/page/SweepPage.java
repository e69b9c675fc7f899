package dev.latencylab.lab.page;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.knowm.xchart.XYChart;

import dev.latencylab.lab.layout.OutputFile;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.summary.RecordCsv;
import dev.latencylab.lab.summary.Summary;

/**
 * The page of a sweep, or of several side by side (./lab report A B --out C): summary.csv and runs.csv, the
 * charts (SweepCharts, written as SVG for the page and PNG for README) and index.html (SweepPageHtml), which needs
 * nothing but the files beside it (no CDN, works offline).
 */
public final class SweepPage {

    private SweepPage() {
    }

    /** Rebuilds summary.csv, runs.csv, charts/ and index.html of a sweep from its run folders. */
    public static void write(SweepFolder sweep) {
        read(sweep).write();
    }

    /** A sweep's run folders read and checked (a result that does not add up is refused here), its files not yet written. */
    public static Read read(SweepFolder sweep) {
        return new Read(SweepSource.read(sweep, null, 0));
    }

    /** A sweep read, to write once every other sweep of the same rebuild has been read too. */
    public static final class Read {

        private final SweepSource source;

        private Read(SweepSource source) {
            this.source = source;
        }

        /** Writes summary.csv, runs.csv, charts/ and index.html. */
        public void write() {
            SweepFolder sweep = source.sweep();
            RecordCsv.write(source.points(), Summary.PointRow.class, sweep.summaryCsv());
            RecordCsv.write(source.runs(), Summary.RunRow.class, sweep.runsCsv());
            draw(List.of(source), sweep);
        }
    }

    /**
     * One page of several sweeps (e.g. from two machines) in out: each sweep's points under its name, its machine and
     * ceilings beside it. Its numbers stay in each sweep's own summary.csv, which the page links.
     */
    public static void write(List<SweepFolder> sweeps, SweepFolder out) {
        List<SweepSource> sources = new ArrayList<>();
        for (SweepFolder s : sweeps) {
            sources.add(SweepSource.read(s, s.name(), sources.size()));
        }
        draw(sources, out);
    }

    private static void draw(List<SweepSource> sources, SweepFolder out) {
        try {
            Files.createDirectories(out.charts());
            Map<String, XYChart> drawn = SweepCharts.of(sources);
            for (Map.Entry<String, XYChart> chart : drawn.entrySet()) {
                OutputFile.svg(out.charts().resolve(chart.getKey() + ".svg"), chart.getValue());
                OutputFile.png(out.charts().resolve(chart.getKey() + ".png"), chart.getValue());
            }
            OutputFile.text(out.page(), SweepPageHtml.html(out, sources, List.copyOf(drawn.keySet())));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
