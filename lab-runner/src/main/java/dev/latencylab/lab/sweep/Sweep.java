package dev.latencylab.lab.sweep;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

import tools.jackson.databind.JsonNode;

import dev.latencylab.lab.run.TargetProcess.TargetFailedException;
import dev.latencylab.load.Json;
import dev.latencylab.load.QueueingModel;
import dev.latencylab.load.ResultFile;
import dev.latencylab.load.SimulationSettings;
import dev.latencylab.lab.layout.Folders;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.run.GatlingLauncher;
import dev.latencylab.lab.run.Point;
import dev.latencylab.lab.run.PointRecord;
import dev.latencylab.lab.run.RunOutcome;
import dev.latencylab.lab.run.ServiceRun;
import dev.latencylab.lab.run.ServiceSpec;
import dev.latencylab.lab.run.SocketDrain;
import dev.latencylab.lab.run.TargetRun;
import dev.latencylab.lab.summary.MachineCeiling;
import dev.latencylab.lab.summary.Summary;
import dev.latencylab.lab.run.Jdk;
import dev.latencylab.lab.targets.Target;

/**
 * Runs a matrix of points, each one on a fresh target JVM: start, wait until healthy, warm up, run the simulation
 * as a user would, keep its result and report, stop, wait for the sockets to drain. Finished points are kept:
 * running the same sweep again skips them. A failing point is recorded with its reason and the sweep goes on.
 */
public final class Sweep {

    /** What a sweep runs when no option says otherwise: data, one row per preset. */
    public enum Preset {
        /** The classic scenario: 4 targets, 1,000 to 20,000 users, 30 s ramp, 30 requests each. */
        DEFAULT(List.of("mvc-t200", "mvc-t400", "mvc-virtual", "webflux"), List.of(1000, 2000, 3000, 5000, 10000, 20000), 30, 30, 5),
        /**
         * The three models apart in a few minutes: a pool of 20 threads (T/L 200 req/s at 100 ms, its knee at 320 users)
         * saturates at 500 and 1,000 users, where virtual threads and WebFlux follow the offered load (312 and 625
         * req/s). The runs are short, so cold JVMs spend CPU on the plateau: at 1,000 users this 2-core machine's CPU
         * was 86-99% busy (flagged so), though the offered load, not the CPU, decided the goodput.
         */
        QUICK(List.of("mvc-t20", "mvc-virtual", "webflux"), List.of(100, 500, 1000), 5, 5, 2);

        public static final List<Long> LATENCIES_MS = List.of(100L);
        public static final int THINK_MIN_MS = 1000;
        public static final int THINK_MAX_MS = 2000;

        public final List<String> targets;
        public final List<Integer> users;
        public final int rampSeconds;
        public final int repeat;
        public final int warmupSeconds;

        Preset(List<String> targets, List<Integer> users, int rampSeconds, int repeat, int warmupSeconds) {
            this.targets = targets;
            this.users = users;
            this.rampSeconds = rampSeconds;
            this.repeat = repeat;
            this.warmupSeconds = warmupSeconds;
        }
    }

