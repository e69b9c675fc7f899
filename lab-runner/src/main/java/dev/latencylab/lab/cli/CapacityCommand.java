package dev.latencylab.lab.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import dev.latencylab.load.settings.SimulationSettings;
import dev.latencylab.lab.capacity.CapacitySearch;
import dev.latencylab.lab.flow.CapacityFlow;
import dev.latencylab.lab.capacity.SearchRepeats;
import dev.latencylab.lab.capacity.SearchRun;
import dev.latencylab.lab.compare.Slo;
import dev.latencylab.lab.format.Figures;
import dev.latencylab.lab.layout.ResultsFolders;
import dev.latencylab.lab.run.GatlingLauncher;
import dev.latencylab.lab.run.Jdk;
import dev.latencylab.lab.run.OwnSimulation;
import dev.latencylab.lab.run.ServiceSpec;
import dev.latencylab.lab.targets.Target;

/**
 * ./lab capacity: the highest arrival rate a target serves within an SLO, found with ladders of open-model levels,
 * each ladder on a fresh target (see {@link CapacitySearch}); the search's folder is a {@link SearchFolder}.
 */
@Command(name = "capacity", mixinStandardHelpOptions = true, description = {
        "Find the highest arrival rate (open model) a target serves within an SLO: a doubling ladder of rates, then "
                + "ladders between the last level within the SLO and the first that missed it, each on a fresh target. With --url: "
                + "of a service of yours (started from --jar for each ladder, or running already).",
        "Finished searches are read again by ./lab report DIR... (their verdict, table and chart) and ./lab compare."})
final class CapacityCommand implements Callable<Integer> {

    @CommandLine.Mixin
    Console console;

    @CommandLine.ParentCommand
    LatencyLab lab;

    @CommandLine.Mixin
    TargetOptions targetOptions;

    @CommandLine.Mixin
    ServiceOptions serviceOptions;

