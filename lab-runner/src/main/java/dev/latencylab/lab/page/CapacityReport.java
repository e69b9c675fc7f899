package dev.latencylab.lab.page;

import java.nio.file.Path;
import java.util.List;

import org.knowm.xchart.XYChart;

import dev.latencylab.lab.capacity.Capacity;
import dev.latencylab.lab.capacity.CapacitySearch;
import dev.latencylab.lab.format.Figures;
import dev.latencylab.lab.layout.OutputFile;
import dev.latencylab.lab.layout.SearchFolder;

/**
 * What a reader sees of capacity searches: each search's folder written with its chart, the searches' verdict and
 * table (console, README), and their hockey stick drawn together.
 */
public final class CapacityReport {

    private CapacityReport() {
    }

    /** A search's folder: its data (Capacity.write) and its own chart. */
    public static void write(Path dir, Capacity.Search record) {
        Capacity.write(dir, record);
        draw(List.of(record), dir);
    }

    /** A finished search rebuilt from its rounds' result files (Capacity.rebuild), with its own chart (rebuild-docs). */
    public static Capacity.Search rebuild(Path dir) {
        Capacity.Search again = Capacity.rebuild(dir);
        draw(List.of(again), dir);
        return again;
    }

    /** The searches' verdict, then their table: one row per search. */
    public static String markdown(List<Capacity.Search> records) {
        // rates are of requests, or of users each running a flow: one unit in the header, else each figure says its own
        List<String> units = records.stream().map(r -> r.settings().rateUnit()).distinct().toList();
        String inHeader = units.size() == 1 ? " (" + units.get(0) + ")" : "";
        StringBuilder md = new StringBuilder(Verdict.capacity(records)).append(("\n| target | latency | capacity%s | first miss%s | model T/L | "
                + "machine ceiling | p99%s at capacity | largest CO gap (p99) |\n").formatted(inHeader, inHeader,
                        records.stream().map(r -> r.settings().p99Timed()).distinct().count() == 1 ? " " + records.get(0).settings().p99Timed() : ""));
        md.append("|---|--:|--:|--:|--:|--:|--:|--:|\n");
        for (Capacity.Search r : records) {
            CapacitySearch.Level at = r.levels().stream().filter(l -> r.answer().capacityPerSecond() != null && l.rate() == r.answer().capacityPerSecond()
                    && Boolean.TRUE.equals(l.withinSlo())).findFirst().orElse(null);
            CapacitySearch.Level gap = r.answer().largestCoGap();
            boolean service = r.settings().ofService();
            boolean flows = dev.latencylab.load.result.Result.Open.FLOW.equals(r.settings().arrivalSends());
            String unit = units.size() == 1 ? "" : " " + r.settings().rateUnit();
            md.append("| %s | %s | %s | %s | %s | %s | %s | %s |\n".formatted(r.settings().target(),
                    service ? "–" : r.settings().latencyMs() + " ms",
                    r.answer().capacityPerSecond() == null ? (r.wasInterrupted() ? "none (interrupted)" : "below the first level")
                            : (r.answer().bracketed() ? "" : "≥ ") + Figures.rate(r.answer().capacityPerSecond()) + unit
                                    + (r.wasInterrupted() ? " (interrupted)" : ""),
                    r.answer().firstMissPerSecond() == null ? "none" : Figures.rate(r.answer().firstMissPerSecond()) + unit,
                    service ? "none (no latency)" : r.bounds().modelCapacityPerSecond() == null ? "none (no pool)"
                            : Figures.rate(r.bounds().modelCapacityPerSecond()) + unit,
                    r.bounds().machineCeilingPerSecond() == null ? "–" : "%,.0f%s".formatted(r.bounds().machineCeilingPerSecond(), unit),
                    at == null ? "–" : "%,d ms".formatted(at.latency().p99JudgedMs()),
                    flows ? "– (a flow's requests have no due time)" : gap == null ? "–"
                            : "%,d ms at %s req/s (%,d vs %,d)".formatted(gap.coGapP99Ms(), Figures.rate(gap.rate()),
                                    gap.latency().p99FromDueMs(), gap.latency().p99Ms())));
        }
        return md.toString();
    }

    /** The hockey stick of these searches (see {@link HockeyStickChart}), as SVG and PNG in dir's chart files. */
    public static void draw(List<Capacity.Search> records, Path dir) {
        XYChart chart = HockeyStickChart.chart(records);
        SearchFolder folder = new SearchFolder(dir);
        OutputFile.svg(folder.chartSvg(), chart);
        OutputFile.png(folder.chartPng(), chart);
    }

    /**
     * Finished searches as ./lab report gives them: each checked against its result files, their chart drawn in out
     * (null: the parent of the first; never a search's own folder), and their verdict, table and SLO verdicts (as each
     * search kept its own) returned, to print.
     */
    public static String report(List<java.nio.file.Path> searches, java.nio.file.Path out) {
        List<Capacity.Search> records = searches.stream().map(Capacity::verified).toList();
        java.nio.file.Path chartDir = out != null ? out.toAbsolutePath().normalize() : searches.get(0).toAbsolutePath().normalize().getParent();
        draw(records, dev.latencylab.lab.layout.Folders.pageFolder("--out", chartDir));
        StringBuilder slo = new StringBuilder(); // each search's verdict as it judged it when it ended, not judged again
        for (int i = 0; i < records.size(); i++) {
            if (records.get(i).slo() != null) {
                slo.append("SLO %s: %s%n".formatted(searches.get(i).getFileName(), dev.latencylab.lab.summary.SloCell.ofRun(records.get(i).slo())));
            }
        }
        return markdown(records) + slo;
    }
}
