package dev.latencylab.lab.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import dev.latencylab.load.settings.SimulationSettings;
import dev.latencylab.lab.compare.Slo;
import dev.latencylab.lab.flow.ServiceRunFlow;
import dev.latencylab.lab.flow.TargetRunFlow;
import dev.latencylab.lab.layout.ResultsFolders;
import dev.latencylab.lab.run.GatlingLauncher;
import dev.latencylab.lab.run.Jdk;
import dev.latencylab.lab.run.Point;
import dev.latencylab.lab.run.RunProperties;
import dev.latencylab.lab.run.OwnSimulation;
import dev.latencylab.lab.run.ServiceRun;
import dev.latencylab.lab.targets.Target;

@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Start a target, warm it up, run the simulation against it, stop it; print where the report and result file are. "
                + "With --url: load a service of yours that is already running, neither started nor stopped here.")
final class RunCommand implements Callable<Integer> {

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

    @Option(names = "--slo", paramLabel = "METRIC:NUMBER", description = "The run's objective, e.g. p99:200,ko:1 (p99 at most 200 ms, "
            + "KO at most 1%%; also p50, p95, goodput at least N req/s): a finished run that misses it exits 5, saying by how much.")
    String slo;

    @Option(names = "--no-jvm-events", description = "Start the target without its flight recording (GC pauses, pinned "
            + "virtual threads, safepoints in result.json): to measure what the recording costs.")
    boolean noJvmEvents;

    @Option(names = "-D", mapFallbackValue = "",
            description = "A simulation property that has no option of its own, as for mvn gatling:test (-Dtest.path=hello/250), or "
                    + "Gatling's (-Dgatling.*); one that has an option is refused, naming it (-Dsim.users: --users).")
    Map<String, String> properties = new LinkedHashMap<>();

    @Option(names = "--users", description = "Users of the closed model (default: the simulation's sim.users: 1000), as sweep --users.")
    Integer users;

    @CommandLine.Mixin
    LoadShapeOptions shape;

    @CommandLine.Mixin
    ResultsOptions resultsOptions;

    @CommandLine.Mixin
    GatlingOptions gatlingOptions;

    @CommandLine.Mixin
    LiveOptions liveOptions;

    @CommandLine.Mixin
    LabelOption labelOption;

    @CommandLine.Mixin
    InjectorOptions injectorOptions;

    /**
     * When ./lab started (after its build, when it built first: the script passes the moment), so that a run's overhead
     * is the run's; else this JVM's start, which Linux gives to a second only.
     */
    private static Instant commandStart() {
        String startedAt = System.getProperty("latency-lab.started-at");
        if (startedAt != null && startedAt.matches("[0-9]+")) {
            return Instant.ofEpochMilli(Long.parseLong(startedAt));
        }
        return ProcessHandle.current().info().startInstant().orElse(Instant.now());
    }

    @Override
    public Integer call() {
        Instant commandStart = commandStart();
        Path repo = lab.repo.toAbsolutePath().normalize();
        ResultsFolders.sayLeftBehind(runs(repo), console.err());
        Slo objective = slo == null ? null : Slo.parse("--slo", slo);
        labelOption.check();
        liveOptions.check();
        LoadShapeOptions.refuseAsProperties(properties);
        if (serviceOptions.url != null) {
            return service(repo, targetOptions.warmup(), injectorOptions.injectors(), objective);
        }
        if (serviceOptions.givenWithoutUrl(loadOptions) != null) {
            throw new IllegalArgumentException(
                    "%s goes with --url: give the URL of the service to load".formatted(serviceOptions.givenWithoutUrl(loadOptions)));
        }
        return target(repo, commandStart, objective);
    }

    private Path runs(Path repo) {
        return resultsOptions.holder(repo, ResultsFolders.RUNS);
    }