    /**
     * Everything that defines a sweep, in named parts; stored flat in sweep.json (see {@link SweepFile}) so that a
     * resumed sweep is the same sweep. injectors: Gatling processes that share each closed point's users, their results
     * merged into the point's (see TargetRun#split); sweeps from before it have none: 1. jvmEvents: whether each target
     * records its JVM's events; sweeps from before it have none: their points from here on record them. jdk: the JDK the
     * targets start on, as --jdk gave it (null, and sweeps from before it: the build's). service: a service of the
     * user's that every point loads instead of the lab's targets (null: the matrix's targets).
     */
    public record Plan(@JsonUnwrapped Matrix matrix, @JsonUnwrapped Pacing pacing, @JsonUnwrapped Ports ports,
            @JsonUnwrapped Repeats runs, @JsonUnwrapped Levels open, Integer injectors, Boolean jvmEvents,
            @JsonInclude(JsonInclude.Include.NON_NULL) String jdk, @JsonInclude(JsonInclude.Include.NON_NULL) ServiceSpec service) {

        /** A plan of the lab's own targets. */
        public Plan(Matrix matrix, Pacing pacing, Ports ports, Repeats runs, Levels open, Integer injectors, Boolean jvmEvents, String jdk) {
            this(matrix, pacing, ports, runs, open, injectors, jvmEvents, jdk, null);
        }

        public Plan {
            injectors = injectors == null ? 1 : injectors;
            jvmEvents = jvmEvents == null || jvmEvents;
            if (injectors < 1) {
                throw new IllegalArgumentException("--injectors: " + injectors + " Gatling processes; give 1 or more");
            }
        }

        /**
         * What differs in this plan from the one a sweep folder holds, as "name was X, now Y"; null when they are the
         * same sweep. How many runs (the {@link Repeats}) may differ: a resume may extend a sweep.
         */
        public String changeFrom(Plan earlier) {
            JsonNode before = Json.MAPPER.valueToTree(earlier);
            List<String> howMany = java.util.Arrays.stream(Repeats.class.getRecordComponents()).map(java.lang.reflect.RecordComponent::getName).toList();
            for (Map.Entry<String, JsonNode> field : Json.MAPPER.valueToTree(this).properties()) {
                if (!howMany.contains(field.getKey()) && !before.path(field.getKey()).equals(field.getValue())) {
                    return "%s was %s, now %s".formatted(field.getKey(), before.path(field.getKey()), field.getValue());
                }
            }
            return null;
        }

        /**
         * Every run of every point, a whole round of the matrix before the next: a slow spell of the machine hits
         * every target, and a sweep stopped early has compared them all at least once.
         */
        public List<Point> points() {
            List<Point> points = new ArrayList<>();
            for (int run = 1; run <= runs.repeats(); run++) {
                // users outermost: at any moment the finished points compare every target at the lower counts
                for (long latency : matrix.latenciesMs()) {
                    for (int n : matrix.users()) {
                        if (run > 1 && n < runs.repeatsFromUsers()) {
                            continue;
                        }
                        for (Target t : onItsJdk(matrix.targets())) {
                            points.add(new Point(t, n, latency, run));
                        }
                    }
                    // open points after the closed ones, every round (--repeats-from-users counts users)
                    for (double rate : open.rates()) {
                        for (Target t : onItsJdk(matrix.targets())) {
                            points.add(Point.open(t, rate, latency, run));
                        }
                    }
                }
            }
            return points;
        }

        /** The targets, on the JDK the sweep starts them on (see {@link Target#onJdk}); a service of the user's as it is. */
        private List<Target> onItsJdk(List<String> ids) {
            if (service != null) {
                return List.of(service.target());
            }
            int feature = Jdk.featureOf(targetJdk());
            return Target.parseAll(ids).stream().map(t -> t.onJdk(feature)).toList();
        }

        /** The JDK the targets start on, found and asked its version; null: the build's. */
        public Jdk targetJdk() {
            return jdk == null ? null : Jdk.resolve(jdk);
        }

        /** The simulation's settings for one point (the target's URL and PID are added when it runs; a service's are its own). */
        public SimulationSettings settings(Point p) {
            Map<String, String> m = new LinkedHashMap<>();
            if (service != null) {
                m.putAll(service.properties());
            }
            else {
                m.put(SimulationSettings.PATH, p.target().path(p.latencyMs()));
            }
            m.put(SimulationSettings.RAMP_SECONDS, String.valueOf(pacing.rampSeconds()));
            if (p.isOpen()) {
                // an open point: its rate held for a level after the sweep's ramp, the default SLO, never stopped
                m.put(SimulationSettings.INJECTION, "open");
                m.put(SimulationSettings.RATE, SimulationSettings.rate(p.rate()));
                m.put(SimulationSettings.LEVEL_SECONDS, String.valueOf(open.levelSeconds()));
            }
            else {
                m.put(SimulationSettings.USERS, String.valueOf(p.users()));
                m.put(SimulationSettings.REPEAT, String.valueOf(pacing.repeat()));
                m.put(SimulationSettings.THINK_MIN_MS, String.valueOf(pacing.thinkMinMs()));
                m.put(SimulationSettings.THINK_MAX_MS, String.valueOf(pacing.thinkMaxMs()));
                m.put(SimulationSettings.CONNECTIONS, pacing.connections());
            }
            if (p.target().poolThreads() > 0) {
                m.put(SimulationSettings.MODEL_THREADS, String.valueOf(p.target().poolThreads()));
            }
            if (injectors > 1) {
                // checked here as each injector will check it (users per injector, rates that split); the run gives each its index
                m.put(SimulationSettings.INJECTORS, String.valueOf(injectors));
            }
            return SimulationSettings.from(m);
        }

        int port(Target t) {
            return t.isMvc() ? ports.mvcPort() : ports.webfluxPort();
        }

        /**
         * How long a point's load and warm-up are planned to take: the warm-up, the ramp, then for a closed point its
         * users' requests each followed by a mean think time, for an open one the level. The rest of a point's time
         * (starting the target and Gatling, draining) is its overhead, measured as the sweep goes.
         */
        public Duration planned(Point p) {
            long loadMs = p.isOpen() ? open.levelSeconds() * 1000L : pacing.repeat() * (p.latencyMs() + (pacing.thinkMinMs() + pacing.thinkMaxMs()) / 2L);
            return Duration.ofSeconds(pacing.warmupSeconds() + pacing.rampSeconds()).plusMillis(loadMs);
        }
    }

