package dev.latencylab.lab.run;

import java.io.Writer;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import dev.latencylab.load.result.Jvm;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.load.merge.ResultMerge;
import dev.latencylab.load.settings.SimulationSettings;
import dev.latencylab.load.tls.Protocol;
import dev.latencylab.load.tls.TlsTrust;
import dev.latencylab.lab.format.Figures;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.targets.Target;

/**
 * One simulation against a fresh target JVM, as run, sweep and capacity all do it: start a fresh PostgreSQL when the
 * target waits in one, or a fresh downstream service (the WebFlux target) when it calls one; start the target and
 * wait until it is healthy, warm it up (not measured), run the simulation pointed at it, move Gatling's report into
 * the run's folder, stop the target (and what it depends on).
 */
public final class TargetRun {

    /** How long a target may take to become healthy. */
    static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    /** A console that shows nothing: what a run reports to when its caller says its own lines. */
    public static final PrintWriter SILENT = new PrintWriter(Writer.nullWriter());
    /** Time for the warm-up's last requests to be answered before the load begins. */
    static final Duration WARMUP_END = Duration.ofMillis(300);

    private TargetRun() {
    }

    /**
     * One run to make: the target on this port, the simulation's settings and the properties given to Gatling as they
     * are (e.g. gatling.http.requestTimeout), the run's folder, the warm-up before it, and how many Gatling processes
     * share the load (see {@link #split}; 1: one, as a user runs it by hand); jvmEvents: the target records its JVM's
     * events (see {@link JvmEvents}) into the run's result.
     */
    public record Load(Target target, int port, SimulationSettings settings, Map<String, String> passOn, RunFolder dir, Duration warmup,
            int injectors, boolean jvmEvents, Jdk jdk) {

        /** On the build's JDK. */
        public Load(Target target, int port, SimulationSettings settings, Map<String, String> passOn, RunFolder dir, Duration warmup,
                int injectors, boolean jvmEvents) {
            this(target, port, settings, passOn, dir, warmup, injectors, jvmEvents, null);
        }

        /** What result.json records of the target: its settings, and the JDK it ran on when another than the build's. */
        Result.TargetSettings recorded() {
            Result.TargetSettings settings = target.settings();
            if (jdk == null) {
                return settings;
            }
            Map<String, String> with = new LinkedHashMap<>(settings.properties());
            with.put(JDK_PROPERTY, jdk.describe());
            return new Result.TargetSettings(settings.id(), settings.module(), with);
        }
    }

    /** The target's JVM options: those its id stands for, and its flight recording's. */
    private static List<String> jvmOptions(Path repo, Load load) {
        List<String> options = new ArrayList<>(load.target().jvmOptions());
        if (load.jvmEvents()) {
            options.addAll(JvmEvents.recordingOptions(repo, load.dir().targetRecording()));
        }
        return options;
    }

    /** The name result.json gives the JDK of a target started on another JDK than the build's (--jdk). */
    public static final String JDK_PROPERTY = "jdk";

    /**
     * @param echo     the console the run reports to; {@link #SILENT} for a sweep's points and a search's ladders (they
     *                 say their own)
     * @param stopping asked after the warm-up and after the run: true (a signal) ends it as {@link RunOutcome.Stopped}
     * @return Gatling's outcome, its report in the run's folder, and what the run started; or stopped
     * @throws TargetProcess.TargetFailedException when the target or what it depends on does not start: nothing ran
     */
    public static RunOutcome run(Path repo, GatlingLauncher gatling, Load load, PrintWriter echo, BooleanSupplier stopping) {
        return run(repo, gatling, load, echo, stopping, Handover.NONE);
    }

    /**
     * A sweep's hand in a run: the target when it was started ahead ({@link #startAlone}; null: the run starts it),
     * and what to do once the load has ended and the target has stopped (its port is free; Gatling still writes its
     * report): the sweep starts the next point's target there.
     */
    public record Handover(TargetProcess started, Runnable loadEnded) {

        public static final Handover NONE = new Handover(null, () -> {
        });
    }

    /** Whether a target depends on nothing the run starts first (PostgreSQL, a downstream): only such a one starts ahead. */
    public static boolean startsAlone(Target target) {
        return !target.needsDatabase() && !target.needsDownstream();
    }

    /**
     * Starts a target that {@link #startsAlone} as its run would, and waits until it is healthy: for a sweep to start a
     * point's target while the last point ends.
     */
    public static TargetProcess startAlone(Path repo, Load load) {
        if (!startsAlone(load.target())) {
            throw new IllegalArgumentException(load.target().id() + " depends on a service the run starts first");
        }
        return startServer(repo, load, null, null);
    }

