package dev.latencylab.lab.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import dev.latencylab.load.settings.SimulationSettings;
import dev.latencylab.load.settings.TargetPorts;
import dev.latencylab.lab.compare.Slo;
import dev.latencylab.lab.format.Figures;
import dev.latencylab.lab.layout.FolderLock;
import dev.latencylab.lab.layout.Folders;
import dev.latencylab.lab.layout.ResultsFolders;
import dev.latencylab.lab.live.LiveView;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.page.SweepPage;
import dev.latencylab.lab.run.GatlingLauncher;
import dev.latencylab.lab.run.ServiceSpec;
import dev.latencylab.lab.run.OwnSimulation;
import dev.latencylab.lab.run.RunWatch;
import dev.latencylab.lab.run.StopOnSignal;
import dev.latencylab.lab.summary.Summary;
import dev.latencylab.lab.sweep.Sweep;
import dev.latencylab.lab.sweep.Preset;
import dev.latencylab.lab.sweep.SweepPlan;
import dev.latencylab.lab.sweep.SweepStart;
import dev.latencylab.lab.sweep.SweepFile;
import dev.latencylab.lab.flow.ExitCode;
import dev.latencylab.lab.flow.SloVerdicts;

@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = "Run targets x user counts (x latencies), each point on a fresh target, and build the comparison page. "
                + "With --url: sweep a service of yours (started from --jar for each point, or running already).")
final class SweepCommand implements Callable<Integer> {

    @CommandLine.Mixin
    Console console;

    @CommandLine.ParentCommand
    LatencyLab lab;

    @Option(names = "--preset", defaultValue = "default",
            description = "default: ${sweep.default.shape}, the classic scenario; quick: ${sweep.quick.shape}, short ramp: the three models apart in about 4 minutes.")
    Preset preset;

    @Option(names = "--targets", split = ",",
            description = "Target ids (default: the preset's; default's: ${sweep.default.targets}), of the forms ./lab run --help lists.")
    List<String> targets;

    @Option(names = "--users", split = ",", description = "User counts (default preset: ${sweep.default.users}; quick: ${sweep.quick.users}).")
    List<Integer> users;

    @Option(names = "--latencies-ms", split = ",", description = "Latencies (default: ${sweep.latencies}).")
    List<Long> latencies;

