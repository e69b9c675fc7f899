package dev.latencylab.lab.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import dev.latencylab.load.Result;
import dev.latencylab.load.ResultFile;
import dev.latencylab.load.SimulationSettings;
import dev.latencylab.load.TargetPorts;
import dev.latencylab.lab.capacity.Capacity;
import dev.latencylab.lab.capacity.CapacitySearch;
import dev.latencylab.lab.format.Figures;
import dev.latencylab.lab.layout.FolderLock;
import dev.latencylab.lab.layout.Folders;
import dev.latencylab.lab.layout.ResultsFolders;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.layout.SearchFolder;
import dev.latencylab.lab.machine.Machine;
import dev.latencylab.lab.page.CapacityReport;
import dev.latencylab.lab.page.Verdict;
import dev.latencylab.lab.run.GatlingLauncher;
import dev.latencylab.lab.run.RunOutcome;
import dev.latencylab.lab.run.StopOnSignal;
import dev.latencylab.lab.run.TargetRun;
import dev.latencylab.lab.targets.Target;

/**
 * ./lab capacity: the highest arrival rate a target serves within an SLO, found with ladders of open-model levels,
 * each ladder on a fresh target (see {@link CapacitySearch}); the search's folder is a {@link SearchFolder}.
 */
@Command(name = "capacity", mixinStandardHelpOptions = true, description = {
        "Find the highest arrival rate (open model) a target serves within an SLO: a doubling ladder of rates, then "
                + "ladders between the last level within the SLO and the first that missed it, each on a fresh target.",
        "With --report DIR...: finished searches, each checked against its ladders' result files: print their verdict and "
                + "Markdown table and draw them on one chart in --out instead; nothing is written into the searches' folders."})
final class CapacityCommand implements Callable<Integer> {

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
    GatlingOptions gatlingOptions;

    @Option(names = "--warmup-seconds", defaultValue = "5", description = "Light load on each fresh target first (default: ${DEFAULT-VALUE}).")
    int warmupSeconds;

    @Option(names = "--results", description = "Folder of the searches (default: " + ResultsFolders.SEARCHES + " in the repository).")
    Path results;

    @Option(names = "--name", description = "The search's folder name (default: <target>-l<latency>-<timestamp>).")
    String name;

    @Option(names = "--repeats", defaultValue = "1", description = "Searches made one after the other, each in <name>-r<k> (default: "
            + "${DEFAULT-VALUE}): ./lab compare takes their name without -r<k> as one side, their spread as the noise.")
    int repeats;

    @Option(names = "--report", arity = "1..*", paramLabel = "DIR", description = "Finished searches: check each against its result files, print their verdict and table, draw them on one chart in --out.")
    List<Path> report;