    private static TargetProcess startServer(Path repo, Load load, EmbeddedDatabase database, TargetProcess downstream) {
        Target target = load.target();
        return TargetProcess.start(repo, target.module(), load.jdk(), target.classpathFirst(repo), load.port(),
                properties(target, database, downstream), environment(target), jvmOptions(repo, load), load.dir().targetLog(), START_TIMEOUT);
    }

    /** The same, the target started ahead or not, and the hook once its load ended (see {@link Handover}). */
    public static RunOutcome run(Path repo, GatlingLauncher gatling, Load load, PrintWriter echo, BooleanSupplier stopping, Handover handover) {
        Target target = load.target();
        if (handover.started() != null && !startsAlone(target)) {
            throw new IllegalArgumentException(target.id() + " depends on a service its run starts first: it cannot be started ahead");
        }
        RunFolder dir = load.dir();
        SimulationSettings settings = load.settings();
        Map<String, String> passOn = load.passOn();
        Duration warmup = load.warmup();
        int injectors = load.injectors();
        try (EmbeddedDatabase database = target.needsDatabase() ? EmbeddedDatabase.start(dir.databaseLog(), target.databaseMaxConnections()) : null;
                TargetProcess downstream = target.needsDownstream() ? TargetProcess.start(repo, Target.WEBFLUX_MODULE,
                        FreePorts.port(), target.downstreamServerProperties(), Map.of(), List.of(), dir.downstreamLog(), START_TIMEOUT) : null;
                TargetProcess server = handover.started() != null ? handover.started() : startServer(repo, load, database, downstream);
                DependencyWatch dependencies = new DependencyWatch()) { // closed first: the lab's own stop is no problem
            DependenciesStarted beside = DependenciesStarted.watch(dependencies, downstream, database, echo);
            // Gatling's JVM starts while the target warms up; the load begins when the warm-up has ended (and, for
            // several injectors, when all of them can have started)
            Instant startAt = Instant.now().plus(warmup).plus(WARMUP_END).plus(injectors > 1 ? gatling.injectorLead() : Duration.ZERO);
            SimulationSettings here = settings.forTarget(server.baseUrl(), target.protocol() == Protocol.H2, server.pid(), dir.resultFile());
            Map<String, String> trusting = new LinkedHashMap<>(passOn);
            if (target.protocol().tls()) {
                // the load trusts the run's certificate alone; the warm-up and the checks here, the same
                TlsTrust trust = RunCertificate.get().trust();
                trust.useInThisJvm();
                trusting.putAll(trust.gatlingProperties());
            }
            CompletableFuture<GatlingLauncher.Exit> gatlingRun;
            try (ExecutorService thread = Executors.newVirtualThreadPerTaskExecutor()) {
                // each result file is stamped as soon as it is written; once every injector has written its own, the
                // target stops, while Gatling still writes its report and exits
                AtomicInteger written = new AtomicInteger();
                Consumer<Path> resultWritten = file -> {
                    stamp(file, load.recorded());
                    if (written.incrementAndGet() == injectors) {
                        thread.execute(() -> {
                            server.close();
                            handover.loadEnded().run();
                        });
                    }
                };
                gatlingRun = CompletableFuture.supplyAsync(() -> injectors > 1
                        ? split(gatling, description(target, settings), here, trusting, dir, injectors, startAt, echo, resultWritten)
                        : single(gatling, target, here.startingAt(startAt), trusting, dir, echo, resultWritten), thread);
                Warmup.Sent warm = Warmup.run(server.baseUrl() + settings.endpoint().path(), warmup, 50);
                RunOutcome.Started started = new RunOutcome.Started(server.pid(), server.startedAt(), beside.downstream(), beside.database(),
                        new RunOutcome.Warmed(warmup.toSeconds(), warm.ok(), warm.failed()));
                echo.printf("latency-lab: target pid %d warmed up for %d s (%d requests, not measured)%n", server.pid(),
                        warmup.toSeconds(), warm.ok() + warm.failed());
                if (stopping.getAsBoolean()) {
                    gatling.stop();
                }
                GatlingLauncher.Exit run = gatlingRun.join();
                if (stopping.getAsBoolean()) {
                    return new RunOutcome.Stopped();
                }
                if (load.jvmEvents()) {
                    server.close(); // its recording is written as it exits
                    run = withJvmEvents(run, dir, echo);
                }
                return new RunOutcome.Finished(withDependencies(run, dependencies), started);
            }
        }
    }

