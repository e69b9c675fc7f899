package dev.latencylab.lab;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import dev.latencylab.load.Json;
import dev.latencylab.load.Result;
import dev.latencylab.load.ResultFile;
import dev.latencylab.load.ResultMerge;
import dev.latencylab.load.SimulationSettings;
import dev.latencylab.load.TargetPorts;

/**
 * The lab's command line: run one load test, sweep a matrix of them, or rebuild a sweep's page. Exit codes: 0 ok,
 * 1 a run or point failed, 2 bad input; stopped by a signal, 128 + its number (130 Ctrl-C, 143 SIGTERM).
 */
@Command(name = "lab", mixinStandardHelpOptions = true, versionProvider = LatencyLab.Versions.class,
        description = "Load tests of a blocking and a non-blocking server under slow I/O.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:ok", "1:a run or point failed", "2:bad input (an option or property)",
                "130/143:stopped by Ctrl-C / SIGTERM (everything it started is ended first)"},
        subcommands = {LatencyLab.Run.class, LatencyLab.SweepCommand.class, LatencyLab.Report.class, Capacity.class, LatencyLab.Merge.class,
                LatencyLab.RebuildDocs.class})
public final class LatencyLab {

    static final int OK = 0;
    static final int FAILED = 1;
    static final int BAD_INPUT = 2;
    static final String DEFAULT_TARGET = "webflux";
    static final long DEFAULT_LATENCY_MS = 100;