    /** The points of a sweep: each target at each count of users (and each open rate, see {@link Levels}), at each latency. */
    public record Matrix(List<String> targets, List<Integer> users, List<Long> latenciesMs) {
    }

    /** How a closed point's users arrive and pace themselves, and how long each target is warmed up first. */
    public record Pacing(int rampSeconds, int repeat, int thinkMinMs, int thinkMaxMs, String connections, int warmupSeconds) {
    }

    /** Where each kind of target listens. */
    public record Ports(int mvcPort, int webfluxPort) {
    }

    /**
     * How many runs: repeats of each point (each on a fresh target JVM), of the points with at least repeatsFromUsers
     * users (the others run once; 0: every point). They say how many runs, not what a run is: a resume may change them.
     */
    public record Repeats(int repeats, int repeatsFromUsers) {

        public Repeats {
            if (repeats < 1) {
                throw new IllegalArgumentException("--repeats: " + repeats + " runs of each point; give 1 or more");
            }
            if (repeatsFromUsers < 0) {
                throw new IllegalArgumentException("--repeats-from-users: " + repeatsFromUsers + "; give 0 (every point) or more");
            }
        }
    }

    /** The open points' rates and how long each is held; sweeps from before the open model have neither: none. */
    public record Levels(List<Double> rates, Integer levelSeconds) {

        /** How long an open point holds its rate unless --level-seconds says otherwise. */
        public static final int LEVEL_SECONDS = 60;

        public Levels {
            rates = rates == null ? List.of() : List.copyOf(rates);
            levelSeconds = levelSeconds == null ? LEVEL_SECONDS : levelSeconds;
        }
    }

    private final Path repo;
    private final SweepFolder folder;
    private final Plan plan;
    private final PrintStream out;
    private final GatlingLauncher gatling;
    private final Duration drainMax;
    private volatile boolean stopping;

    public Sweep(Path repo, SweepFolder folder, Plan plan, PrintStream out, Duration drainMax, GatlingLauncher gatling) {
        this.repo = repo;
        this.folder = folder;
        this.plan = plan;
        this.out = out;
        this.gatling = gatling;
        this.drainMax = drainMax;
    }

    /** The rows of every run of the sweep in this folder, a run made on another machine than it began on flagged. */
    public static List<Summary.RunRow> rows(SweepFolder folder) {
        return Summary.rows(folder, SweepFile.bootId(folder));
    }