    @CommandLine.Mixin
    ServiceLoadOptions loadOptions;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The SLO's p99 (ms) and KO share from --slo; the p99 null when not given (the latency's own, + a margin). */
    private Long sloP99Ms;
    private double maxKoPercent;

    @Option(names = "--slo", paramLabel = "METRIC:NUMBER", description = "The objective, as run and sweep take it: p99:MS, each "
            + "level's p99 from each arrival's due time at most this (default: latency + " + SimulationSettings.SLO_MARGIN_MS
            + "); ko:PERCENT, its share of KO at most this (default: 0); capacity:RATE, a search that finds less exits 5, saying by "
            + "how much. E.g. p99:500,ko:0.1,capacity:100.")
    String slo;

    @Option(names = "--start-rate", description = "First level (default: a quarter of T/L for a pool, 10 req/s for a service of "
            + "yours (--url), else 250 req/s). With --simulation, a rate is of users per second, each running the simulation's flow once.")
    Double startRate;

    @Option(names = "--max-rate", description = "Highest level of the first ladder (default: 2 T/L for a pool, else 20000 req/s).")
    Double maxRate;

    @Option(names = "--level-seconds", defaultValue = "10", description = "How long each rate is held (default: ${DEFAULT-VALUE}; at least "
            + SimulationSettings.MIN_LEVEL_SECONDS + ").")
    int levelSeconds;

    @Option(names = "--ramp-seconds", defaultValue = "3", description = "Ramp to each level (default: ${DEFAULT-VALUE}).")
    int rampSeconds;

    @Option(names = "--refine-rounds", defaultValue = "2",
            description = "Ladders between the last level within the SLO and the first that missed (default: ${DEFAULT-VALUE}).")
    int refineRounds;

    @Option(names = "--refine-levels", defaultValue = "4", description = "Levels of each such ladder (default: ${DEFAULT-VALUE}).")
    int refineLevels;

    @Option(names = "--arrivals", defaultValue = "uniform", description = "uniform or poisson (default: ${DEFAULT-VALUE}).")
    String arrivals;

    @CommandLine.Mixin
    GatlingOptions gatlingOptions;

    @CommandLine.Mixin
    LiveOptions liveOptions;

    @CommandLine.Mixin
    ResultsOptions resultsOptions;

    @CommandLine.Mixin
    NameOption nameOption;

    @Option(names = "--repeats", defaultValue = "1", description = "Searches made one after the other, each in <name>-r<k> (default: "
            + "${DEFAULT-VALUE}): ./lab compare takes their name without -r<k> as one side, their spread as the noise.")
    int repeats;

    @Override
    public Integer call() {
        liveOptions.check();
        Slo objective = objective();
        ServiceSpec service = service();
        String name = nameOption.checked();
        Path repo = lab.repo.toAbsolutePath().normalize();
        Planned planned = plan(service);
        SearchRun.Plan plan = planned.plan();
        Target t = plan.target();
        long latencyMs = plan.latencyMs();
        Path searches = resultsOptions.holder(repo, ResultsFolders.SEARCHES);
        ResultsFolders.sayLeftBehind(searches, console.err());
        String base = name != null ? name : service != null ? "%s-%s".formatted(t.id(), ResultsFolders.stamp())
                : "%s-l%d-%s".formatted(t.id(), latencyMs, ResultsFolders.stamp());
        SearchRepeats.check(searches, base, repeats);
        GatlingLauncher launcher = gatlingOptions.launcher(repo);
        // a simulation of the user's is compiled once, before any folder is made: a refusal leaves nothing behind
        OwnSimulation.Source source = service == null ? null : service.simulation();
        try (OwnSimulation own = source == null ? null : OwnSimulation.compile(source, launcher.classpath())) {
            return CapacityFlow.run(repo, launcher.running(own), new CapacityFlow.Asked(searches, base, name != null, repeats, plan, planned.first(),
                    objective), liveOptions, console.out(), console.err());
        }
    }

    /** A search's plan and its first ladder, from the options: checked before anything starts. */
    private record Planned(SearchRun.Plan plan, List<Double> first) {
    }

    private Planned plan(ServiceSpec service) {
        Jdk jdk = service != null ? null : targetOptions.jdk();
        Target t = service != null ? service.target() : targetOptions.parsed(jdk);
        long latencyMs = service != null ? 0 : targetOptions.latency();
        if (service == null && (latencyMs < 1 || latencyMs > Inputs.MAX_LATENCY_MS)) {
            throw new IllegalArgumentException("--latency-ms %d: give 1 to %,d ms (the model's T/L needs a latency; the targets answer 400 above %,d)"
                    .formatted(latencyMs, Inputs.MAX_LATENCY_MS, Inputs.MAX_LATENCY_MS));
        }
        if (refineRounds < 0 || refineLevels < 1) {
            throw new IllegalArgumentException("--refine-rounds %d, --refine-levels %d: give 0 or more ladders of 1 or more levels"
                    .formatted(refineRounds, refineLevels));
        }
        double model = t.poolThreads() > 0 ? t.poolThreads() * 1000.0 / latencyMs : Double.NaN;
        double start = startRate != null ? startRate : CapacitySearch.startRate(model, service != null);
        double max = maxRate != null ? maxRate : CapacitySearch.maxRate(model);
        if (!(start > 0) || !(max >= start)) {
            throw new IllegalArgumentException("--start-rate %s and --max-rate %s: give 0 < start <= max (requests per second)"
                    .formatted(Figures.rate(start), Figures.rate(max)));
        }
        List<Double> first = CapacitySearch.firstLadder(start, max);
        int p = service != null ? java.net.URI.create(service.located().baseUrl()).getPort() : targetOptions.port(t);
        SearchRun.Plan plan = new SearchRun.Plan(t, p, latencyMs, slo(), maxKoPercent, arrivals, levelSeconds, rampSeconds, refineRounds,
                refineLevels, Duration.ofSeconds(targetOptions.warmup()), model, jdk, service);
        plan.ladder(first); // bad values (SLO, level length, arrivals) stop here, before a target starts
        return new Planned(plan, first);
    }

    /** --slo: its p99 and KO become the search's SLO, its capacity the rate the search must find; null without --slo. */
    private Slo objective() {
        if (slo == null) {
            return null;
        }
        Slo objective = Slo.parseForCapacity("--slo", slo);
        objective.of(dev.latencylab.lab.compare.Metric.P99).ifPresent(ms -> sloP99Ms = Math.round(ms));
        objective.of(dev.latencylab.lab.compare.Metric.KO).ifPresent(ko -> maxKoPercent = ko);
        return objective;
    }

    /**
     * --url: a service of the user's that each ladder loads, checked as ./lab run --url checks it; null without --url.
     * Its SLO must be given: its path names no latency to derive one from.
     */
    private ServiceSpec service() {
        if (serviceOptions.url == null) {
            if (serviceOptions.givenWithoutUrl(loadOptions) != null) {
                throw new IllegalArgumentException(
                        "%s goes with --url: give the URL of the service to load".formatted(serviceOptions.givenWithoutUrl(loadOptions)));
            }
            return null;
        }
        ServiceOptions.refuseBesideUrl(spec.commandLine().getParseResult().originalArgs(), List.of("--target", "--latency-ms", "--port", "--jdk"),
                "the service at the URL is the search's target");
        if (sloP99Ms == null) {
            throw new IllegalArgumentException("--url: give the SLO's p99 with --slo p99:MS (e.g. --slo p99:500): your service's "
                    + "path names no latency to derive it from");
        }
        return serviceOptions.spec(loadOptions, 1);
    }

    private long slo() {
        return sloP99Ms != null ? sloP99Ms : targetOptions.latency() + SimulationSettings.SLO_MARGIN_MS;
    }

}