    @Option(names = "--out", description = "With --report: folder of the chart of all of them (default: the parent of the first; never a search's own folder).")
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
        if (repeats < 1 || repeats > MAX_REPEATS) {
            throw new IllegalArgumentException("--repeats %d: give 1 to %d searches".formatted(repeats, MAX_REPEATS));
        }
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
        Path searches = results != null ? results.toAbsolutePath() : repo.resolve(ResultsFolders.SEARCHES);
        ResultsFolders.sayLeftBehind(searches);
        String base = name != null ? name : "%s-l%d-%s".formatted(t.id(), latencyMs, ResultsFolders.stamp());
        List<Path> made = ResultsFolders.repeats(searches, base);
        if (repeats > 1 && !made.isEmpty()) {
            throw new IllegalArgumentException("--name %s: %s already holds repeats of that name (%s): give another --name".formatted(base,
                    searches, made.stream().map(d -> d.getFileName().toString()).collect(Collectors.joining(", "))));
        }
        GatlingLauncher gatling = gatlingOptions.launcher(repo);
        List<Capacity.Search> found = new ArrayList<>();
        for (int k = 1; k <= repeats; k++) {
            String folder = repeats == 1 ? base : ResultsFolders.repeat(base, k);
            Path dir = name != null ? ResultsFolders.namedFolder("--name", searches, folder, "give another --name (a search is never resumed)")
                    : ResultsFolders.newFolder(searches, folder);
            if (repeats > 1) {
                System.out.printf("latency-lab: search %d of %d%n", k, repeats);
            }
            Capacity.Search record = search(repo, gatling, t, p, model, first, dir);
            if (record.wasInterrupted()) {
                return LatencyLab.FAILED; // (a signal's exit code, 130 or 143, is the JVM's: it ends after its hooks)
            }
            found.add(record);
        }
        if (repeats > 1) {
            System.out.printf("latency-lab: capacities of the %d searches: %s req/s; compare them with others: ./lab compare %s OTHER%n", repeats,
                    found.stream().map(r -> r.answer().capacityPerSecond() == null ? "none" : Figures.rate(r.answer().capacityPerSecond())).collect(Collectors.joining(", ")),
                    searches.resolve(base));
        }
        boolean failed = found.stream().anyMatch(r -> r.rounds().stream().anyMatch(round -> round.status().equals("failed")));
        return failed ? LatencyLab.FAILED : LatencyLab.OK;
    }

    /** One search in dir, its capacity.json written whether it ends, fails or is stopped. */
    private Capacity.Search search(Path repo, GatlingLauncher gatling, Target t, int p, double model, List<Double> first, Path dir) {
        SearchFolder search = new SearchFolder(dir);
        PrintStream out = System.out;
        out.printf("latency-lab: capacity of %s at %d ms latency, SLO p99 <= %d ms from due and KO <= %s%%; folder %s%n", t.id(),
                latencyMs, slo(), maxKoPercent, dir);
        List<CapacitySearch.Level> levels = new ArrayList<>();
        List<Capacity.Round> rounds = new ArrayList<>();
        AtomicBoolean stopped = new AtomicBoolean();
        Capacity.Search record;
        try (FolderLock lock = FolderLock.take(dir, "capacity --target " + t.id(), false);
                StopOnSignal signal = StopOnSignal.endingRun(gatling, () -> stopped.set(true), "stopped; the target and the simulation were ended; capacity.json says what the finished ladders found, "
                        + "as a lower bound (folder: " + dir + ")")) {
            List<Double> rates = first;
            for (int round = 1; round <= 1 + refineRounds && !rates.isEmpty(); round++) {
                out.printf("latency-lab: ladder %d: %s req/s, %d s each%n", round,
                        rates.stream().map(Figures::rate).collect(Collectors.joining(", ")), levelSeconds);
                RunFolder folder = search.round(round);
                String roundFolder = dir.relativize(folder.dir()).toString();
                RunOutcome ran = TargetRun.run(repo, gatling, new TargetRun.Load(t, p, settings(t, rates), Map.of(),
                        folder, Duration.ofSeconds(warmupSeconds), 1, true), TargetRun.SILENT, stopped::get);
                if (!(ran instanceof RunOutcome.Finished finished) || stopped.get()) {
                    // what a ladder cut short measured is not a level's answer: its levels are left out
                    rounds.add(new Capacity.Round(round, rates, roundFolder, null, "interrupted", "stopped by a signal"));
                    break;
                }
                GatlingLauncher.Outcome run = finished.gatling();
                if (!run.succeeded()) {
                    String why = String.join("; ", run.failures(folder.gatlingLog()));
                    rounds.add(new Capacity.Round(round, rates, roundFolder, null, "failed", why));
                    System.err.println("latency-lab: RUN FAILED: " + why);
                    break;
                }
                Result r = ResultFile.read(folder.resultFile());
                for (Result.Level l : r.open().levels()) {
                    CapacitySearch.Level level = CapacitySearch.Level.of(round, l);
                    levels.add(level);
                    if (l.counts().arrivals() > 0) {
                        out.printf("  %10s req/s  goodput %10s  p99 %,7d ms from due (Gatling %s)  %s%n", Figures.rate(l.ratePerSecond()),
                                l.goodputPerSecond() == null ? "-" : "%,.1f".formatted(l.goodputPerSecond()), level.latency().p99FromDueMs(), level.latency().p99Ms() == null ? "-" : "%,d".formatted(level.latency().p99Ms()), l.verdict());
                    }
                }
                rounds.add(new Capacity.Round(round, rates, roundFolder, r.open().stoppedEarly(), "done", null));
                CapacitySearch.Outcome now = CapacitySearch.outcome(levels);
                rates = now.bracketed() ? CapacitySearch.refinement(first, now.capacity(), now.firstMiss(), refineLevels) : List.of();
            }
            // written before the signal hook is released: a search stopped by Ctrl-C keeps what its finished ladders found
            record = Capacity.withLevels(new Capacity.Search(new Capacity.Settings(t.id(), latencyMs, t.poolThreads() > 0 ? t.poolThreads() : null,
                    slo(), maxKoPercent, arrivals, levelSeconds, rampSeconds), new Capacity.Bounds(Double.isNaN(model) ? null : model, null),
                    null, rounds, List.of(), Machine.fingerprint(), Instant.now().toString(), stopped.get() ? true : null), levels);
            CapacityReport.write(dir, record);
            // said before the signal hook is released: a stopped search's own words come before the JVM ends
            out.printf("latency-lab: capacity of %s: %s%n", t.id(), record.answer().summary());
        }
        if (record.wasInterrupted()) {
            return record;
        }
        out.printf("  model: %s; this machine's ceiling measured at the busiest level within the SLO: %s%n",
                Double.isNaN(model) ? "no pool bounds it (T/L: none)" : "T/L = %s req/s".formatted(Figures.rate(model)),
                record.bounds().machineCeilingPerSecond() == null ? "none" : "%,.0f req/s".formatted(record.bounds().machineCeilingPerSecond()));
        out.println("  bounded by " + Verdict.capacityBound(record));
        out.println("Capacity file: " + search.capacityFile());
        out.println("Chart: " + search.chartPng());
        return record;
    }

    private static final int MAX_REPEATS = 100;

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

    private Integer report() {
        List<Capacity.Search> records = report.stream().map(Capacity::verified).toList();
        Path chartDir = (out != null ? out : report.get(0)).toAbsolutePath().normalize();
        chartDir = out != null ? chartDir : chartDir.getParent();
        CapacityReport.draw(records, Folders.pageFolder("--out", chartDir));
        System.out.print(CapacityReport.markdown(records));
        return LatencyLab.OK;
    }
}