    /** The sweep's points (see {@link #rows}), each target's machine ceiling taken from its runs. */
    public static List<Summary.PointRow> points(SweepFolder folder) {
        List<Summary.RunRow> runs = rows(folder);
        return Summary.points(runs, MachineCeiling.of(runs));
    }

    /**
     * Runs every point not done yet (and failed ones again when asked).
     *
     * @param afterEachPoint what to do once a point has its record (the command rebuilds the page)
     */
    public void run(boolean retryFailed, Runnable afterEachPoint) {
        List<Point> points = plan.points();
        List<Point> toRun = new ArrayList<>(points.stream().filter(p -> runs(PointRecord.outcome(p.folder(folder)), retryFailed)).toList());
        Instant begun = Instant.now();
        Duration overhead = Duration.ZERO; // beyond the planned load, summed over the points run so far
        int ran = 0;
        int i = 0;
        for (Point p : points) {
            i++;
            if (stopping) {
                return;
            }
            PointRecord.Outcome recorded = PointRecord.outcome(p.folder(folder));
            if (!runs(recorded, retryFailed)) {
                out.printf("[%d/%d] %s  kept (%s earlier)%n", i, points.size(), p.label(), recorded.done() ? "done" : "failed");
                continue;
            }
            out.printf("[%d/%d] %s%s  starting  (%s)%n", i, points.size(), p.label(),
                    p.target().isService() ? "" : " latency=%d ms".formatted(p.latencyMs()),
                    RunLines.timeLeft(Duration.between(begun, Instant.now()), toRun, ran == 0 ? null : overhead.dividedBy(ran), plan));
            nearCeiling(p).ifPresent(out::println);
            Instant pointStart = Instant.now();
            String line = runPoint(p);
            Duration beyond = Duration.between(pointStart, Instant.now()).minus(plan.planned(p));
            overhead = overhead.plus(beyond.isNegative() ? Duration.ZERO : beyond); // a point that failed at once took less
            ran++;
            toRun.remove(p);
            if (stopping) {
                return;
            }
            out.printf("[%d/%d] %s  %s%n", i, points.size(), p.label(), line);
            afterEachPoint.run();
        }
    }

    /** Whether a point runs: never recorded (or interrupted), or failed and retried. */
    private static boolean runs(PointRecord.Outcome recorded, boolean retryFailed) {
        return recorded == null || (!recorded.done() && retryFailed);
    }

    /**
     * A warning when the point's model throughput is near its target's machine ceiling as the sweep's finished runs
     * measure it: then the machine's CPU, not only the server, decides what the point shows.
     */
    private Optional<String> nearCeiling(Point p) {
        MachineCeiling ceiling = MachineCeiling.of(rows(folder)).get(p.target().id());
        if (ceiling == null) {
            return Optional.empty();
        }
        SimulationSettings s = plan.settings(p);
        Optional<Double> model = s.open() ? ResultFile.openModel(s, s.modelThreads()).map(m -> m.throughput())
                : ResultFile.model(s, s.modelThreads()).map(QueueingModel::throughputAtFullPopulation);
        if (model.isEmpty()) {
            return Optional.empty();
        }
        double demand = model.get();
        if (!ceiling.near(demand)) {
            return Optional.empty();
        }
        // measured at a lighter point, the ceiling is a lower bound (the CPU per response falls as the load grows): a hint, not a bound
        return Optional.of(("    note: the model's %,.0f req/s is %.0f%% of %,.0f req/s, this machine's ceiling for %s as its closed runs "
                + "at %,d users measured it (a lower bound: the CPU per response falls as the load grows): the machine's CPU may "
                + "be what this point measures").formatted(demand, 100 * demand / ceiling.requestsPerSecond(), ceiling.requestsPerSecond(),
                p.target().id(), ceiling.fromUsers()));
    }

