package dev.latencylab.lab.page;

import static dev.latencylab.lab.page.Html.f0;
import static dev.latencylab.lab.page.Html.pct;

import java.awt.Color;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

import dev.latencylab.load.result.Jvm;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.lab.format.Figures;
import dev.latencylab.lab.layout.OutputFile;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.run.TargetRun;
import dev.latencylab.lab.targets.Target;
import dev.latencylab.lab.summary.Summary;
import dev.latencylab.lab.sweep.RunLines;

/**
 * The page of one run's result file, beside it: its counts, percentiles, CPU and model numbers, a chart of its
 * completions per second, and for a run split over several injectors each injector's part (its own series drawn when
 * its file is at hand); for an open run, its levels and their verdicts. Gatling's HTML reports stay per injector: this
 * is the page of the merged result. The one owner of the page's and its chart's file names.
 */
public final class RunPage {

    private RunPage() {
    }

    /** result.json's page: result.html (a file not named .json gets .html added). */
    public static Path of(Path resultFile) {
        return resultFile.resolveSibling(stem(resultFile) + ".html");
    }

    /** The page's chart: result-per-second.png (a bitmap: an SVG of a long run's series is hundreds of KB). */
    public static Path chartOf(Path resultFile) {
        return resultFile.resolveSibling(stem(resultFile) + "-per-second.png");
    }

    private static String stem(Path resultFile) {
        String name = resultFile.getFileName().toString();
        return name.endsWith(".json") ? name.substring(0, name.length() - ".json".length()) : name;
    }

    /** Writes the page and its chart beside the result file; returns the page. */
    public static Path write(Path resultFile) {
        Result r = ResultFile.read(resultFile);
        Map<Integer, Result> parts = new java.util.TreeMap<>();
        if (r.parts() != null) {
            for (Result.Part p : r.parts()) {
                Path f = resultFile.toAbsolutePath().getParent().resolve(p.file()).normalize();
                if (Files.isRegularFile(f)) {
                    parts.put(p.index(), ResultFile.read(f));
                }
            }
        }
        OutputFile.png(chartOf(resultFile), chart(r, parts));
        Path page = of(resultFile);
        OutputFile.text(page, html(resultFile, r, parts));
        return page;
    }

    /** Completions and OK responses per second of the run, each injector's completions beside them on the same clock. */
    private static XYChart chart(Result r, Map<Integer, Result> parts) {
        XYChart chart = new XYChartBuilder().width(1100).height(480).title("Responses per second")
                .xAxisTitle("second since the run started").yAxisTitle("responses per second").build();
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(org.knowm.xchart.style.Styler.LegendLayout.Horizontal);
        chart.getStyler().setMarkerSize(0);
        series(chart, "completed (OK and KO)", r.throughput().completedPerSecond(), 0, Color.BLACK);
        if (r.throughput().okPerSecond() != null) {
            series(chart, "OK (goodput)", r.throughput().okPerSecond(), 0, new Color(0, 130, 0));
        }
        modelLines(chart, r, "model", null);
        Color[] colors = {new Color(31, 119, 180), new Color(214, 39, 40), new Color(148, 103, 189), new Color(140, 86, 75)};
        java.time.Instant start = java.time.Instant.parse(r.start());
        for (Map.Entry<Integer, Result> part : parts.entrySet()) {
            // its seconds on the merged clock, as the merge aligned them
            int offset = (int) Math.round(java.time.Duration.between(start, java.time.Instant.parse(part.getValue().start())).toMillis() / 1000.0);
            XYSeries s = series(chart, "injector %d completed".formatted(part.getKey()), part.getValue().throughput().completedPerSecond(),
                    offset, colors[part.getKey() % colors.length]);
            s.setLineStyle(new java.awt.BasicStroke(1.5f, java.awt.BasicStroke.CAP_BUTT, java.awt.BasicStroke.JOIN_ROUND, 10f, new float[] {6f, 4f}, 0f));
        }
        return chart;
    }

