package dev.latencylab.lab.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import dev.latencylab.load.settings.TargetPorts;
import dev.latencylab.lab.compare.Slo;
import dev.latencylab.lab.layout.FolderLock;
import dev.latencylab.lab.layout.Folders;
import dev.latencylab.lab.layout.ResultsFolders;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.run.GatlingLauncher;
import dev.latencylab.lab.run.ServiceSpec;
import dev.latencylab.lab.run.OwnSimulation;
import dev.latencylab.lab.sweep.Preset;
import dev.latencylab.lab.sweep.SweepPlan;
import dev.latencylab.lab.sweep.SweepFile;
import dev.latencylab.lab.flow.ExitCode;
import dev.latencylab.lab.flow.SweepFlow;

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
        liveOptions.check();
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
                return SweepFlow.run(repo, launcher.running(own), new SweepFlow.Asked(plan, dir, earlier, Duration.ofSeconds(drainSeconds),
                        retryFailed, labelOption.label, objective), liveOptions, console.out(), console.err());
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