    /**
     * Marks the sweep stopped (a signal), before the hook ends the point under way (its target and its simulation):
     * the point is left out and no other starts. Finished points stay as they are.
     */
    public void stopping() {
        stopping = true;
    }

    /** Whether a signal ({@link #stopping()}) ended the sweep before its last point. */
    public boolean stopped() {
        return stopping;
    }

    /**
     * A point of a service of the user's: loaded as ./lab run --url loads it (its jar started for the point and stopped
     * after it, when the sweep was given one), recorded like any point.
     */
    private String runServicePoint(Point p) {
        RunFolder pointDir = p.folder(folder);
        ServiceRun.Service service = plan.service().located();
        int port = java.net.URI.create(service.baseUrl()).getPort();
        PointRecord.Start start = PointRecord.Start.now(port, plan.injectors());
        try {
            Folders.deleteTree(pointDir.dir());
            Files.createDirectories(pointDir.dir());
            GatlingLauncher.Outcome run = plan.service().run(repo, gatling, plan.settings(p), pointDir,
                    Duration.ofSeconds(plan.pacing().warmupSeconds()), plan.jvmEvents(), plan.injectors(), TargetRun.SILENT);
            if (stopping) {
                return "interrupted";
            }
            if (!run.succeeded()) {
                return fail(p, String.join("; ", run.failures(pointDir.gatlingLog())), start, null);
            }
            int open = SocketDrain.await(port, drainMax);
            new PointRecord(p.described(), new PointRecord.Outcome(PointRecord.Status.DONE, null), start, null,
                    PointRecord.End.now(start, open)).write(pointDir);
            return RunLines.headline(Summary.row(folder, pointDir, SweepFile.bootId(folder)));
        }
        catch (TargetFailedException e) {
            return fail(p, e.getMessage(), start, null);
        }
        catch (IOException e) {
            return fail(p, e.toString(), start, null);
        }
    }

    private String runPoint(Point p) {
        if (p.target().isService()) {
            return runServicePoint(p);
        }
        RunFolder pointDir = p.folder(folder);
        SimulationSettings settings = plan.settings(p);
        int port = plan.port(p.target());
        PointRecord.Start start = PointRecord.Start.now(port, plan.injectors());
        RunOutcome.Started started = null;
        try {
            Folders.deleteTree(pointDir.dir());
            Files.createDirectories(pointDir.dir());
            RunOutcome outcome = TargetRun.run(repo, gatling, new TargetRun.Load(p.target(), port, settings, Map.of(),
                    pointDir, Duration.ofSeconds(plan.pacing().warmupSeconds()), plan.injectors(), plan.jvmEvents(), plan.targetJdk()),
                    TargetRun.SILENT, () -> stopping);
            if (!(outcome instanceof RunOutcome.Finished finished)) {
                return "interrupted";
            }
            GatlingLauncher.Outcome run = finished.gatling();
            started = finished.started();
            if (!run.succeeded()) {
                return fail(p, String.join("; ", run.failures(pointDir.gatlingLog())), start, started);
            }
            int open = SocketDrain.await(port, drainMax);
            new PointRecord(p.described(), new PointRecord.Outcome(PointRecord.Status.DONE, null), start, started,
                    PointRecord.End.now(start, open)).write(pointDir);
            return RunLines.headline(Summary.row(folder, pointDir, SweepFile.bootId(folder)));
        }
        catch (TargetFailedException e) {
            return fail(p, e.getMessage(), start, started);
        }
        catch (IOException e) {
            return fail(p, e.toString(), start, started);
        }
    }

    private String fail(Point p, String reason, PointRecord.Start start, RunOutcome.Started started) {
        if (stopping) {
            return "interrupted";
        }
        try {
            Files.createDirectories(p.folder(folder).dir());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        new PointRecord(p.described(), new PointRecord.Outcome(PointRecord.Status.FAILED, reason), start, started,
                PointRecord.End.now(start, null)).write(p.folder(folder));
        return "FAILED: " + reason;
    }
}