    @CommandLine.Mixin
    LoadShapeOptions shape;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--warmup-seconds",
            description = "Light load on each fresh target before its run (default: ${sweep.default.warmup}; quick: ${sweep.quick.warmup}).")
    Integer warmupSeconds;

    @Option(names = "--drain-seconds", defaultValue = "120", description = "Most to wait for a point's sockets to close (default: ${DEFAULT-VALUE}).")
    int drainSeconds;

    @Option(names = "--port", description = "Port of every target, one after the other, as ./lab run --port (default: "
            + TargetPorts.MVC + " for MVC, " + TargetPorts.WEBFLUX + " for WebFlux; its actuator: this + " + TargetPorts.MANAGEMENT_OFFSET + ").")
    Integer port;

    @CommandLine.Mixin
    ResultsOptions resultsOptions;

    @CommandLine.Mixin
    NameOption nameOption;

    @Option(names = "--no-jvm-events", description = "Start the targets without their flight recording (GC pauses, "
            + "pinned virtual threads, safepoints in each result): to measure what the recording costs.")
    boolean noJvmEvents;

    @Option(names = "--retry-failed", description = "Run failed points of a resumed sweep again.")
    boolean retryFailed;

    @Option(names = "--take-over", description = "Resume a sweep whose folder is still locked by a ./lab that is no longer "
            + "running (killed); never one that runs.")
    boolean takeOver;

    @Option(names = "--repeats", description = "Runs of each point, each on a fresh target, a whole pass of the matrix "
            + "at a time (default: 1, or a resumed sweep's). Resuming with more extends a sweep.")
    Integer repeats;

    @CommandLine.Mixin
    JdkOption jdk;

    @CommandLine.Mixin
    ServiceOptions serviceOptions;

    @CommandLine.Mixin
    ServiceLoadOptions loadOptions;

    @Option(names = "--slo", paramLabel = "METRIC:NUMBER", description = "Every run's objective, as ./lab run --slo (e.g. p99:200,ko:1): "
            + "a finished sweep with a run that misses it exits 5, one line for each such run saying by how much.")
    String slo;

    @CommandLine.Mixin
    GatlingOptions gatlingOptions;

    @CommandLine.Mixin
    LiveOptions liveOptions;

    @CommandLine.Mixin
    LabelOption labelOption;

    @CommandLine.Mixin
    InjectorOptions injectorOptions;

    @Option(names = "--repeats-from-users", description = "Repeat only the points with at least this many users; the "
            + "others run once (default: 0, every point, or a resumed sweep's). Resuming with a lower one extends a sweep.")
    Integer repeatsFromUsers;

    @Override
    public Integer call() {
        labelOption.check();
        Path repo = lab.repo.toAbsolutePath().normalize();
        SweepPlan.Ports ports = ports();
        int injectors = injectorOptions.injectors();
        if (warmupSeconds != null) {
            Inputs.seconds("--warmup-seconds", warmupSeconds);
        }
        Inputs.seconds("--drain-seconds", drainSeconds);
        if (latencies != null) {
            latencies.forEach(l -> Inputs.latency("--latencies-ms", l));
        }
        Path parent = resultsOptions.holder(repo, ResultsFolders.RESULTS);
        ResultsFolders.sayLeftBehind(parent, console.err());
        String name = nameOption.checked();
        Folders.writableFolder("--results", parent);
        SweepFolder dir = new SweepFolder(name != null ? parent.resolve(name) : parent.resolve(ResultsFolders.stamp()));
        SweepFile earlier;
        try {
            earlier = SweepFile.read(dir);
        }
        catch (IllegalArgumentException e) {
            console.err().println("latency-lab: " + e.getMessage() + ": give another --name");
            return ExitCode.BAD_INPUT;
        }
        Slo objective = slo == null ? null : Slo.parse("--slo", slo); // a bad objective stops here, before any point
        SweepPlan plan = plan(dir, earlier, ports, injectors);
        validate(plan); // unknown target ids and bad values stop here
        GatlingLauncher launcher = gatlingOptions.launcher(repo, injectorOptions);
        OwnSimulation.Source source = plan.service() == null ? null : plan.service().simulation();
        // compiled before any folder is made: a simulation that does not compile leaves nothing behind
        try (OwnSimulation own = source == null ? null : OwnSimulation.compile(source, launcher.classpath())) {
            if (name == null) {
                dir = new SweepFolder(ResultsFolders.newFolder(parent, ResultsFolders.stamp())); // a new sweep's own folder, even beside one started in the same second
            }
            try (FolderLock lock = FolderLock.take(dir.dir(), "sweep --name " + dir.dir().getFileName(), takeOver)) {
                return run(plan, dir, earlier, repo, objective, launcher.running(own));
            }
        }
    }

    /** The port of every target: --port, else each stack's own. */
    private SweepPlan.Ports ports() {
        return new SweepPlan.Ports(Inputs.port("--port", port != null ? port : TargetPorts.MVC), Inputs.port("--port", port != null ? port
                : TargetPorts.WEBFLUX));
    }

    /** The sweep's plan: the options given, the preset's values for the rest, and an earlier sweep's repeats when resumed. */
    private SweepPlan plan(SweepFolder dir, SweepFile earlier, SweepPlan.Ports ports, int injectors) {
        int stored = earlier != null ? earlier.plan().runs().repeats() : 1;
        int storedFrom = earlier != null ? earlier.plan().runs().repeatsFromUsers() : 0;
        if (repeats != null && repeats < stored) {
            throw new IllegalArgumentException("--repeats %d: %s already runs each point %d times; give %d or more to extend it"
                    .formatted(repeats, dir.dir(), stored, stored));
        }
        ServiceSpec service = service();
        return new SweepPlan(
                new SweepPlan.Matrix(service != null ? List.of(service.name()) : targets != null ? targets : preset.targets,
                        users != null ? users : shape.rates != null ? List.of() : preset.users, // --rates alone: open points only
                        service != null ? List.of(0L) : latencies != null ? latencies : Preset.LATENCIES_MS),
                new SweepPlan.PerRun(shape.ramp != null ? shape.ramp : preset.rampSeconds,
                        shape.requestsPerUser != null ? shape.requestsPerUser : preset.repeat,
                        shape.thinkMin != null ? shape.thinkMin : Preset.THINK_MIN_MS, shape.thinkMax != null ? shape.thinkMax : Preset.THINK_MAX_MS,
                        shape.connections != null ? shape.connections : SweepPlan.PerRun.CONNECTIONS,
                        warmupSeconds != null ? warmupSeconds : preset.warmupSeconds),
                ports,
                new SweepPlan.Repeats(repeats != null ? repeats : stored, repeatsFromUsers != null ? repeatsFromUsers : storedFrom),
                new SweepPlan.Levels(shape.rates != null ? shape.rates : List.of(),
                        shape.levelSeconds != null ? shape.levelSeconds : SweepPlan.Levels.LEVEL_SECONDS, shape.rates == null ? null
                                : LoadShapeOptions.levelSlo(slo == null ? null : Slo.parse("--slo", slo))),
                injectors, !noJvmEvents, jdk.given == null ? null : jdk.given.strip(), service);
    }

    /** The sweep begun or resumed in dir, each point run by gatling (the lab's simulation, or the user's). */
    private Integer run(SweepPlan plan, SweepFolder dir, SweepFile earlier, Path repo, Slo objective, GatlingLauncher gatling) {
        PrintWriter out = console.out();
        Instant start = Instant.now();
        String refused = SweepStart.beginOrResume(plan, dir, earlier, out, console.err());
        if (refused != null) {
            console.err().println("latency-lab: " + refused);
            return ExitCode.BAD_INPUT;
        }
        // said before the first point: a load whose users are never all active has no plateau to measure (a simulation of
        // the user's paces itself: its own)
        boolean ownPacing = plan.service() != null && plan.service().simulation() != null;
        plan.points().stream().filter(p -> !ownPacing && p.run() == 1 && !p.isOpen()).map(plan::settings).map(SimulationSettings::plateauUnreachable)
                .filter(java.util.Objects::nonNull).distinct().forEach(why -> console.err().println("latency-lab: WARNING: " + why));
        Sweep sweep = new Sweep(repo, dir, plan, out, Duration.ofSeconds(drainSeconds), gatling);
        String unwatched = plan.injectors() > 1 ? "each of several injectors counts its own share; watch a sweep of one"
                : ownPacing ? "your simulation's requests are read from Gatling's records once each run ends" : null;
        try (StopOnSignal signal = StopOnSignal.endingRun(gatling, sweep::stopping, "stopped; the point under way was ended and finished "
                + "points are kept: run the same command with --name " + dir.dir().getFileName() + " to resume");
                LiveView live = liveOptions.start("sweep " + dir.dir().getFileName(), unwatched)) {
            sweep.run(retryFailed, () -> {
                labelOption.writeSince(dir, start);
                SweepPage.write(dir);
            }, live == null ? RunWatch.NONE : live);
            if (sweep.stopped()) {
                return ExitCode.FAILED;
            }
            List<Summary.RunRow> rows = Sweep.rows(dir);
            long failed = rows.stream().filter(r -> !r.done()).count();
            List<dev.latencylab.lab.compare.SloGate.Judged> runs = rows.stream()
                    .map(r -> new dev.latencylab.lab.compare.SloGate.Judged(r, dir.point(r.identity().point()).resultFile())).toList();
            // judged before the page is written, once: the verdicts go into its runs.csv and summary.csv
            List<String> missed = failed > 0 ? List.of() : SloVerdicts.judge(objective, runs, true);
            SweepPage.write(dir);
            if (live != null) {
                live.end("the sweep finished", dir.page());
            }
            out.printf("latency-lab: sweep finished in %s; %d of %d runs failed%nComparison page: %s%n",
                    Figures.minutes(Duration.between(start, Instant.now())), failed,
                    plan.points().size(), dir.page());
            if (failed > 0) {
                console.err().printf("latency-lab: %d run(s) failed (see the page); --retry-failed with --name %s runs them again%n",
                        failed, dir.dir().getFileName());
            }
            if (failed > 0) {
                return ExitCode.FAILED;
            }
            return SloVerdicts.said(objective, runs.size(), missed, true, console.out(), console.err());
        }
    }

    /**
     * --url: a service of the user's that every point loads, checked as ./lab run --url checks it; null without --url.
     * What only the lab's targets have (ids, latencies, ports, a JDK, a preset's loads) is refused beside it.
     */
    private ServiceSpec service() {
        if (serviceOptions.url == null) {
            if (serviceOptions.givenWithoutUrl(loadOptions) != null) {
                throw new IllegalArgumentException(
                        "%s goes with --url: give the URL of the service to load".formatted(serviceOptions.givenWithoutUrl(loadOptions)));
            }
            return null;
        }
        ServiceOptions.refuseBesideUrl(spec.commandLine().getParseResult().originalArgs(),
                List.of("--targets", "--latencies-ms", "--port", "--jdk", "--preset"), "the service at the URL is the sweep's one target");
        if (loadOptions.simulation != null && shape.rates != null) {
            throw new IllegalArgumentException("--simulation and --rates on a sweep: not yet (a sweep's page counts its rates in requests); "
                    + "./lab capacity --simulation finds the rate of users your flow holds, and ./lab run --rates runs one");
        }
        shape.levelSloGiven(slo == null ? null : Slo.parse("--slo", slo));
        if (users == null && shape.rates == null) {
            throw new IllegalArgumentException("--url: give the loads to sweep your service at, --users (e.g. 10,50,100) or --rates "
                    + "(e.g. 20,40,80): the presets are sized for the lab's own targets");
        }
        return serviceOptions.spec(loadOptions, injectorOptions.injectors());
    }

    private static void validate(SweepPlan plan) {
        plan.targetJdk(); // a JDK not found here stops the sweep before its first point
        plan.points().forEach(plan::settings); // each point's settings, checked as its run will check them
    }
}