    /** ./lab run of one of the lab's targets: its options checked and assembled, then run (TargetRunFlow). */
    private Integer target(Path repo, Instant commandStart, Slo objective) {
        int injectors = injectorOptions.injectors();
        // -Dtarget=mvc, as for mvn gatling:test, picks the target to start here
        String dTarget = properties.get(SimulationSettings.TARGET);
        RunProperties.checkForTarget(properties, targetOptions.target, targetOptions.latencyMs);
        Jdk jdk = targetOptions.jdk();
        Target t = Target.parse(dTarget != null ? dTarget : targetOptions.target != null ? targetOptions.target : LatencyLab.DEFAULT_TARGET)
                .onJdk(Jdk.featureOf(jdk));
        long latency = Inputs.latency("--latency-ms", targetOptions.latencyMs == null ? LatencyLab.DEFAULT_LATENCY_MS : targetOptions.latencyMs);
        RunProperties.checkModelThreads(t, properties);
        int p = targetOptions.port(t);
        Map<String, String> given = RunProperties.forTarget(t, latency, users, shape.properties(), levelSlo(objective), properties, injectors);
        if (liveOptions.watches(TargetRunFlow.unwatched(injectors))) {
            given.put(SimulationSettings.LIVE, "true");
        }
        SimulationSettings settings = SimulationSettings.from(given); // bad values stop here, before a target starts
        Map<String, String> passOn = Inputs.passOn(given); // and -D properties neither the simulation's nor Gatling's
        Point point = Point.of(t, settings, settings.latencyMs().orElse(latency));
        TargetRunFlow.Asked asked = new TargetRunFlow.Asked(point, p, settings, passOn, Duration.ofSeconds(targetOptions.warmup()), injectors,
                !noJvmEvents, jdk, targetOptions.target != null || dTarget != null, labelOption.label, objective);
        return TargetRunFlow.run(repo, runs(repo), gatlingOptions.launcher(repo, injectorOptions), asked, commandStart, liveOptions,
                console.out(), console.err());
    }

    /** The objective of each level of an open load (--rates), from --slo. */
    private Map<String, String> levelSlo(Slo objective) {
        return shape.rates != null ? LoadShapeOptions.levelSlo(objective) : Map.of();
    }

    /** ./lab run --url: a service of the user's, already running or started from its jar, its options checked (ServiceRunFlow). */
    private Integer service(Path repo, int warmupSeconds, int injectors, Slo objective) {
        for (String[] given : new String[][] {{"--target", targetOptions.target}, {"--latency-ms", str(targetOptions.latencyMs)},
                {"--port", str(targetOptions.port)}, {"--jdk", targetOptions.jdk.given}}) {
            if (given[1] != null) {
                throw new IllegalArgumentException("%s %s and --url: the service at the URL is the target; give one".formatted(given[0], given[1]));
            }
        }
        RunProperties.checkForService(properties);
        if (serviceOptions.name != null) {
            Inputs.folderName("--service", serviceOptions.name);
        }
        serviceOptions.checkJar();
        // its metrics elsewhere (an actuator on a port of its own) are read where the user says
        ServiceRun.Service service = serviceOptions.located().withPools(loadOptions.givenPools()).withMetrics(properties.remove(SimulationSettings.METRICS_URL),
                serviceOptions.hostIsMine);
        shape.levelSloGiven(objective);
        Map<String, String> requests = new LinkedHashMap<>(loadOptions.requestProperties());
        requests.putAll(loadOptions.headers().properties());
        Map<String, String> given = ServiceLoadOptions.pathOfTheRequestsFile(service, RunProperties.forService(
                service.properties(Path.of("result.json")), users, shape.properties(), levelSlo(objective), requests, properties, injectors));
        SimulationSettings.from(given); // bad values stop here, before any request
        Map<String, String> passOn = Inputs.passOn(given);
        ServiceRun.Launch launch = serviceOptions.jar == null ? null : new ServiceRun.Launch(serviceOptions.jar, serviceOptions.jvmOptions,
                serviceOptions.jarArgs, !noJvmEvents, serviceOptions.jarStart(), serviceOptions.jarStop());
        GatlingLauncher gatling = gatlingOptions.launcher(repo, injectorOptions);
        // a simulation of the user's is checked and compiled before a folder is made: a refusal leaves nothing behind
        OwnSimulation.Source source = loadOptions.simulation(injectors, serviceOptions.hostIsMine);
        try (OwnSimulation own = source == null ? null : OwnSimulation.compile(source, gatling.classpath())) {
            ServiceRunFlow.Asked asked = new ServiceRunFlow.Asked(service, given, passOn, own, launch, Duration.ofSeconds(warmupSeconds),
                    injectors, labelOption.label, objective);
            return ServiceRunFlow.run(repo, runs(repo), gatling.running(own), asked, liveOptions, console.out(), console.err());
        }
    }

    private static String str(Object o) {
        return o == null ? null : o.toString();
    }
}