    /** What the lab started for the target to depend on: watched from now on, and said on the console. */
    private record DependenciesStarted(RunOutcome.Downstream downstream, EmbeddedDatabase.Described database) {

        static DependenciesStarted watch(DependencyWatch dependencies, TargetProcess downstream, EmbeddedDatabase database, PrintWriter echo) {
            RunOutcome.Downstream called = null;
            EmbeddedDatabase.Described described = null;
            if (downstream != null) {
                dependencies.watch("the downstream service (WebFlux, at " + downstream.baseUrl() + ")", downstream.pid());
                called = new RunOutcome.Downstream(downstream.pid(), downstream.baseUrl());
                echo.printf("latency-lab: downstream service (WebFlux, pid %d) at %s%n", downstream.pid(), downstream.baseUrl());
            }
            if (database != null) {
                described = database.describe();
                dependencies.watch("the embedded PostgreSQL (port " + described.port() + ")", described.pid());
                echo.printf("latency-lab: PostgreSQL %s (embedded, pid %s, port %s, max_connections %s)%n", described.version(),
                        described.pid(), described.port(), described.maxConnections());
            }
            return new DependenciesStarted(called, described);
        }
    }

    /** One Gatling process: its report kept in the run's folder. */
    private static GatlingLauncher.Exit single(GatlingLauncher gatling, Target target, SimulationSettings settings,
            Map<String, String> passOn, RunFolder dir, PrintWriter echo, Consumer<Path> resultWritten) {
        Map<String, String> sim = new LinkedHashMap<>(settings.toProperties());
        sim.putAll(passOn);
        GatlingLauncher.Exit run = gatling.run(sim, description(target, settings), dir.gatlingLog(), echo, resultWritten);
        run.keepReport(dir);
        return run;
    }

    /**
     * Records in a run's result file which target it loaded (the simulation does not know it). A file that fails its
     * check is left as it is, for the check to refuse where it is read.
     */
    private static void stamp(Path resultFile, Result.TargetSettings target) {
        try {
            ResultFile.write(ResultFile.read(resultFile).withTarget(target), resultFile);
        }
        catch (ResultFile.BadResultFile e) {
            // left for the merge or the caller's read to report
        }
    }

    /**
     * The target's JVM events within the run, added to its result file. A recording that cannot be read (cut short by a
     * full disk, or a target killed before it could write it) makes the run fail, said in its result's problems and on
     * the console: a point without the events every run records is not done, and a resumed sweep runs it again.
     */
    static GatlingLauncher.Exit withJvmEvents(GatlingLauncher.Exit run, RunFolder dir, PrintWriter echo) {
        if (run.resultFile() == null || !Files.isRegularFile(run.resultFile())) {
            return run;
        }
        Result result;
        try {
            result = ResultFile.read(run.resultFile());
        }
        catch (ResultFile.BadResultFile e) {
            return run; // left for the caller's read to refuse
        }
        Jvm events;
        try {
            events = JvmEvents.read(dir.targetRecording(), Instant.parse(result.start()), Instant.parse(result.end()));
        }
        catch (java.io.UncheckedIOException e) {
            String why = "the target's flight recording cannot be read (%s): the run has no JVM events; run it again"
                    .formatted(e.getCause() == null ? e.getMessage() : e.getCause().getMessage());
            echo.println("latency-lab: " + why);
            ResultFile.write(result.withProblems(List.of(why)), run.resultFile());
            List<String> problems = new ArrayList<>(run.problems());
            problems.add(why);
            return new GatlingLauncher.Exit(run.exitCode(), run.reportDir(), run.resultFile(), run.lastError(), problems);
        }
        ResultFile.write(result.withJvm(events), run.resultFile());
        return run;
    }

    /** The run's outcome and result file with a problem for each dependency that exited while it was under way. */
    private static GatlingLauncher.Exit withDependencies(GatlingLauncher.Exit run, DependencyWatch dependencies) {
        if (!dependencies.anyExited()) {
            return run;
        }
        Result result = run.resultFile() == null ? null : ResultFile.read(run.resultFile());
        List<String> died = dependencies.problems(result == null ? null : Instant.parse(result.start()));
        if (result != null) {
            ResultFile.write(result.withProblems(died), run.resultFile());
        }
        List<String> problems = new ArrayList<>(run.problems());
        problems.addAll(died);
        return new GatlingLauncher.Exit(run.exitCode(), run.reportDir(), run.resultFile(), run.lastError(), problems);
    }