    /**
     * The model's lines where it makes a claim: a closed run's offered load N/(L+Z) and a pool's T/L across its plateau
     * (all users active); an open run's expected throughput per level across the seconds the level was held, and T/L.
     */
    static void modelLines(XYChart chart, Result r, String prefix, Color color) {
        Result.Model m = r.model();
        if (m == null) {
            return;
        }
        double end = Math.max(1, r.throughput().completedPerSecond().length);
        Double bound = m.poolBoundPerSecond();
        if (r.open() != null) {
            List<Double> x = new java.util.ArrayList<>();
            List<Double> y = new java.util.ArrayList<>();
            for (Result.Level l : r.open().levels()) {
                if (l.modelThroughputPerSecond() != null && l.counts().arrivals() > 0) {
                    x.addAll(List.of(l.window().fromSecond(), l.window().toSecond()));
                    y.addAll(List.of(l.modelThroughputPerSecond(), l.modelThroughputPerSecond()));
                }
            }
            if (!x.isEmpty()) {
                dashed(chart.addSeries(prefix + ": expected per level", x, y), color != null ? color : new Color(230, 120, 0));
            }
        }
        else {
            double from = r.plateau() == null ? 0 : r.plateau().fromSecond();
            double to = r.plateau() == null ? end : r.plateau().toSecond();
            dashed(chart.addSeries(prefix + ": offered load N/(L+Z) %,.0f req/s".formatted(m.offeredLoadPerSecond()), List.of(from, to),
                    List.of(m.offeredLoadPerSecond(), m.offeredLoadPerSecond())), color != null ? color : new Color(230, 120, 0));
        }
        if (bound != null) {
            dashed(chart.addSeries(prefix + ": T/L %,.0f req/s (%d threads or connections)".formatted(bound, m.threads()), List.of(0.0, end),
                    List.of(bound, bound)), color != null ? color : new Color(180, 0, 0));
        }
    }

    private static void dashed(XYSeries s, Color color) {
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(color);
        s.setLineStyle(new java.awt.BasicStroke(2f, java.awt.BasicStroke.CAP_BUTT, java.awt.BasicStroke.JOIN_ROUND, 10f, new float[] {10f, 5f}, 0f));
    }

    static XYSeries series(XYChart chart, String name, long[] perSecond, int offset, Color color) {
        List<Integer> x = IntStream.range(0, Math.max(perSecond.length, 1)).map(i -> i + offset).boxed().toList();
        List<Long> y = perSecond.length == 0 ? List.of(0L) : java.util.Arrays.stream(perSecond).boxed().toList();
        XYSeries s = chart.addSeries(name, x, y);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(color);
        return s;
    }

    /** A line of the page's first table: what it counts and its value in words. */
    record Fact(String name, String value) {
    }

    /** An injector's part of a split run, with its Gatling report's link when the report is at hand (null: none). */
    record InjectorLine(Result.Part part, String report) {
    }

    private static String html(Path resultFile, Result r, Map<Integer, Result> parts) {
        Result.Parameters p = r.parameters();
        boolean split = r.parts() != null && !r.parts().isEmpty();
        Path folder = resultFile.toAbsolutePath().getParent();
        Path gatlingReport = new RunFolder(folder).reportPage();
        List<InjectorLine> injectors = !split ? List.of() : r.parts().stream().map(part -> {
            Path report = new RunFolder(folder.resolve(part.file()).normalize().getParent()).reportPage();
            return new InjectorLine(part, Files.isRegularFile(report) ? folder.relativize(report).toString() : null);
        }).toList();
        Map<String, Object> page = new java.util.HashMap<>();
        page.put("name", name(r));
        page.put("verdict", verdict(resultFile, r));
        page.put("when", "%s: %s to %s (%.1f s). %s".formatted(p.endpoint().baseUrl() + p.endpoint().path(), DATE.format(Instant.parse(r.start())),
                TIME.format(Instant.parse(r.end())), r.durationSeconds(), load(r.simulation(), p)));
        page.put("gatlingReport", !split && Files.isRegularFile(gatlingReport) ? folder.relativize(gatlingReport).toString() : null);
        page.put("r", r);
        page.put("facts", facts(r, split));
        page.put("chart", chartOf(resultFile).getFileName().toString());
        page.put("injectors", injectors);
        page.put("injectorsNotHere", split ? r.parts().size() - parts.size() : 0);
        page.put("resultFile", resultFile.getFileName().toString());
        return Templates.render("run.jte", page);
    }

