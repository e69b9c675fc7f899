package dev.latencylab.lab;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import dev.latencylab.load.Json;
import dev.latencylab.load.Result;
import dev.latencylab.load.ResultFile;
import dev.latencylab.load.SimulationSettings;
import dev.latencylab.load.TargetPorts;

/**
 * ./lab capacity: the highest arrival rate a target serves within an SLO, found with ladders of open-model levels,
 * each ladder on a fresh target (see {@link CapacitySearch}). Its folder holds capacity.json (the answer, the model's
 * lines beside it, every level), levels.csv, the hockey-stick chart and each ladder's run folder (round-1, ...).
 */
@Command(name = "capacity", mixinStandardHelpOptions = true, description = {
        "Find the highest arrival rate (open model) a target serves within an SLO: a doubling ladder of rates, then "
                + "ladders between the last level within the SLO and the first that missed it, each on a fresh target.",
        "With --report DIR...: rebuild finished searches from their result files, print their verdict and Markdown table and draw them on one chart instead."})
final class Capacity implements Callable<Integer> {

    /** A capacity search as capacity.json holds it (named Search, not Record: java.lang.Record is in scope). machineCeilingPerSecond: see CapacitySearch.machineCeiling. */
    record Search(String target, long latencyMs, Integer poolThreads, long sloP99Ms, double sloKoPercent, String arrivals,
            long levelSeconds, long rampSeconds, Double modelCapacityPerSecond, Double machineCeilingPerSecond,
            Double capacityPerSecond, Double firstMissPerSecond, boolean bracketed, String summary,
            CapacitySearch.Level largestCoGap, List<Round> rounds, List<CapacitySearch.Level> levels,
            Map<String, Object> machine, String created,
            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) Boolean interrupted) {

        /** Stopped by a signal before its last ladder: true; absent (null) in a search that ran to its end. */
        boolean wasInterrupted() {
            return Boolean.TRUE.equals(interrupted);
        }
    }

    /** One ladder: its rates, folder, why it stopped early (null: it ran to its end), and whether its run counts. */
    record Round(int round, List<Double> rates, String folder, String stoppedEarly, String status, String reason) {
    }

    /** Ladder k's run folder in a search's folder (capacity.json records each as its Round.folder). */
    static RunFolder round(Path search, int k) {
        return new RunFolder(search.resolve("round-" + k));
    }

    static final String FILE = "capacity.json";
    static final String CHART = "hockey-stick";
    /** A search's levels, one row each. */
    static final String LEVELS = "levels.csv";

    @CommandLine.ParentCommand
    LatencyLab lab;

    @Option(names = "--target", defaultValue = "webflux", description = "Target id (default: ${DEFAULT-VALUE}), of the forms ./lab run --help lists.")
    String target;

    @Option(names = "--latency-ms", defaultValue = "100", description = "Latency of each request (default: ${DEFAULT-VALUE}).")
    long latencyMs;

    @Option(names = "--slo-p99-ms", description = "The SLO: p99 from each arrival's due time at most this (default: latency + "
            + SimulationSettings.SLO_MARGIN_MS + ").")
    Long sloP99Ms;

    @Option(names = "--max-ko-percent", defaultValue = "0", description = "The SLO: at most this share of KO (default: ${DEFAULT-VALUE}).")
    double maxKoPercent;

    @Option(names = "--start-rate", description = "First level (default: a quarter of T/L for a pool, else 250 req/s).")
    Double startRate;

    @Option(names = "--max-rate", description = "Highest level of the first ladder (default: 2 T/L for a pool, else 20000 req/s).")
    Double maxRate;

    @Option(names = "--level-seconds", defaultValue = "10", description = "How long each rate is held (default: ${DEFAULT-VALUE}; at least "
            + SimulationSettings.MIN_LEVEL_SECONDS + ").")
    int levelSeconds;

    @Option(names = "--ramp-seconds", defaultValue = "3", description = "Ramp to each level (default: ${DEFAULT-VALUE}).")
    int rampSeconds;

    @Option(names = "--refine-rounds", defaultValue = "2", description = "Ladders between the last level within the SLO and the first that missed (default: ${DEFAULT-VALUE}).")
    int refineRounds;

    @Option(names = "--refine-levels", defaultValue = "4", description = "Levels of each such ladder (default: ${DEFAULT-VALUE}).")
    int refineLevels;

    @Option(names = "--arrivals", defaultValue = "uniform", description = "uniform or poisson (default: ${DEFAULT-VALUE}).")
    String arrivals;

    @Option(names = "--port", description = "Port of the target (default: " + TargetPorts.MVC + " for MVC, " + TargetPorts.WEBFLUX + " for WebFlux).")
    Integer port;

    @CommandLine.Mixin
    LatencyLab.GatlingOptions gatlingOptions;

    @Option(names = "--warmup-seconds", defaultValue = "5", description = "Light load on each fresh target first (default: ${DEFAULT-VALUE}).")
    int warmupSeconds;

    @Option(names = "--results", description = "Folder of the searches (default: " + LatencyLab.SEARCHES + " in the repository).")
    Path results;

    @Option(names = "--name", description = "The search's folder name (default: <target>-l<latency>-<timestamp>).")
    String name;

    @Option(names = "--report", arity = "1..*", paramLabel = "DIR", description = "Finished searches: rebuild each from its result files, print their verdict and table, draw them on one chart in --out.")
    List<Path> report;

    @Option(names = "--out", description = "With --report: folder of the chart of all of them (default: the parent of the first).")
    Path out;

    @Override
    public Integer call() {
        if (report != null) {
            return report();
        }
        Target t = Target.parse(target);
        if (latencyMs < 1 || latencyMs > Inputs.MAX_LATENCY_MS) {
            throw new IllegalArgumentException("--latency-ms %d: give 1 to %,d ms (the model's T/L needs a latency; the targets answer 400 above %,d)"
                    .formatted(latencyMs, Inputs.MAX_LATENCY_MS, Inputs.MAX_LATENCY_MS));
        }
        if (refineRounds < 0 || refineLevels < 1) {
            throw new IllegalArgumentException("--refine-rounds %d, --refine-levels %d: give 0 or more ladders of 1 or more levels"
                    .formatted(refineRounds, refineLevels));
        }
        Inputs.seconds("--warmup-seconds", warmupSeconds);
        if (name != null) {
            Inputs.folderName("--name", name);
        }
        Path repo = lab.repo.toAbsolutePath().normalize();
        double model = t.poolThreads() > 0 ? t.poolThreads() * 1000.0 / latencyMs : Double.NaN;
        double start = startRate != null ? startRate : t.poolThreads() > 0 ? CapacitySearch.round(model / 4) : 250;
        double max = maxRate != null ? maxRate : t.poolThreads() > 0 ? 2 * model : 20_000;
        if (!(start > 0) || !(max >= start)) {
            throw new IllegalArgumentException("--start-rate %s and --max-rate %s: give 0 < start <= max (requests per second)"
                    .formatted(Figures.rate(start), Figures.rate(max)));
        }
        List<Double> first = CapacitySearch.firstLadder(start, max);
        settings(t, first); // bad values (SLO, level length, arrivals) stop here, before a target starts
        int p = Inputs.port("--port", port == null ? t.defaultPort() : port);
        Path searches = results != null ? results.toAbsolutePath() : repo.resolve(LatencyLab.SEARCHES);
        LatencyLab.sayLeftBehind(searches);
        Path dir = LatencyLab.newFolder(searches,
                name != null ? name : "%s-l%d-%s".formatted(t.id(), latencyMs, LatencyLab.stamp()));
        PrintStream out = System.out;
        out.printf("latency-lab: capacity of %s at %d ms latency, SLO p99 <= %d ms from due and KO <= %s%%; folder %s%n", t.id(),
                latencyMs, slo(), maxKoPercent, dir);
        GatlingLauncher gatling = gatlingOptions.launcher(repo);
        List<CapacitySearch.Level> levels = new ArrayList<>();
        List<Round> rounds = new ArrayList<>();
        boolean failed = false;
        java.util.concurrent.atomic.AtomicBoolean stopped = new java.util.concurrent.atomic.AtomicBoolean();
        Search record;
        try (FolderLock lock = FolderLock.take(dir, "capacity --target " + t.id(), false);
                StopOnSignal signal = StopOnSignal.endingRun(gatling, () -> stopped.set(true), "stopped; the target and the simulation were ended; capacity.json says what the finished ladders found, "
                        + "as a lower bound (folder: " + dir + ")")) {
            List<Double> rates = first;
            for (int round = 1; round <= 1 + refineRounds && !rates.isEmpty(); round++) {
                out.printf("latency-lab: ladder %d: %s req/s, %d s each%n", round,
                        rates.stream().map(Figures::rate).collect(Collectors.joining(", ")), levelSeconds);
                RunFolder folder = round(dir, round);
                Optional<GatlingLauncher.Outcome> ran = TargetRun.run(repo, gatling, new TargetRun.Load(t, p, settings(t, rates), Map.of(),
                        folder, Duration.ofSeconds(warmupSeconds), 1), null, new LinkedHashMap<>(), stopped::get);
                if (ran.isEmpty() || stopped.get()) {
                    // what a ladder cut short measured is not a level's answer: its levels are left out
                    rounds.add(new Round(round, rates, dir.relativize(folder.dir()).toString(), null, "interrupted", "stopped by a signal"));
                    break;
                }
                GatlingLauncher.Outcome run = ran.get();
                if (!run.succeeded()) {
                    String why = String.join("; ", run.failures(folder.gatlingLog()));
                    rounds.add(new Round(round, rates, dir.relativize(folder.dir()).toString(), null, "failed", why));
                    System.err.println("latency-lab: RUN FAILED: " + why);
                    failed = true;
                    break;
                }
                Result r = ResultFile.read(folder.resultFile());
                for (Result.Level l : r.open().levels()) {
                    CapacitySearch.Level level = CapacitySearch.Level.of(round, l);
                    levels.add(level);
                    if (l.arrivals() > 0) {
                        out.printf("  %10s req/s  goodput %10s  p99 %,7d ms from due (Gatling %s)  %s%n", Figures.rate(l.ratePerSecond()),
                                l.goodputPerSecond() == null ? "-" : "%,.1f".formatted(l.goodputPerSecond()), level.p99FromDueMs(), level.p99Ms() == null ? "-" : "%,d".formatted(level.p99Ms()), l.verdict());
                    }
                }
                rounds.add(new Round(round, rates, dir.relativize(folder.dir()).toString(), r.open().stoppedEarly(), "done", null));
                CapacitySearch.Outcome now = CapacitySearch.outcome(levels);
                rates = now.bracketed() ? CapacitySearch.refinement(first, now.capacity(), now.firstMiss(), refineLevels) : List.of();
            }
            // written before the signal hook is released: a search stopped by Ctrl-C keeps what its finished ladders found
            record = withLevels(new Search(t.id(), latencyMs, t.poolThreads() > 0 ? t.poolThreads() : null, slo(), maxKoPercent,
                    arrivals, levelSeconds, rampSeconds, Double.isNaN(model) ? null : model, null, null, null, false, null, null, rounds,
                    List.of(), Machine.fingerprint(), Instant.now().toString(), stopped.get() ? true : null), levels);
            write(dir, record);
            // said before the signal hook is released: a stopped search's own words come before the JVM ends
            out.printf("latency-lab: capacity of %s: %s%n", t.id(), record.summary());
        }
        if (record.wasInterrupted()) {
            return LatencyLab.FAILED; // (a signal's exit code, 130 or 143, is the JVM's: it ends after its hooks)
        }
        out.printf("  model: %s; this machine's ceiling measured at the busiest level within the SLO: %s%n",
                Double.isNaN(model) ? "no pool bounds it (T/L: none)" : "T/L = %s req/s".formatted(Figures.rate(model)),
                record.machineCeilingPerSecond() == null ? "none" : "%,.0f req/s".formatted(record.machineCeilingPerSecond()));
        out.println("  bounded by " + Verdict.capacityBound(record));
        out.println("Capacity file: " + dir.resolve(FILE));
        out.println("Chart: " + dir.resolve(CHART + ".png"));
        return failed ? LatencyLab.FAILED : LatencyLab.OK;
    }

    private long slo() {
        return sloP99Ms != null ? sloP99Ms : latencyMs + SimulationSettings.SLO_MARGIN_MS;
    }

    /** One ladder's simulation settings, checked as the run will check them. */
    private SimulationSettings settings(Target t, List<Double> rates) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(SimulationSettings.INJECTION, "open");
        m.put(SimulationSettings.RATE, rates.stream().map(SimulationSettings::rate).collect(Collectors.joining(",")));
        m.put(SimulationSettings.PATH, t.path(latencyMs));
        m.put(SimulationSettings.RAMP_SECONDS, String.valueOf(rampSeconds));
        m.put(SimulationSettings.LEVEL_SECONDS, String.valueOf(levelSeconds));
        m.put(SimulationSettings.ARRIVALS, arrivals);
        m.put(SimulationSettings.SLO_P99_MS, String.valueOf(slo()));
        m.put(SimulationSettings.SLO_KO_PERCENT, String.valueOf(maxKoPercent));
        m.put(SimulationSettings.STOP_ON_SLO_MISS, "true");
        if (t.poolThreads() > 0) {
            m.put(SimulationSettings.MODEL_THREADS, String.valueOf(t.poolThreads()));
        }
        return SimulationSettings.from(m);
    }

    /** The search with these levels: its outcome, ceiling and largest gap computed from them, the levels sorted by rate. */
    static Search withLevels(Search r, List<CapacitySearch.Level> levels) {
        CapacitySearch.Outcome outcome = CapacitySearch.outcome(levels);
        boolean interrupted = r.wasInterrupted();
        return new Search(r.target(), r.latencyMs(), r.poolThreads(), r.sloP99Ms(), r.sloKoPercent(), r.arrivals(), r.levelSeconds(),
                r.rampSeconds(), r.modelCapacityPerSecond(), CapacitySearch.machineCeiling(levels), outcome.capacity(), outcome.firstMiss(),
                outcome.bracketed() && !interrupted, interrupted ? interrupted(outcome) : outcome.describe(), largestGap(levels), r.rounds(),
                levels.stream().sorted(Comparator.comparingDouble(CapacitySearch.Level::rate).thenComparingInt(CapacitySearch.Level::round)).toList(),
                r.machine(), r.created(), r.interrupted());
    }

    /**
     * A finished search rebuilt from its rounds' result files (the numbers are theirs; capacity.json keeps what they do
     * not hold: the target, the rounds, the machine), and written again with its table and chart.
     */
    static Search rebuild(Path dir) {
        Search r = read(dir);
        List<CapacitySearch.Level> levels = new ArrayList<>();
        for (Round round : r.rounds()) {
            if (round.status().equals("done")) {
                ResultFile.read(new RunFolder(dir.resolve(round.folder())).resultFile()).open().levels().stream()
                        .map(l -> CapacitySearch.Level.of(round.round(), l)).forEach(levels::add);
            }
        }
        Search again = withLevels(r, levels);
        write(dir, again);
        return again;
    }

    /** A search stopped before its last ladder: what its finished ladders found, as the lower bound it is. */
    private static String interrupted(CapacitySearch.Outcome outcome) {
        return "interrupted before the search finished: " + (outcome.capacity() == null ? "no capacity found"
                : "at least %s req/s within the SLO in the finished ladders%s; run the search again for its answer".formatted(
                        Figures.rate(outcome.capacity()), outcome.firstMiss() == null ? ""
                                : " (%s req/s missed; the refinement between them did not finish)".formatted(Figures.rate(outcome.firstMiss()))));
    }

    /** The level with the widest gap between p99 from due and p99 by Gatling's clock. */
    private static CapacitySearch.Level largestGap(List<CapacitySearch.Level> levels) {
        return levels.stream().filter(l -> l.coGapP99Ms() != null).max(Comparator.comparingLong(CapacitySearch.Level::coGapP99Ms)).orElse(null);
    }

    static void write(Path dir, Search record) {
        OutputFile.json(dir.resolve(FILE), Json.MAPPER, record);
        Summary.writeCsv(record.levels(), CapacitySearch.Level.class, dir.resolve(LEVELS));
        draw(List.of(record), dir);
    }

    static Search read(Path dir) {
        Path file = dir.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(dir + " holds no " + FILE + ": give a folder that ./lab capacity made");
        }
        return Json.MAPPER.readValue(file.toFile(), Search.class);
    }

    private Integer report() {
        List<Search> records = report.stream().map(Capacity::rebuild).toList();
        Path chartDir = out != null ? out : report.get(0).toAbsolutePath().normalize().getParent();
        draw(records, chartDir);
        System.out.print(markdown(records));
        return LatencyLab.OK;
    }

    /** The searches' verdict, then their table: one row per search. */
    static String markdown(List<Search> records) {
        StringBuilder md = new StringBuilder(Verdict.capacity(records)).append("\n| target | latency | capacity (req/s) | first miss (req/s) | model T/L | machine ceiling | p99 from due at capacity | largest CO gap (p99) |\n");
        md.append("|---|--:|--:|--:|--:|--:|--:|--:|\n");
        for (Search r : records) {
            CapacitySearch.Level at = r.levels().stream().filter(l -> r.capacityPerSecond() != null && l.rate() == r.capacityPerSecond()
                    && Boolean.TRUE.equals(l.withinSlo())).findFirst().orElse(null);
            CapacitySearch.Level gap = r.largestCoGap();
            md.append("| %s | %d ms | %s | %s | %s | %s | %s | %s |\n".formatted(r.target(), r.latencyMs(),
                    r.capacityPerSecond() == null ? (r.wasInterrupted() ? "none (interrupted)" : "below the first level")
                            : (r.bracketed() ? "" : "≥ ") + Figures.rate(r.capacityPerSecond()) + (r.wasInterrupted() ? " (interrupted)" : ""),
                    r.firstMissPerSecond() == null ? "none" : Figures.rate(r.firstMissPerSecond()),
                    r.modelCapacityPerSecond() == null ? "none (no pool)" : Figures.rate(r.modelCapacityPerSecond()),
                    r.machineCeilingPerSecond() == null ? "–" : "%,.0f".formatted(r.machineCeilingPerSecond()),
                    at == null ? "–" : "%,d ms".formatted(at.p99FromDueMs()),
                    gap == null ? "–" : "%,d ms at %s req/s (%,d vs %,d)".formatted(gap.coGapP99Ms(), Figures.rate(gap.rate()),
                            gap.p99FromDueMs(), gap.p99Ms())));
        }
        return md.toString();
    }

    /** The files {@link #draw} writes in dir. */
    static List<Path> charts(Path dir) {
        return List.of(dir.resolve(CHART + ".svg"), dir.resolve(CHART + ".png"));
    }

    /** The hockey stick of these searches (see {@link #chart}), as SVG and PNG in dir. */
    static void draw(List<Search> records, Path dir) {
        XYChart chart = chart(records);
        OutputFile.svg(dir.resolve(CHART + ".svg"), chart);
        OutputFile.png(dir.resolve(CHART + ".png"), chart);
    }

    /**
     * The hockey stick: p99 from each request's due time (solid: the whole wait a user would see) and from when Gatling
     * sent it (dashed: without the injector's own lag; a gap between the two is coordinated omission) against the offered rate, log scale, each
     * target in its colour and marker, the same as on every sweep's page (a rate measured in several ladders: the
     * median of them); the SLO as a grey line; each target's model capacity T/L (dashed) and measured machine ceiling
     * (dotted) as vertical lines in its colour.
     */
    static XYChart chart(List<Search> records) {
        long latency = records.get(0).latencyMs();
        XYChart chart = new XYChartBuilder().width(1300).height(560)
                .title("p99 against offered rate, " + records.stream().map(r -> r.latencyMs() + " ms").distinct()
                        .collect(Collectors.joining(", ")) + " latency (solid: from when each request was due; dashed: from when sent)")
                .xAxisTitle("offered rate (requests per second)").yAxisTitle("p99 (ms, log scale)").build();
        Styler styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        styler.setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setYAxisLogarithmic(true);
        double maxRate = 0;
        double maxMs = latency;
        for (Search r : records) {
            for (CapacitySearch.Level l : r.levels()) {
                if (l.p99FromDueMs() != null) {
                    maxRate = Math.max(maxRate, l.rate());
                    maxMs = Math.max(maxMs, l.p99FromDueMs());
                }
            }
        }
        double top = ComparisonPage.niceCeiling(maxMs * 1.2);
        double bottom = Math.max(1, latency / 2.0);
        chart.getStyler().setYAxisMin(bottom);
        chart.getStyler().setYAxisMax(top);
        double right = ComparisonPage.niceCeiling(maxRate * 1.05);
        chart.getStyler().setXAxisMin(0.0);
        chart.getStyler().setXAxisMax(right);
        for (int i = 0; i < records.size(); i++) {
            Search r = records.get(i);
            ComparisonPage.Style style = ComparisonPage.Style.of(r.target());
            Color color = style.color();
            // a rate measured in several ladders: one point, the median of them
            Map<Double, List<CapacitySearch.Level>> byRate = new java.util.TreeMap<>(r.levels().stream()
                    .filter(l -> l.p99FromDueMs() != null).collect(Collectors.groupingBy(CapacitySearch.Level::rate)));
            if (byRate.isEmpty()) {
                continue;
            }
            List<Double> rates = new ArrayList<>(byRate.keySet());
            XYSeries due = chart.addSeries(r.target() + ": p99 from when due", rates,
                    rates.stream().map(rate -> Math.max(1, median(byRate.get(rate), CapacitySearch.Level::p99FromDueMs))).toList());
            due.setLineColor(color);
            due.setMarkerColor(color);
            due.setMarker(style.marker());
            List<Double> timed = rates.stream().filter(rate -> byRate.get(rate).stream().anyMatch(l -> l.p99Ms() != null)).toList();
            if (timed.size() > 1) {
                XYSeries gatling = chart.addSeries(r.target() + ": p99 from when sent", timed,
                        timed.stream().map(rate -> Math.max(1, median(byRate.get(rate), CapacitySearch.Level::p99Ms))).toList());
                gatling.setLineColor(color);
                gatling.setMarker(SeriesMarkers.NONE);
                gatling.setLineStyle(new BasicStroke(1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
            }
            vertical(chart, r.target() + ": model T/L", r.modelCapacityPerSecond(), right, bottom, top, color, new float[] {6f, 4f});
            vertical(chart, r.target() + ": machine ceiling", r.machineCeilingPerSecond(), right, bottom, top, color, new float[] {1f, 4f});
        }
        List<Long> slos = records.stream().map(Search::sloP99Ms).distinct().toList();
        for (long slo : slos) {
            XYSeries s = chart.addSeries("SLO p99 " + slo + " ms", List.of(0.0, right), List.of((double) slo, (double) slo));
            s.setLineColor(Color.GRAY);
            s.setMarker(SeriesMarkers.NONE);
        }
        return chart;
    }

    private static double median(List<CapacitySearch.Level> levels, java.util.function.Function<CapacitySearch.Level, Long> ms) {
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
