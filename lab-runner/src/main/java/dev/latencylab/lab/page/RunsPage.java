package dev.latencylab.lab.page;

import static dev.latencylab.lab.page.Html.esc;
import static dev.latencylab.lab.page.Html.f0;
import static dev.latencylab.lab.page.Html.pct;
import static dev.latencylab.lab.page.Html.td;

import java.awt.Color;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

import dev.latencylab.load.Result;
import dev.latencylab.load.ResultFile;
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
        String title = "%d runs side by side".formatted(runs.size());
        StringBuilder h = new StringBuilder(Html.head(title));
        h.append("<h1>").append(esc(title)).append("</h1>\n<ol>\n");
        for (Run run : runs) {
            h.append("<li><b>").append(esc(RunPage.name(run.result()))).append("</b>: ").append(esc(run.verdict())).append("</li>\n");
        }
        h.append("</ol>\n");
        h.append("<img src=\"").append(CHART).append("\" alt=\"OK responses per second of each run\" width=1100>\n");
        h.append("<h2>Settings and the model</h2>\n<table>\n<tr><th>run<th class=l>target<th class=l>settings<th class=l>load"
                + "<th>L ms<th>model offered<th>model T/L<th>model expected<th>model response ms<th>goodput<th>p50<th>p95<th>p99<th>KO"
                + "<th>server CPU<th>machine CPU<th class=l>flags<th class=l>page</tr>\n");
        for (int i = 0; i < runs.size(); i++) {
            Run run = runs.get(i);
            Result r = run.result();
            Summary.RunRow row = run.row();
            Result.Model m = r.model();
            h.append("<tr>").append(td(String.valueOf(i + 1), false)).append(td(row.identity().target(), true))
                    .append(td(r.target() == null ? "" : r.target().properties().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                            .reduce((a, b) -> a + " " + b).orElse("(defaults)"), true))
                    .append(td(load(r.parameters()), true)).append(td(m == null ? "" : "%,.0f".formatted(m.latencyMs()), false))
                    .append(td(m == null ? "" : "%,.0f".formatted(m.offeredLoadPerSecond()), false))
                    .append(td(m == null || m.poolBoundPerSecond() == null ? "none" : "%,.0f".formatted(m.poolBoundPerSecond()), false))
                    .append(td(f0(row.model().modelThroughput()), false)).append(td(f0(row.model().modelResponseMs()), false))
                    .append(td(f0(row.rates().goodput()), false)).append(td(ms(row.latency().p50Ms()), false))
                    .append(td(ms(row.latency().p95Ms()), false)).append(td(ms(row.latency().p99Ms()), false))
                    .append(td(row.requests().ko() == null ? "" : "%,d".formatted(row.requests().ko()), false))
                    .append(td(pct(row.cpu().serverCpu()), false)).append(td(pct(row.cpu().machineCpu()), false))
                    .append(td(row.notes().flags(), true)).append("<td class=l>").append(link(run.folder(), out)).append("</td></tr>\n");
        }
        h.append("</table>\n<p>Folders: ");
        List<String> names = new ArrayList<>();
        for (Run run : runs) {
            names.add(esc(run.folder().dir().toAbsolutePath().normalize().toString()));
        }
        h.append(String.join(", ", names)).append("</p>\n</body></html>\n");
        return h.toString();
    }

    /** The run's own page when it has one, else its result file; relative to the page, so that both can move together. */
    private static String link(RunFolder folder, Path out) {
        Path page = RunPage.of(folder.resultFile());
        Path target = Files.isRegularFile(page) ? page : folder.resultFile();
        String href = out.toAbsolutePath().normalize().relativize(target.toAbsolutePath().normalize()).toString();
        return "<a href=\"%s\">%s</a>".formatted(esc(href), esc(target.getFileName().toString()));
    }

    private static String load(Result.Parameters p) {
        return p.open() ? p.injection().rates().stream().map(Figures::rate).reduce((a, b) -> a + ", " + b).orElse("") + " req/s"
                : "%,d users, %d requests each, think %d-%d ms".formatted(p.users(), p.pacing().repeat(), p.pacing().thinkMinMs(), p.pacing().thinkMaxMs());
    }

    private static String ms(Long ms) {
        return ms == null ? "" : "%,d".formatted(ms);
    }
}