    /** What went on the wire, and over TLS which certificates the load trusted ("insecure": none checked). */
    static String protocol(Result.Endpoint e) {
        dev.latencylab.load.tls.Protocol p = dev.latencylab.load.tls.Protocol.ofId(e.protocol());
        String wire = switch (p) {
            case H1 -> "HTTP/1.1";
            case H1_TLS -> "HTTP/1.1 over TLS";
            case H2 -> "HTTP/2 over TLS";
        };
        return !p.tls() ? wire : "%s, trusting %s".formatted(wire, switch (String.valueOf(e.trust())) {
            case "insecure" -> "every certificate: none checked (--insecure)";
            case "system" -> "the system's certificate authorities";
            default -> "the certificates of its trust store alone (the run's own, or --ca-cert's)";
        });
    }

    /** The first table's lines: counts, response times, throughput, the model, the plateau's CPU, the injector, the JVM. */
    private static List<Fact> facts(Result r, boolean split) {
        List<Fact> facts = new java.util.ArrayList<>();
        facts.add(new Fact("protocol", protocol(r.parameters().endpoint())));
        facts.add(new Fact("requests", split ? dev.latencylab.load.merge.ResultMerge.requestCounts(r) : "%,d".formatted(r.requests().total())));
        facts.add(new Fact("OK / KO", "%,d / %,d (%.2f%% KO)".formatted(r.requests().ok(), r.requests().ko(), r.requests().koPercent())));
        facts.add(new Fact("KO by reason", r.requests().koByReason().isEmpty() ? "none" : r.requests().koByReason().entrySet().stream()
                .map(e -> "%s: %,d".formatted(e.getKey(), e.getValue())).collect(Collectors.joining(", "))));
        Result.ResponseTimes t = r.responseTimeMs();
        facts.add(new Fact("response time, ms", t.count() == 0 ? "none completed" : "p50 %,d, p95 %,d, p99 %,d, p99.9 %,d, max %,d"
                .formatted(t.p50(), t.p95(), t.p99(), t.p999(), t.max())));
        facts.add(new Fact("completed per second", "mean %,.1f, plateau %s, peak %,d".formatted(r.throughput().meanPerSecond(),
                f1(r.throughput().plateauPerSecond()), r.throughput().peakPerSecond())));
        facts.add(new Fact("OK per second (goodput)", "mean %s, plateau %s".formatted(f1(r.throughput().goodputMeanPerSecond()),
                f1(r.throughput().goodputPlateauPerSecond()))));
        if (r.model() != null) {
            Result.Model m = r.model();
            String bound = m.threads() == null ? "no pool bounds it" : "pool bound %s req/s (%s, %.0f ms each)".formatted(
                    f1(m.poolBoundPerSecond()), r.target() == null ? "a pool of " + m.threads() : Target.poolOf(r.target().id(), m.threads()),
                    m.latencyMs());
            facts.add(new Fact("model", "offered %,.1f req/s, %s, expected %,.1f req/s%s; response time %,.0f ms".formatted(m.offeredLoadPerSecond(),
                    bound, m.throughputAtFullPopulationPerSecond(), m.saturated() ? ", saturated" : "", m.responseTimeMsAtFullPopulation())));
        }
        if (r.slo() != null) {
            facts.add(new Fact("SLO", slo(r.slo())));
        }
        if (dev.latencylab.lab.summary.Flags.neverAllActive(r)) {
            facts.add(new Fact("plateau", "none: never all %,d users active at once (at most %,d), so its 'plateau' figures are no plateau's"
                    .formatted(r.parameters().users(), r.injector().peakActiveUsers())));
        }
        else if (dev.latencylab.lab.summary.Flags.levelNotHeld(r)) {
            facts.add(new Fact("plateau", "none: the injector did not hold a level's rate (its arrivals started late by more than a "
                    + "tenth of the level, or were never sent), so that level's figures are not its rate's"));
        }
        else if (r.plateau() != null) {
            Result.Plateau pl = r.plateau();
            facts.add(new Fact("plateau", "seconds %d to %d: CPU of %s %s, machine %s, server %s".formatted(pl.fromSecond(), pl.toSecond(),
                    split ? "the injectors (summed)" : "the injector", pct(pl.injectorCpu()), pct(pl.machineCpu()), pct(pl.serverCpu()))));
        }
        Result.ConnectionPool pool = r.server() == null ? null : r.server().connectionPool();
        if (pool != null && r.server().pools() == null) { // a file written before every pool was read
            facts.add(new Fact("connection pool", "%s, %s connections: in use mean %s, most %s; waiting for one mean %s, most %s".formatted(
                    pool.library(), f0(pool.maxConnections()), f1(pool.active().mean()), f0(pool.active().max()), f1(pool.pending().mean()),
                    f0(pool.pending().max()))));
        }
        facts.add(new Fact("injector open files", "most %s of %,d allowed (per process)".formatted(f0(r.injector().openFiles().max()),
                r.injector().openFilesLimit())));
        facts.add(new Fact("the target's JVM", jvm(r.jvm())));
        return facts;
    }

    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("d MMM yyyy, HH:mm:ss 'UTC'", Locale.ENGLISH).withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ENGLISH).withZone(ZoneOffset.UTC);

    /**
     * What the run measured in one line: the console's summary line, or for a ladder of levels its {@link #ladder};
     * after why it failed, when its point.json says it did.
     */
    static String verdict(Path resultFile, Result r) {
        String failed = Summary.failure(resultFile);
        return (failed == null ? "" : "FAILED: %s. What it measured: ".formatted(failed))
                + (r.open() != null && r.open().levels().size() > 1 ? ladder(r.open(), r.model()) : RunLines.headline(Summary.row(resultFile)));
    }

    /** An open run of several levels (a capacity round) in one line: its highest level within the SLO and its first miss. */
    static String ladder(Result.Open o, Result.Model m) {
        Result.Level within = o.levels().stream().filter(l -> Boolean.TRUE.equals(l.withinSlo())).reduce((a, b) -> b).orElse(null);
        Result.Level missed = o.levels().stream().filter(l -> Boolean.FALSE.equals(l.withinSlo())).findFirst().orElse(null);
        String up = within == null ? "no level within the SLO" : "within the SLO up to %s %s (goodput %s req/s, p99 %s %s)"
                .formatted(Figures.rate(within.ratePerSecond()), rateUnit(o), f0(within.goodputPerSecond()), p99Timed(o),
                        ms(within.times().judged()));
        String miss = missed == null ? "no level missed it" : "first missed at %s %s (p99 %s %s, KO %,d)".formatted(
                Figures.rate(missed.ratePerSecond()), rateUnit(o), p99Timed(o), ms(missed.times().judged()), missed.counts().ko());
        String model = m == null || m.poolBoundPerSecond() == null ? "no pool bounds it in the model"
                : "the model's capacity T/L %,.0f req/s".formatted(m.poolBoundPerSecond());
        return "SLO p99 %s <= %,d ms, KO <= %s%%: %s; %s; %s".formatted(p99Timed(o), o.slo().sloP99Ms(), o.slo().sloKoPercent(), up, miss,
                model);
    }

    /** What an open run's rates count per second: requests, or users each running a flow of the user's. */
    public static String rateUnit(Result.Open o) {
        return Result.Open.rateUnit(o == null ? null : o.arrivalSends());
    }

    /** What an open run's levels' p99 is timed from: each arrival's due time, or (a flow) its requests' own times. */
    public static String p99Timed(Result.Open o) {
        return Result.Open.p99Timed(o == null ? null : o.arrivalSends());
    }

    /** The page's title and heading: "mvc-t200, 500 users, L 100 ms, 23 Nov 2026 13:05 UTC". */
    static String name(Result r) {
        Result.Parameters p = r.parameters();
        String target = r.target() == null ? "a server at " + p.endpoint().baseUrl() : r.target().id()
                + (r.target().properties().containsKey(TargetRun.JDK_PROPERTY) ? " on JDK " + r.target().properties().get(TargetRun.JDK_PROPERTY) : "");
        String load = !p.open() ? "%,d users".formatted(p.users())
                : p.injection().rates().size() == 1 ? Figures.rate(p.injection().rates().get(0)) + " " + rateUnit(r.open())
                : "%s to %s %s".formatted(Figures.rate(p.injection().rates().get(0)), Figures.rate(p.injection().rates().getLast()),
                        rateUnit(r.open()));
        String latency = r.model() == null ? p.endpoint().path() : "L %,.0f ms".formatted(r.model().latencyMs());
        String injectors = r.parts() == null || r.parts().isEmpty() ? "" : " on %d injectors".formatted(r.parts().size());
        return "%s, %s%s, %s, %s".formatted(target, load, injectors, latency, Figures.when(r.start()));
    }

    /** What the target's JVM recorded during the run, in a line; said plainly when it was not recorded. */
    static String jvm(Jvm j) {
        if (j == null) {
            return "not recorded (a run from before JVM events, one with --no-jvm-events, or a server the lab did not start)";
        }
        Jvm.Pinned p = j.pinned();
        return "GC %s; safepoints %s; virtual threads pinned (%d ms or more): %,d%s%s (flight recording: %s)".formatted(pauses(j.gc()),
                pauses(j.safepoints()), p.thresholdMs(), p.count(), p.count() == 0 ? "" : ", %,d of them at %s".formatted(p.topStackCount(),
                        String.join(" < ", p.topStack().subList(0, Math.min(3, p.topStack().size())))),
                j.tls() == null ? "" : "; TLS handshakes %,d (%s)".formatted(j.tls().count(), j.tls().protocol()), j.recording());
    }

    private static String pauses(Jvm.Pauses p) {
        return p.count() == 0 ? "none" : "%,d pauses, %,.1f ms in all, longest %,.1f ms".formatted(p.count(), p.totalMs(), p.longestMs());
    }

    /** The verdict the run's file keeps (./lab run --slo): met or missed, each objective with the run's value against its limit. */
    public static String slo(dev.latencylab.load.result.SloVerdict v) {
        return (v.met() ? "met: " : "missed: ") + v.objectives().stream().map(o -> "%s %s %s %s %s".formatted(o.metric(),
                o.value() == null ? "none" : Figures.value(o.value()) + " " + o.unit(),
                o.met() ? (o.atMost() ? "<=" : ">=") : (o.atMost() ? ">" : "<"), Figures.given(o.limit()), o.unit()))
                .collect(Collectors.joining(", "));
    }

    /** The run's load as its simulation made it: the lab's (its pacing as set), or a user's (its pacing its own). */
    private static String load(String simulation, Result.Parameters p) {
        if (simulation != null && !simulation.equals(Result.LAB_SIMULATION)) {
            String given = p.open() ? "users arriving at %s users/s, each level held %d s after a %d s ramp, each user running the flow once"
                    .formatted(p.injection().rates().stream().map(Figures::rate).collect(Collectors.joining(", ")), p.injection().levelSeconds(),
                            p.pacing().rampSeconds())
                    : "%,d users over a %d s ramp".formatted(p.users(), p.pacing().rampSeconds());
            return "Your simulation %s: %s (LabLoad.load); it paces itself, with its own requests and think times.".formatted(simulation, given);
        }
        if (p.open()) {
            return "Open model: %s req/s, each level held %d s after a %d s ramp, %s arrivals.".formatted(
                    p.injection().rates().stream().map(Figures::rate).collect(Collectors.joining(", ")), p.injection().levelSeconds(), p.pacing().rampSeconds(),
                    p.injection().arrivals());
        }
        return "Closed model: %,d users over a %d s ramp, %d requests each, think %d-%d ms, connections %s.".formatted(p.users(),
                p.pacing().rampSeconds(), p.pacing().repeat(), p.pacing().thinkMinMs(), p.pacing().thinkMaxMs(), p.connections());
    }

    static String ms(Result.ResponseTimes t) {
        return t == null || t.p99() == null ? "" : "%,d ms".formatted(t.p99());
    }

    static String f1(Double v) {
        return v == null ? "n/a" : "%,.1f".formatted(v);
    }

    static String ms(Long v) {
        return v == null ? "-" : "%,d".formatted(v);
    }
}