    @Option(names = "--repo", defaultValue = "${sys:latency-lab.repo:-.}",
            description = "Repository root (default: the one ./lab lives in).", scope = CommandLine.ScopeType.INHERIT)
    Path repo;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line as main runs it (tests run the same). */
    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new LatencyLab()).setCaseInsensitiveEnumValuesAllowed(true);
        cli.getSubcommands().get("run").getCommandSpec().usageMessage().footer(Reference.targetsHelp() + Reference.propertiesHelp());
        cli.getSubcommands().get("report").getCommandSpec().usageMessage().footer(Reference.flagsHelp());
        List<CommandLine> all = new ArrayList<>(List.of(cli));
        all.addAll(cli.getSubcommands().values());
        Map<String, String> exitCodes = Reference.exitCodesHelp();
        all.forEach(c -> c.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(exitCodes));
        // A user's mistake: the message and where to read more, exit 2; no usage dump, no stack trace.
        cli.setParameterExceptionHandler((e, args) -> {
            CommandLine c = e.getCommandLine();
            c.getErr().println("latency-lab: " + e.getMessage());
            c.getErr().println("Try './lab " + (c.getCommandSpec().parent() == null ? "" : c.getCommandName() + " ") + "--help'.");
            return BAD_INPUT;
        });
        cli.setExecutionExceptionHandler((e, command, parsed) -> {
            if (e instanceof IllegalArgumentException) {
                command.getErr().println("latency-lab: " + e.getMessage());
                return BAD_INPUT;
            }
            if (e instanceof TargetProcess.TargetFailedException || e instanceof FolderLock.FolderBusyException) {
                command.getErr().println("latency-lab: " + e.getMessage());
                return FAILED;
            }
            if (e instanceof java.io.UncheckedIOException io) {
                // a file or folder that could not be written once the command was under way: say which, and why
                command.getErr().println("latency-lab: " + Inputs.why(io));
                return FAILED;
            }
            throw e;
        });
        return cli;
    }

    /** --version: this project's version and those it runs with. */
    static final class Versions implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            Map<String, String> v = Machine.versions();
            return new String[] {"latency-lab " + v.getOrDefault("latency-lab", "unknown"),
                    "Gatling " + v.get("gatling") + " (gatling-maven-plugin " + v.get("gatling-maven-plugin") + ", Scala " + v.get("scala") + ")",
                    "Spring Boot " + v.get("spring-boot"),
                    "JDK " + System.getProperty("java.runtime.version") + " (" + System.getProperty("java.home") + ")"};
        }
    }

    /** How Gatling is started: its HTML report (skipped where no one reads it), the lead of a split run's common start. */
    static final class GatlingOptions {

        @Option(names = "--no-gatling-report", description = "Skip Gatling's HTML report of each run (the result file and the "
                + "lab's pages are still written): saves its seconds and its disk.")
        boolean skipReport;

        @Option(names = "--injector-lead-seconds", description = "With --injectors K: how long after the K Gatling JVMs are "
                + "started (beside the warm-up) their common start is (default: 10).")
        Integer injectorLeadSeconds;

        GatlingLauncher launcher(Path repo) {
            int lead = Inputs.seconds("--injector-lead-seconds", injectorLeadSeconds == null ? (int) GatlingLauncher.INJECTOR_LEAD.toSeconds()
                    : injectorLeadSeconds);
            return new GatlingLauncher(repo, !skipReport, Duration.ofSeconds(lead));
        }
    }

    @Command(name = "run", mixinStandardHelpOptions = true,
            description = "Start a target, warm it up, run the simulation against it, stop it; print where the report and result file are.")
    static final class Run implements Callable<Integer> {

        @CommandLine.ParentCommand
        LatencyLab lab;

        @Option(names = "--target", description = "Target id (default: " + DEFAULT_TARGET + "), of a form listed under Target ids below.")
        String target;

        @Option(names = "--latency-ms", description = "Latency of each request, in ms (default: " + DEFAULT_LATENCY_MS
                + "); or -Dtest.path for the whole path.")
        Long latencyMs;

        @Option(names = "--port", description = "Port of the target (default: " + TargetPorts.MVC + " for MVC, " + TargetPorts.WEBFLUX
                + " for WebFlux; its actuator: this + " + TargetPorts.MANAGEMENT_OFFSET + ").")
        Integer port;

        @Option(names = "--warmup-seconds", defaultValue = "5", description = "Light load before the run, not measured (default: ${DEFAULT-VALUE}).")
        int warmupSeconds;

        @Option(names = "-D", mapFallbackValue = "", description = "A simulation property, as for mvn gatling:test: -Dsim.users=5000 ...")
        Map<String, String> properties = new LinkedHashMap<>();

        @Option(names = "--users", description = "Users of the closed model (default: the simulation's sim.users), as sweep --users; "
                + "the same as -Dsim.users.")
        Integer users;

        @CommandLine.Mixin
        GatlingOptions gatlingOptions;

        @Option(names = "--injectors", defaultValue = "1", description = "Gatling processes that share the users (or each rate), each with its "
                + "own folder (injector-<i>/), started together; their results merged into the run's result.json (default: ${DEFAULT-VALUE}).")
        int injectors;

        /**
         * ./lab becomes this JVM (exec): its start is the command's; when ./lab built first, the build's end (the script
         * passes it), so that a run's overhead is the run's.
         */
        private static Instant commandStart() {
            Instant start = ProcessHandle.current().info().startInstant().orElse(Instant.now());
            String builtAt = System.getProperty("latency-lab.built-at");
            if (builtAt != null && builtAt.matches("[0-9]+")) {
                Instant built = Instant.ofEpochMilli(Long.parseLong(builtAt));
                return built.isAfter(start) ? built : start;
            }
            return start;
        }

        @Override
        public Integer call() {
            Instant commandStart = commandStart();
            Path repo = lab.repo.toAbsolutePath().normalize();
            sayLeftBehind(repo.resolve(RUNS));
            Inputs.injectors(injectors);
            Inputs.seconds("--warmup-seconds", warmupSeconds);
            // -Dtarget=mvc, as for mvn gatling:test, picks the target to start here; beside --target it would contradict it
            String dTarget = properties.get(SimulationSettings.TARGET);
            if (dTarget != null && target != null) {
                throw new IllegalArgumentException("-D%s=%s and --target %s: give the target once, with --target"
                        .formatted(SimulationSettings.TARGET, dTarget, target));
            }
            if (properties.containsKey(SimulationSettings.PATH) && latencyMs != null) {
                throw new IllegalArgumentException("-D%s=%s and --latency-ms %d: give one (--latency-ms sets the path's latency)"
                        .formatted(SimulationSettings.PATH, properties.get(SimulationSettings.PATH), latencyMs));
            }
            if (users != null && properties.containsKey(SimulationSettings.USERS)) {
                throw new IllegalArgumentException("--users %d and -D%s=%s: give one".formatted(users, SimulationSettings.USERS,
                        properties.get(SimulationSettings.USERS)));
            }
            Target t = Target.parse(dTarget != null ? dTarget : target != null ? target : DEFAULT_TARGET);
            long latency = Inputs.latency("--latency-ms", latencyMs == null ? DEFAULT_LATENCY_MS : latencyMs);
            String modelThreads = properties.get(SimulationSettings.MODEL_THREADS);
            if (modelThreads != null && t.poolThreads() > 0 && !modelThreads.strip().equals(String.valueOf(t.poolThreads()))) {
                throw new IllegalArgumentException("-D%s=%s: %s's pool is %d, which the model takes as T; give another target to change it"
                        .formatted(SimulationSettings.MODEL_THREADS, modelThreads, t.id(), t.poolThreads()));
            }
            int p = Inputs.port("--port", port == null ? t.defaultPort() : port);
            for (String split : List.of(SimulationSettings.INJECTORS, SimulationSettings.INJECTOR_INDEX, SimulationSettings.START_AT)) {
                if (properties.containsKey(split)) {
                    throw new IllegalArgumentException(("-D%s: ./lab run splits a run with --injectors K and sets it for each injector "
                            + "(by hand: ./mvnw gatling:test -D%s=... in each of K processes)").formatted(split, split));
                }
            }
            for (String owned : List.of(SimulationSettings.BASE_URL, SimulationSettings.METRICS_URL, SimulationSettings.TARGET_PID,
                    SimulationSettings.RESULT_FILE)) {
                if (properties.containsKey(owned)) {
                    throw new IllegalArgumentException(("-D%s: ./lab run sets it for the target it starts (use --target and --port; "
                            + "to load a server of your own, run ./mvnw gatling:test -D%s=...)").formatted(owned, owned));
                }
            }
            Map<String, String> given = new LinkedHashMap<>();
            given.put(SimulationSettings.PATH, t.path(latency));
            if (t.poolThreads() > 0) {
                given.put(SimulationSettings.MODEL_THREADS, String.valueOf(t.poolThreads()));
            }
            if (users != null) {
                given.put(SimulationSettings.USERS, String.valueOf(users));
            }
            given.putAll(properties);
            given.remove(SimulationSettings.TARGET); // the target is started here
            if (injectors > 1) {
                // checked as each injector will check it (fewer users than injectors, a rate that does not split); the run gives each its index
                given.put(SimulationSettings.INJECTORS, String.valueOf(injectors));
            }
            SimulationSettings settings = SimulationSettings.from(given); // bad values stop here, before a target starts
            Map<String, String> passOn = Inputs.passOn(given);

            long measured = settings.latencyMs().orElse(latency);
            Point point = settings.open() ? Point.open(t, settings.rates().get(settings.rates().size() - 1), measured, 1)
                    : new Point(t, settings.users(), measured, 1);
            // outside target/: mvn clean keeps it; named for what it measured (ls tells runs apart): run-webflux-l100-u1000-<time>
            RunFolder dir = new RunFolder(newFolder(repo.resolve(RUNS), "run-%s-%s".formatted(
                    Point.pointId(t.id(), measured, settings.users(), point.rate()), stamp())));
            GatlingLauncher gatling = gatlingOptions.launcher(repo);
            System.out.printf("latency-lab: starting %s on port %d (run folder: %s)%n", t.id(), p, dir.dir());
            // installed before the target starts: a signal at any moment ends everything this run started
            try (FolderLock lock = FolderLock.take(dir.dir(), "run --target " + t.id(), false);
                    StopOnSignal signal = StopOnSignal.endingRun(gatling, () -> { }, "stopped; the target and the simulation were ended (folder: " + dir.dir() + ")")) {
                Map<String, Object> details = new LinkedHashMap<>();
                Instant started = Instant.now();
                details.put("port", p);
                details.put("startedAt", started.toString());
                details.put("machine", Machine.fingerprint());
                // never stopped from here: a signal ends the JVM through the hook, after the run's own writes
                GatlingLauncher.Outcome run = TargetRun.run(repo, gatling, new TargetRun.Load(t, p, settings, passOn, dir,
                        Duration.ofSeconds(warmupSeconds), injectors), System.out, details, () -> false).orElseThrow();
                System.out.println();
                System.out.println("latency-lab: stopped " + t.id());
                // the run's record, as a sweep point's: the summary line below and a page read it the same way
                details.put("endedAt", Instant.now().toString());
                details.put("wallSeconds", Duration.between(started, Instant.now()).toSeconds());
                Point.Status status = run.succeeded() ? Point.Status.DONE : Point.Status.FAILED;
                String reason = run.succeeded() ? null : String.join("; ", run.failures(dir.gatlingLog()));
                point.record(dir, status, reason, details);
                Path page = run.resultFile() == null ? null : RunPage.write(run.resultFile());
                if (run.succeeded()) {
                    System.out.println("latency-lab: " + point.label() + ": " + Sweep.headline(Summary.row(dir)));
                }
                if (run.resultFile() != null) {
                    // what the lab added to the scenario's own time, recorded beside the run's other details
                    Overhead overhead = Overhead.of(commandStart, ResultFile.read(run.resultFile()), Instant.now(), warmupSeconds);
                    details.put("overheadSeconds", overhead.record());
                    point.record(dir, status, reason, details);
                    System.out.println("latency-lab: " + overhead);
                }
                for (RunFolder part : injectors == 1 ? List.of(dir) : java.util.stream.IntStream.range(0, injectors).mapToObj(dir::injector).toList()) {
                    if (Files.isDirectory(part.report())) {
                        System.out.println("HTML report: " + part.reportPage());
                    }
                }
                System.out.println("Result file: " + (run.resultFile() == null ? "(none: the run failed, see above)" : run.resultFile()));
                if (page != null) {
                    System.out.println("Run page: " + page);
                }
                if (run.succeeded() && target == null && dTarget == null) {
                    // the first run a newcomer makes compares nothing: say so, and what does
                    System.out.println("latency-lab: that was one stack at one load. To see a thread pool, virtual threads and WebFlux "
                            + "part, and why: ./lab sweep --preset quick (about 4 minutes; its page opens with the verdict)");
                }
                run.failures(dir.gatlingLog()).forEach(why -> System.err.println("latency-lab: RUN FAILED: " + why));
                return run.succeeded() ? OK : FAILED;
            }
        }
    }

    @Command(name = "sweep", mixinStandardHelpOptions = true,
            description = "Run targets x user counts (x latencies), each point on a fresh target, and build the comparison page.")
    static final class SweepCommand implements Callable<Integer> {

        @CommandLine.ParentCommand
        LatencyLab lab;

        @Option(names = "--preset", defaultValue = "default", description = "default: 4 targets x 1,000-20,000 users, the classic scenario; quick: mvc-t20, mvc-virtual and webflux x 100-1,000 users, short ramp: the three models apart in about 4 minutes.")
        Sweep.Preset preset;

        @Option(names = "--targets", split = ",", description = "Target ids (default: the preset's; default's: mvc-t200,mvc-t400,mvc-virtual,webflux), of the forms ./lab run --help lists.")
        List<String> targets;

        @Option(names = "--users", split = ",", description = "User counts (default preset: 1000,2000,3000,5000,10000,20000; quick: 100,500,1000).")
        List<Integer> users;

        @Option(names = "--latencies-ms", split = ",", description = "Latencies (default: 100).")
        List<Long> latencies;

        @Option(names = "--rates", split = ",", description = "Open-model points beside the user counts: arrivals per second "
                + "(-Dsim.injection=open), each held --level-seconds (default: none).")
        List<Double> rates;

        @Option(names = "--level-seconds", description = "How long each open point holds its rate (default: " + Sweep.Plan.LEVEL_SECONDS + ").")
        Integer levelSeconds;

        @Option(names = "--ramp-seconds", description = "Ramp (default: 30; quick: 5).")
        Integer ramp;

        @Option(names = {"--requests-per-user", "--repeat"}, description = "Requests per user (default: 30; quick: 5); "
                + "--repeat is its old name (beside --repeats, runs of each point).")
        Integer repeat;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--think-min-ms", description = "Think time, min (default: 1000).")
        Integer thinkMin;

        @Option(names = "--think-max-ms", description = "Think time, max (default: 2000).")
        Integer thinkMax;

        @Option(names = "--connections", defaultValue = "auto", description = "auto, per-user or shared (default: ${DEFAULT-VALUE}).")
        String connections;

        @Option(names = "--warmup-seconds", description = "Light load on each fresh target before its run (default: 5; quick: 2).")
        Integer warmupSeconds;

        @Option(names = "--drain-seconds", defaultValue = "120", description = "Most to wait for a point's sockets to close (default: ${DEFAULT-VALUE}).")
        int drainSeconds;

        @Option(names = "--port", description = "Port of every target, one after the other, as ./lab run --port (default: "
                + TargetPorts.MVC + " for MVC, " + TargetPorts.WEBFLUX + " for WebFlux; its actuator: this + " + TargetPorts.MANAGEMENT_OFFSET + ").")
        Integer port;

        @Option(names = "--mvc-port", hidden = true, description = "The old way to set the MVC targets' port (warns; use --port).")
        Integer mvcPort;

        @Option(names = "--webflux-port", hidden = true, description = "The old way to set the WebFlux targets' port (warns; use --port).")
        Integer webfluxPort;

        @Option(names = "--results", description = "Folder that holds the sweeps (default: " + RESULTS + "/ in the repository).")
        Path results;

        @Option(names = "--name", description = "The sweep's folder name: give an existing one to resume it (default: a timestamp).")
        String name;

        @Option(names = "--retry-failed", description = "Run failed points of a resumed sweep again.")
        boolean retryFailed;

        @Option(names = "--take-over", description = "Resume a sweep whose folder is still locked by a ./lab that is no longer "
                + "running (killed); never one that runs.")
        boolean takeOver;

        @Option(names = "--repeats", description = "Runs of each point, each on a fresh target, a whole round of the matrix "
                + "at a time (default: 1, or a resumed sweep's). Resuming with more extends a sweep.")
        Integer repeats;

        @CommandLine.Mixin
        GatlingOptions gatlingOptions;

        @Option(names = "--injectors", defaultValue = "1", description = "Gatling processes that share each point's users "
                + "(or rate, for open points), started together, their results merged into the point's (default: ${DEFAULT-VALUE}).")
        int injectors;

        @Option(names = "--repeats-from-users", description = "Repeat only the points with at least this many users; the "
                + "others run once (default: 0, every point, or a resumed sweep's). Resuming with a lower one extends a sweep.")
        Integer repeatsFromUsers;

        @Override
        public Integer call() {
            if (spec.commandLine().getParseResult().originalArgs().stream().anyMatch(a -> a.equals("--repeat") || a.startsWith("--repeat="))) {
                System.err.println("latency-lab: --repeat is now --requests-per-user (beside --repeats, the runs of each point); the old name still works");
            }
            Path repo = lab.repo.toAbsolutePath().normalize();
            if (port != null && (mvcPort != null || webfluxPort != null)) {
                throw new IllegalArgumentException("--port %d and --%s-port %d: give --port alone (the port of every target)"
                        .formatted(port, mvcPort != null ? "mvc" : "webflux", mvcPort != null ? mvcPort : webfluxPort));
            }
            if (mvcPort != null || webfluxPort != null) {
                System.err.println("latency-lab: --mvc-port and --webflux-port are now --port (the port of every target, as for ./lab run); "
                        + "the old names still work");
            }
            int mvc = Inputs.port(mvcPort != null ? "--mvc-port" : "--port", port != null ? port : mvcPort != null ? mvcPort : TargetPorts.MVC);
            int webflux = Inputs.port(webfluxPort != null ? "--webflux-port" : "--port", port != null ? port : webfluxPort != null ? webfluxPort
                    : TargetPorts.WEBFLUX);
            Inputs.injectors(injectors);
            if (warmupSeconds != null) {
                Inputs.seconds("--warmup-seconds", warmupSeconds);
            }
            Inputs.seconds("--drain-seconds", drainSeconds);
            if (latencies != null) {
                latencies.forEach(l -> Inputs.latency("--latencies-ms", l));
            }
            Path parent = results == null ? repo.resolve(RESULTS) : results.toAbsolutePath();
            sayLeftBehind(parent);
            if (name != null) {
                Inputs.folderName("--name", name);
            }
            Inputs.writableFolder("--results", parent);
            SweepFolder dir = new SweepFolder(name != null ? parent.resolve(name) : parent.resolve(stamp()));
            JsonNode earlier = dir.hasPlan() ? dir.readPlan() : null;
            int stored = earlier != null ? earlier.path(Sweep.Plan.REPEATS).asInt(1) : 1;
            int storedFrom = earlier != null ? earlier.path(Sweep.Plan.REPEATS_FROM_USERS).asInt(0) : 0;
            if (repeats != null && repeats < stored) {
                throw new IllegalArgumentException("--repeats %d: %s already runs each point %d times; give %d or more to extend it"
                        .formatted(repeats, dir.dir(), stored, stored));
            }
            Sweep.Plan plan = new Sweep.Plan(
                    targets != null ? targets : preset.targets,
                    users != null ? users : rates != null ? List.of() : preset.users, // --rates alone: open points only
                    latencies != null ? latencies : Sweep.Preset.LATENCIES_MS,
                    ramp != null ? ramp : preset.rampSeconds,
                    repeat != null ? repeat : preset.repeat,
                    thinkMin != null ? thinkMin : Sweep.Preset.THINK_MIN_MS,
                    thinkMax != null ? thinkMax : Sweep.Preset.THINK_MAX_MS,
                    connections,
                    warmupSeconds != null ? warmupSeconds : preset.warmupSeconds,
                    mvc, webflux,
                    repeats != null ? repeats : stored,
                    repeatsFromUsers != null ? repeatsFromUsers : storedFrom,
                    rates != null ? rates : List.of(),
                    levelSeconds != null ? levelSeconds : Sweep.Plan.LEVEL_SECONDS,
                    injectors);
            validate(plan); // unknown target ids and bad values stop here
            if (name == null) {
                dir = new SweepFolder(newFolder(parent, stamp())); // a new sweep's own folder, even beside one started in the same second
            }
            try (FolderLock lock = FolderLock.take(dir.dir(), "sweep --name " + dir.dir().getFileName(), takeOver)) {
                return run(plan, dir, earlier, stored, storedFrom, repo);
            }
        }

        private Integer run(Sweep.Plan plan, SweepFolder dir, JsonNode earlier, int stored, int storedFrom, Path repo) {
            PrintStream out = System.out;
            Instant start = Instant.now();
            if (earlier != null) {
                String change = Sweep.changeFrom(earlier, plan);
                if (change != null) {
                    System.err.printf("latency-lab: %s holds a sweep with other settings (%s): "
                            + "give another --name, or the same settings to resume it%n", dir.dir(), change);
                    return BAD_INPUT;
                }
                out.println("latency-lab: resuming " + dir.dir());
                if (plan.repeats() != stored || plan.repeatsFromUsers() != storedFrom) {
                    out.printf("latency-lab: extending it to %d runs of each point%s (was %d%s)%n", plan.repeats(),
                            fromUsers(plan.repeatsFromUsers()), stored, fromUsers(storedFrom));
                    Map<String, Object> json = Json.MAPPER.convertValue(earlier, LinkedHashMap.class);
                    json.put(Sweep.Plan.REPEATS, plan.repeats());
                    json.put(Sweep.Plan.REPEATS_FROM_USERS, plan.repeatsFromUsers());
                    dir.writePlan(json);
                }
                String boot = dir.bootId();
                if (boot != null && !boot.equals(Machine.bootId())) {
                    System.err.println("latency-lab: WARNING: this sweep began on another machine (or before a reboot): "
                            + "runs from here are flagged resumed-elsewhere; compare the CPU probe each point.json records");
                }
            }
            else {
                Map<String, Object> json = new LinkedHashMap<>(Json.MAPPER.convertValue(plan, Map.class));
                json.put("machine", Machine.describe());
                json.put("versions", Machine.versions());
                json.put("created", Instant.now().toString());
                dir.writePlan(json);
            }
            Sweep sweep = new Sweep(repo, dir, plan, out, Duration.ofSeconds(drainSeconds), gatlingOptions.launcher(repo));
            try (StopOnSignal signal = StopOnSignal.install(sweep::stop, "stopped; the point under way was ended and finished "
                    + "points are kept: run the same command with --name " + dir.dir().getFileName() + " to resume")) {
                sweep.run(retryFailed, () -> ComparisonPage.write(dir));
                if (sweep.stopped()) {
                    return FAILED;
                }
                ComparisonPage.write(dir);
                long failed = Summary.rows(dir).stream().filter(r -> !r.done()).count();
                out.printf("latency-lab: sweep finished in %s; %d of %d runs failed%nComparison page: %s%n",
                        minutes(Duration.between(start, Instant.now())), failed,
                        plan.points().size(), dir.page());
                if (failed > 0) {
                    System.err.printf("latency-lab: %d run(s) failed (see the page); --retry-failed with --name %s runs them again%n",
                            failed, dir.dir().getFileName());
                }
                return failed == 0 ? OK : FAILED;
            }
        }

        private static String fromUsers(int users) {
            return users == 0 ? "" : " from %,d users up".formatted(users);
        }

        private static void validate(Sweep.Plan plan) {
            plan.points().forEach(plan::settings); // each point's settings, checked as its run will check them
        }
    }

    @Command(name = "report", mixinStandardHelpOptions = true, description = {
            "Rebuild summary.csv, runs.csv, charts and index.html of a sweep folder, or print its Markdown table.",
            "With several sweep folders (e.g. from two machines) and --out, build one page that shows them side by side.",
            "Given a run's folder (./lab run's, or one holding a merged result.json), rebuild its page, result.html;",
            "given several and --out, build one page that shows them side by side."})
    static final class Report implements Callable<Integer> {

        @Parameters(paramLabel = "SWEEP_DIR", arity = "1..*", description = "e.g. results/20261122-010000, or a run's folder, e.g. results/runs/run-mvc-t200-20261122-010000")
        List<Path> dirs;

        @Option(names = "--markdown", description = "Print README's results table from SWEEP_DIR/summary.csv instead.")
        boolean markdown;

        @Option(names = "--verdict", description = "Print the sweep's verdict in Markdown instead: what bounded each target at "
                + "each load, from its points (the page opens with the same).")
        boolean verdict;

        @Option(names = "--out", description = "Folder of the page of several sweeps or runs (needed with more than one).")
        Path out;

        @Override
        public Integer call() {
            List<SweepFolder> sweeps = dirs.stream().map(SweepFolder::new).toList();
            if (markdown && verdict) {
                throw new IllegalArgumentException("--markdown and --verdict: give one (each prints a text of one sweep)");
            }
            String printing = markdown ? "--markdown prints the table of one sweep" : verdict ? "--verdict prints the verdict of one sweep" : null;
            if (sweeps.size() == 1 && !sweeps.get(0).exists() && Files.isRegularFile(new RunFolder(dirs.get(0)).resultFile()) && printing == null
                    && out == null) {
                System.out.println("Run page: " + RunPage.write(new RunFolder(dirs.get(0)).resultFile()).toAbsolutePath());
                return 0;
            }
            List<Path> runs = dirs.stream().filter(d -> !new SweepFolder(d).exists() && Files.isRegularFile(new RunFolder(d).resultFile())).toList();
            if (!runs.isEmpty() && runs.size() < dirs.size()) {
                throw new IllegalArgumentException("%s is a run's folder and %s a sweep's: give runs, or sweeps, to put side by side"
                        .formatted(runs.get(0), dirs.stream().filter(d -> !runs.contains(d)).findFirst().orElseThrow()));
            }
            if (runs.size() > 1) {
                if (out == null || printing != null) {
                    throw new IllegalArgumentException(printing != null ? printing + "; give one SWEEP_DIR"
                            : "%d runs: give --out DIR, the folder of the page that shows them side by side".formatted(runs.size()));
                }
                if (runs.stream().anyMatch(r -> r.toAbsolutePath().normalize().equals(out.toAbsolutePath().normalize()))) {
                    throw new IllegalArgumentException("--out " + out + " is one of the runs; give a folder of its own");
                }
                Inputs.writableFolder("--out", out);
                System.out.println("Runs page: " + RunsPage.write(runs.stream().map(RunFolder::new).toList(), out).toAbsolutePath());
                return 0;
            }
            for (SweepFolder sweep : sweeps) {
                if (!sweep.exists()) {
                    throw new IllegalArgumentException(sweep.dir() + " is not a sweep folder (it has no points/ and no summary.csv) nor a "
                            + "run's (no result.json); give one that ./lab sweep made, e.g. results/<name>, or a run's folder");
                }
            }
            if (sweeps.size() > 1 || out != null) {
                if (out == null || printing != null) {
                    throw new IllegalArgumentException(printing != null ? printing + "; give one SWEEP_DIR"
                            : "%d sweeps: give --out DIR, the folder of the page that shows them side by side".formatted(sweeps.size()));
                }
                SweepFolder page = new SweepFolder(out);
                if (sweeps.stream().anyMatch(s -> s.dir().toAbsolutePath().normalize().equals(out.toAbsolutePath().normalize()))) {
                    throw new IllegalArgumentException("--out " + out + " is one of the sweeps; give a folder of its own");
                }
                ComparisonPage.write(sweeps, page);
                System.out.println("Comparison page: " + page.page().toAbsolutePath());
                return 0;
            }
            SweepFolder sweep = sweeps.get(0);
            if (markdown) {
                System.out.print(ResultsTable.markdown(Summary.readCsv(sweep.summaryCsv())));
                return 0;
            }
            if (verdict) {
                System.out.print(Verdict.markdown(sweep));
                return 0;
            }
            ComparisonPage.write(sweep);
            System.out.println("Comparison page: " + sweep.page().toAbsolutePath());
            return 0;
        }
    }

    @Command(name = "rebuild-docs", mixinStandardHelpOptions = true, description = {
            "Rebuild every published page, table and chart from its data: the sweeps under docs/ (summary.csv, runs.csv, "
                    + "charts, index.html), the side-by-side page, the split runs' pages, the capacity searches and their chart, "
                    + "and the tables in README.md and docs/*.md between their markers.",
            "With --check, rebuild a copy instead and list the files that came out different (exit 1), changing nothing."})
    static final class RebuildDocs implements Callable<Integer> {

        @CommandLine.ParentCommand
        LatencyLab lab;

        @Option(names = "--check", description = "Compare instead of writing: exit 0 when every published file is what its data gives.")
        boolean check;

        @Override
        public Integer call() throws IOException {
            Path repo = lab.repo.toAbsolutePath().normalize();
            if (!check) {
                List<Path> written = Published.rebuild(repo);
                System.out.printf("latency-lab: rebuilt %d published files from their data (git diff shows what changed)%n", written.size());
                return OK;
            }
            Path scratch = Files.createTempDirectory("latency-lab-docs");
            try {
                List<String> differ = Published.check(repo, scratch);
                if (differ.isEmpty()) {
                    System.out.println("latency-lab: every published page, table and chart is what its data gives");
                    return OK;
                }
                differ.forEach(f -> System.out.println("latency-lab: differs from what its data gives: " + f));
                System.out.printf("latency-lab: %d published files differ; ./lab rebuild-docs writes them again%n", differ.size());
                return FAILED;
            }
            finally {
                Sweep.deleteRecursively(scratch);
            }
        }
    }

    @Command(name = "merge", mixinStandardHelpOptions = true, description = {
            "Merge the result files of the K injectors of one run (sim.injectors=K, e.g. copied from K machines) into one "
                    + "result.json of the same schema: histograms added exactly, per-second series aligned on wall-clock seconds "
                    + "and summed, KO summed by reason, each injector's counts, CPU and open files kept in its parts.",
            "Refused, writing nothing: files of different runs or settings, an injector missing or given twice, starts more "
                    + "than 5 s apart.",
            "Beside the merged file: its page (FILE.html, with FILE-per-second.png), the merged run's own page."})
    static final class Merge implements Callable<Integer> {

        @Parameters(paramLabel = "RESULT", arity = "1..*", description = "A result file, or a folder holding result.json (e.g. injector-0).")
        List<Path> inputs;

        @Option(names = "--out", required = true, description = "The merged result file to write (not one that exists).")
        Path out;

        @Override
        public Integer call() {
            List<Path> files = new ArrayList<>();
            for (Path input : inputs) {
                Path f = Files.isDirectory(input) ? input.resolve(ResultFile.NAME) : input;
                if (!Files.isRegularFile(f)) {
                    throw new IllegalArgumentException("%s: no such result file%s".formatted(f,
                            Files.isDirectory(input) ? " in that folder (is it an injector's run folder?)" : ""));
                }
                files.add(f);
            }
            for (Path written : List.of(out, RunPage.of(out), RunPage.chartOf(out))) {
                if (Files.exists(written)) {
                    throw new IllegalArgumentException("--out %s: %s exists; give a new file (merge never overwrites)".formatted(out, written));
                }
            }
            Path folder = Inputs.writableFolder("--out", out.toAbsolutePath().getParent());
            Result merged = ResultMerge.merge(files, folder);
            try {
                ResultFile.writeNew(merged, out); // exclusive: of two merges to one --out, one writes and the other stops here
            }
            catch (java.io.UncheckedIOException e) {
                if (e.getCause() instanceof java.nio.file.FileAlreadyExistsException) {
                    throw new IllegalArgumentException("--out %s: written by another command meanwhile; nothing written (merge never overwrites)"
                            .formatted(out));
                }
                throw e;
            }
            Path page = RunPage.write(out);
            System.out.printf("Merged %d injectors: %s, %,d KO; p99 %s ms%n", merged.parts().size(), ResultMerge.requestCounts(merged),
                    merged.requests().ko(), merged.responseTimeMs().p99());
            merged.problems().forEach(p -> System.err.println("latency-lab: PROBLEM: " + p));
            System.out.println("Result file: " + out.toAbsolutePath());
            System.out.println("Run page: " + page.toAbsolutePath());
            return merged.problems().isEmpty() ? OK : FAILED;
        }
    }

    /** A folder of its own for one run: a second run started in the same second gets another. */
    static Path newFolder(Path parent, String name) {
        Inputs.writableFolder("the results folder", parent);
        try {
            for (int i = 1; ; i++) {
                Path dir = parent.resolve(i == 1 ? name : name + "-" + i);
                try {
                    return Files.createDirectory(dir);
                }
                catch (java.nio.file.FileAlreadyExistsException taken) {
                    // another run's: try the next name
                }
            }
        }
        catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Where ./lab keeps what it measured, under the repository unless --results says otherwise: sweeps here, */
    static final String RESULTS = "results";
    /** ./lab run's folders, */
    static final String RUNS = RESULTS + "/runs";
    /** ./lab capacity's searches. */
    static final String SEARCHES = RESULTS + "/capacity";

    /** Folders under parent that a killed ./lab left locked: said once, before the command's own work. */
    static void sayLeftBehind(Path parent) {
        FolderLock.leftBehind(parent).forEach(note -> System.err.println("latency-lab: " + note));
    }

    static String minutes(Duration d) {
        return "%d:%02d min".formatted(d.toMinutes(), d.toSecondsPart());
    }

    static String stamp() {
        return LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    }
}