    /**
     * The load split over K Gatling processes on this machine, each with its share of the users (or of each rate) and its own folder
     * (dir/injector-i: log, report, result file), all starting at the same moment; their result files merged into
     * dir's (see ResultMerge). Only injector 0's console is echoed. The run counts only if every injector's did and
     * the merge found them one run.
     */
    static GatlingLauncher.Exit split(GatlingLauncher gatling, String description, SimulationSettings settings, Map<String, String> passOn,
            RunFolder dir, int injectors, Instant startAt, PrintWriter echo, Consumer<Path> resultWritten) {
        echo.printf("latency-lab: %d injectors, %s between them, start together at %s (folders %s)%n", injectors,
                settings.open() ? settings.load().rates().stream().map(Figures::rate).collect(java.util.stream.Collectors.joining(", ")) + " req/s"
                        : "%,d users".formatted(settings.users()),
                startAt, dir.injector(0).dir().getFileName() + ".." + dir.injector(injectors - 1).dir().getFileName());
        List<GatlingLauncher.Exit> outcomes;
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<CompletableFuture<GatlingLauncher.Exit>> runs = new ArrayList<>();
            for (int i = 0; i < injectors; i++) {
                int index = i;
                RunFolder part = dir.injector(i);
                Map<String, String> sim = new LinkedHashMap<>(settings.forInjector(injectors, i, startAt, part.resultFile()).toProperties());
                sim.putAll(passOn);
                PrintWriter console = i == 0 ? echo : SILENT;
                runs.add(CompletableFuture.supplyAsync(() -> {
                    GatlingLauncher.Exit o = gatling.run(sim, description + ", injector %d of %d".formatted(index, injectors),
                            part.gatlingLog(), console, resultWritten);
                    o.keepReport(part);
                    return o;
                }, pool));
            }
            outcomes = runs.stream().map(CompletableFuture::join).toList();
        }
        List<String> why = new ArrayList<>();
        for (int i = 0; i < injectors; i++) {
            int index = i;
            GatlingLauncher.Exit o = outcomes.get(i);
            if (!o.succeeded()) {
                o.failures(dir.injector(i).gatlingLog()).forEach(f -> why.add("injector %d: %s".formatted(index, f)));
            }
        }
        int exit = outcomes.stream().mapToInt(GatlingLauncher.Exit::exitCode).filter(c -> c != 0).findFirst().orElse(0);
        if (outcomes.stream().anyMatch(o -> o.resultFile() == null)) {
            return new GatlingLauncher.Exit(exit == 0 ? 1 : exit, null, null, String.join("; ", why), why);
        }
        Result merged;
        try {
            merged = ResultMerge.merge(outcomes.stream().map(GatlingLauncher.Exit::resultFile).toList(), dir.dir());
        }
        catch (ResultMerge.MergeException e) {
            // e.g. an injector that started late: the run failed (exit 1, a failed sweep point), not the user's input
            why.add("the injectors' results do not merge: " + e.getMessage());
            return new GatlingLauncher.Exit(exit == 0 ? 1 : exit, null, null, why.get(0), why);
        }
        ResultFile.write(merged, dir.resultFile());
        echo.printf("latency-lab: merged %d injectors' results: %s, result file %s%n", injectors, ResultMerge.requestCounts(merged),
                dir.resultFile());
        List<String> problems = new ArrayList<>(merged.problems());
        why.stream().filter(w -> !problems.contains(w)).forEach(problems::add);
        return new GatlingLauncher.Exit(exit, null, dir.resultFile(), why.isEmpty() ? null : why.get(0), problems);
    }

    /** What Gatling's report calls the run: the target's id and the load, e.g. "mvc-t200, 5,000 users, /hello/100". */
    static String description(Target target, SimulationSettings settings) {
        String load = settings.open() ? settings.load().rates().stream().map(Figures::rate).collect(java.util.stream.Collectors.joining(", "))
                + " req/s" : "%,d users".formatted(settings.users());
        return "%s, %s, %s".formatted(target.id(), load, settings.endpoint().path());
    }

    /** The target's environment: over TLS, its key store's password. */
    private static Map<String, String> environment(Target target) {
        return target.protocol().tls() ? RunCertificate.get().serverEnvironment() : Map.of();
    }

    private static Map<String, String> properties(Target target, EmbeddedDatabase database, TargetProcess downstream) {
        Map<String, String> p = new LinkedHashMap<>(target.properties());
        if (target.protocol().tls()) {
            p.putAll(RunCertificate.get().serverProperties());
        }
        if (database != null) {
            p.putAll(target.databaseProperties(database.port()));
        }
        if (downstream != null) {
            p.putAll(Target.downstreamProperties(downstream.baseUrl()));
        }
        return p;
    }
}
