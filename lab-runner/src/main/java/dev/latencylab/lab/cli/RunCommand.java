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
import dev.latencylab.lab.layout.ResultsFolders;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.page.RunPage;
import dev.latencylab.lab.run.GatlingLauncher;
import dev.latencylab.lab.run.Jdk;
import dev.latencylab.lab.run.Point;
import dev.latencylab.lab.run.RunProperties;
import dev.latencylab.lab.live.LiveView;
import dev.latencylab.lab.run.OwnSimulation;
import dev.latencylab.load.live.LiveSample;
import dev.latencylab.lab.run.ServiceRun;
import dev.latencylab.lab.run.SingleRun;
import dev.latencylab.lab.run.TargetRun;
import dev.latencylab.lab.summary.Summary;
import dev.latencylab.lab.sweep.RunLines;
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

    @Option(names = "-D", mapFallbackValue = "", description = "A simulation property, as for mvn gatling:test: -Dsim.users=5000 ...")
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

    /** ./lab run of one of the lab's targets: started, warmed up, loaded, stopped (SingleRun). */
    private Integer target(Path repo, Instant commandStart, Slo objective) {
        int injectors = injectorOptions.injectors();
        int warmupSeconds = targetOptions.warmup();
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
        String unwatched = injectors > 1 ? SEVERAL_INJECTORS : null;
        if (liveOptions.watches(unwatched)) {
            given.put(SimulationSettings.LIVE, "true");
        }
        SimulationSettings settings = SimulationSettings.from(given); // bad values stop here, before a target starts
        Map<String, String> passOn = Inputs.passOn(given); // and -D properties neither the simulation's nor Gatling's
        long measured = settings.latencyMs().orElse(latency);
        Point point = Point.of(t, settings, measured);
        // outside target/: mvn clean keeps it; named for what it measured (ls tells runs apart): run-webflux-l100-u1000-<time>
        RunFolder dir = new RunFolder(ResultsFolders.newFolder(runs(repo), "run-%s%s-%s".formatted(
                Point.pointId(t.id(), measured, settings.users(), point.rate()), jdk == null ? "" : "-" + jdk.label(), ResultsFolders.stamp())));
        GatlingLauncher gatling = gatlingOptions.launcher(repo, injectorOptions);
        console.out().printf("latency-lab: starting %s on port %d%s (run folder: %s)%n", t.id(), p, jdk == null ? ""
                : " on JDK " + jdk.describe() + ", " + jdk.java(), dir.dir());
        SingleRun.Ran ran;
        try (LiveView live = liveOptions.start(point.label(), console.out(), unwatched)) {
            if (live != null) {
                live.follow(new LiveView.Watched(point.label(), t.id(), point.label(), t.poolThreads() > 0 ? t.poolThreads() * 1000.0 / measured
                        : null, t.poolThreads() > 0 ? t.poolThreads() : null), LiveSample.beside(dir.resultFile()));
            }
            ran = SingleRun.run(repo, gatling, new TargetRun.Load(t, p, settings, passOn, dir, Duration.ofSeconds(warmupSeconds),
                    injectors, !noJvmEvents, jdk), point, commandStart, console.out(), done -> said(done, point, dir));
            RunSaid.ended(live, ran.outcome());
        }
        GatlingLauncher.Exit run = ran.outcome();
        if (ran.overhead() != null) {
            console.out().println("latency-lab: " + ran.overhead());
        }
        RunSaid say = new RunSaid(console, dir, injectors);
        say.files(run);
        if (run.resultFile() != null) {
            console.out().println("Run page: " + RunPage.of(run.resultFile()));
        }
        if (run.succeeded() && targetOptions.target == null && dTarget == null) {
            // the first run a newcomer makes compares nothing: say so, and what does
            console.out().println("latency-lab: that was one stack at one load. To see a thread pool, virtual threads and WebFlux "
                    + "part, and why: ./lab sweep --preset quick (about 4 minutes; its page opens with the verdict)");
        }
        return say.exitCode(run, labelOption, objective);
    }

    /** The objective of each level of an open load (--rates), from --slo. */
    private Map<String, String> levelSlo(Slo objective) {
        return shape.rates != null ? LoadShapeOptions.levelSlo(objective) : Map.of();
    }

    /** Why a run of several injectors is not watched live: each writes its own seconds. */
    private static final String SEVERAL_INJECTORS = "each of several injectors counts its own share; watch a run of one";

    private void said(SingleRun.Ran done, Point point, RunFolder dir) {
        if (done.outcome().resultFile() != null) {
            RunPage.write(done.outcome().resultFile());
        }
        if (done.succeeded()) {
            console.out().println("latency-lab: " + point.label() + ": " + RunLines.headline(Summary.row(dir)));
        }
    }

    /** ./lab run --url: a service of the user's, already running, loaded as it is (ServiceRun). */
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
        Map<String, String> given = new LinkedHashMap<>(ServiceLoadOptions.pathOfTheRequestsFile(service, RunProperties.forService(
                service.properties(Path.of("result.json")), users, shape.properties(), levelSlo(objective), requests, properties, injectors)));
        SimulationSettings checked = SimulationSettings.from(given); // bad values stop here, before any request
        GatlingLauncher gatling = gatlingOptions.launcher(repo, injectorOptions);
        // a simulation of the user's is checked and compiled before a folder is made: a refusal leaves nothing behind
        OwnSimulation.Source source = loadOptions.simulation(injectors, serviceOptions.hostIsMine);
        try (OwnSimulation own = source == null ? null : OwnSimulation.compile(source, gatling.classpath())) {
            return serviceRun(repo, service, given, checked, gatling.running(own), own, warmupSeconds, injectors, objective);
        }
    }

    /** A service's run, its settings checked, with the simulation it runs (own: the user's, null: the lab's). */
    private Integer serviceRun(Path repo, ServiceRun.Service service, Map<String, String> given, SimulationSettings checked,
            GatlingLauncher gatling, OwnSimulation own, int warmupSeconds, int injectors, Slo objective) {
        RunFolder dir = new RunFolder(ResultsFolders.newFolder(runs(repo), "run-%s-%s-%s".formatted(service.name(),
                checked.open() ? "r" + SimulationSettings.rate(checked.load().rates().getLast()) : "u" + checked.users(),
                ResultsFolders.stamp())));
        given.put(SimulationSettings.RESULT_FILE, dir.resultFile().toString());
        // a simulation of the user's has its requests counted from Gatling's records after the run: nothing to watch live
        String unwatched = injectors > 1 ? SEVERAL_INJECTORS : own != null ? "your simulation's requests are read from Gatling's records once it ends"
                : null;
        if (liveOptions.watches(unwatched)) {
            given.put(SimulationSettings.LIVE, "true");
        }
        SimulationSettings settings = SimulationSettings.from(given);
        if (own == null && settings.plateauUnreachable() != null) { // a simulation of the user's paces itself
            console.err().println("latency-lab: WARNING: " + settings.plateauUnreachable());
        }
        ServiceRun.Launch launch = serviceOptions.jar == null ? null : new ServiceRun.Launch(serviceOptions.jar, serviceOptions.jvmOptions,
                serviceOptions.jarArgs, !noJvmEvents, serviceOptions.jarStart(),
                serviceOptions.jarStop());
        console.out().printf("latency-lab: loading %s at %s%s, %s (run folder: %s)%n", service.name(), service.url(),
                own == null ? "" : " with your simulation " + own.className(), launch == null ? "not started nor stopped here"
                        : "started from " + launch.jar() + " and stopped after",
                dir.dir());
        GatlingLauncher.Exit run;
        String title = service.name() + ", " + (settings.open() ? settings.load().rates().stream().map(SimulationSettings::rate)
                .collect(java.util.stream.Collectors.joining(", ")) + " req/s" : settings.users() + " users");
        try (LiveView live = liveOptions.start(title, console.out(), unwatched)) {
            if (live != null) {
                live.follow(new LiveView.Watched(title, service.name(), settings.open() ? "open" : "u" + settings.users(), null, null),
                        LiveSample.beside(dir.resultFile()));
            }
            run = ServiceRun.run(repo, gatling, service, settings, Inputs.passOn(given), dir, Duration.ofSeconds(warmupSeconds), launch, injectors,
                    console.out());
            console.out().println();
            if (run.resultFile() != null) {
                console.out().println("Run page: " + RunPage.write(run.resultFile()));
            }
            RunSaid.ended(live, run);
        }
        if (run.succeeded()) {
            console.out().println("latency-lab: " + service.name() + ": " + RunLines.headline(Summary.row(run.resultFile())));
        }
        RunSaid say = new RunSaid(console, dir, injectors);
        say.files(run);
        return say.exitCode(run, labelOption, objective);
    }

    private static String str(Object o) {
        return o == null ? null : o.toString();
    }
}
