package dev.latencylab.lab.page;

import static dev.latencylab.lab.page.Html.f0;
import static dev.latencylab.lab.page.Html.pct;

import java.awt.Color;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.lab.format.Figures;
import dev.latencylab.lab.layout.OutputFile;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.summary.Summary;

/**
 * Several runs on one page (./lab report RUN_A RUN_B --out DIR): what each measured in one line, their settings and
 * the model's numbers side by side, and their responses per second on one chart, each with its model's lines in its
 * colour. The runs' folders are read, never written; the page links each run's own page when it has one.
 */
public final class RunsPage {

    static final String PAGE = "index.html";
    static final String CHART = "runs-per-second.png";
    private static final Color[] COLORS = {new Color(31, 119, 180), new Color(214, 39, 40), new Color(44, 160, 44),
            new Color(148, 103, 189), new Color(140, 86, 75), new Color(227, 119, 194)};

    private RunsPage() {
    }

    /** A run read for the page: its folder, its result file and what it measured. */
    private record Run(RunFolder folder, Result result, Summary.RunRow row, String verdict) {

        static Run of(RunFolder folder) {
            Result r = ResultFile.read(folder.resultFile());
            return new Run(folder, r, Summary.row(folder.resultFile()), RunPage.verdict(folder.resultFile(), r));
        }
    }

    /** Writes out/index.html and its chart; returns the page. */
    public static Path write(List<RunFolder> folders, Path out) {
        List<Run> runs = folders.stream().map(Run::of).toList();
        OutputFile.png(out.resolve(CHART), chart(runs));
        Path page = out.resolve(PAGE);
        OutputFile.text(page, html(runs, out));
        return page;
    }

    private static XYChart chart(List<Run> runs) {
        // the legend below the plot, a line per series (up to three a run): the plot keeps its height
        XYChart chart = new XYChartBuilder().width(1100).height(420 + 3 * 20 * runs.size()).title("OK responses per second, each run from its own start")
                .xAxisTitle("second since the run started").yAxisTitle("OK responses per second").build();
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(org.knowm.xchart.style.Styler.LegendLayout.Vertical);
        chart.getStyler().setMarkerSize(0);
        for (int i = 0; i < runs.size(); i++) {
            Result r = runs.get(i).result();
            Color color = COLORS[i % COLORS.length];
            long[] ok = r.throughput().okPerSecond() != null ? r.throughput().okPerSecond() : r.throughput().completedPerSecond();
            RunPage.series(chart, "%d: %s".formatted(i + 1, RunPage.name(r)), ok, 0, color);
            RunPage.modelLines(chart, r, "%d: model".formatted(i + 1), color);
        }
        return chart;
    }

    private static String html(List<Run> runs, Path out) {
        return Templates.render("runs.jte", Map.of("title", "%d runs side by side".formatted(runs.size()),
                "lines", runs.stream().map(run -> Line.of(run, out)).toList(),
                "folders", runs.stream().map(run -> run.folder().dir().toAbsolutePath().normalize().toString()).toList()));
    }

    /** A run as the page's list and table show it: each cell's text, in named parts (runs.jte lays them out). */
    record Line(String name, String verdict, String target, String settings, String load, String latencyMs, String offered,
            String poolBound, String modelExpected, String modelResponseMs, String goodput, String p50, String p95, String p99, String ko,
            String serverCpu, String machineCpu, String flags, String href, String file) {

        static Line of(Run run, Path out) {
            Result r = run.result();
            Summary.RunRow row = run.row();
            Result.Model m = r.model();
            Path linked = linked(run.folder());
            return new Line(RunPage.name(r), run.verdict(), row.identity().target(),
                    r.target() == null ? "" : r.target().properties().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                            .reduce((a, b) -> a + " " + b).orElse("(defaults)"),
                    RunsPage.load(r.parameters()), m == null ? "" : "%,.0f".formatted(m.latencyMs()),
                    m == null ? "" : "%,.0f".formatted(m.offeredLoadPerSecond()),
                    m == null || m.poolBoundPerSecond() == null ? "none" : "%,.0f".formatted(m.poolBoundPerSecond()),
                    f0(row.model().modelThroughput()), f0(row.model().modelResponseMs()), f0(row.rates().goodput()), ms(row.latency().p50Ms()),
                    ms(row.latency().p95Ms()), ms(row.latency().p99Ms()), row.requests().ko() == null ? "" : "%,d".formatted(row.requests().ko()),
                    pct(row.cpu().serverCpu()), pct(row.cpu().machineCpu()), row.notes().flags().toString(),
                    out.toAbsolutePath().normalize().relativize(linked.toAbsolutePath().normalize()).toString(), linked.getFileName().toString());
        }
    }

    /** The run's own page when it has one, else its result file; linked relative to the page, so that both can move together. */
    private static Path linked(RunFolder folder) {
        Path page = RunPage.of(folder.resultFile());
        return Files.isRegularFile(page) ? page : folder.resultFile();
    }

    private static String load(Result.Parameters p) {
        return p.open() ? p.injection().rates().stream().map(Figures::rate).reduce((a, b) -> a + ", " + b).orElse("") + " req/s"
                : "%,d users, %d requests each, think %d-%d ms".formatted(p.users(), p.pacing().repeat(), p.pacing().thinkMinMs(), p.pacing().thinkMaxMs());
    }

    private static String ms(Long ms) {
        return ms == null ? "" : "%,d".formatted(ms);
    }
}
