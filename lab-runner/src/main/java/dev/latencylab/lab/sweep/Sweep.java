package dev.latencylab.lab.sweep;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import dev.latencylab.lab.run.Status;
import dev.latencylab.lab.run.TargetProcess.TargetFailedException;
import dev.latencylab.load.model.OpenModel;
import dev.latencylab.load.model.QueueingModel;
import dev.latencylab.load.settings.SimulationSettings;
import dev.latencylab.lab.layout.Folders;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.run.GatlingLauncher;
import dev.latencylab.lab.run.Point;
import dev.latencylab.lab.run.PointRecord;
import dev.latencylab.lab.run.RunOutcome;
import dev.latencylab.lab.run.RunWatch;
import dev.latencylab.lab.run.ServiceRun;
import dev.latencylab.lab.run.SocketDrain;
import dev.latencylab.lab.run.TargetProcess;
import dev.latencylab.lab.run.TargetRun;
import dev.latencylab.lab.summary.MachineCeiling;
import dev.latencylab.lab.summary.Points;
import dev.latencylab.lab.summary.Summary;

/**
 * Runs a matrix of points, each one on a fresh target JVM: start, wait until healthy, warm up, run the simulation
 * as a user would, keep its result and report, stop, wait for the sockets to drain. Finished points are kept:
 * running the same sweep again skips them. A failing point is recorded with its reason and the sweep goes on.
 */
public final class Sweep {

    private final Path repo;
    private final SweepFolder folder;
    private final SweepPlan plan;
    private final PrintWriter out;
    private final GatlingLauncher gatling;
    private final Duration drainMax;
    private volatile boolean stopping;
    /** The target started ahead (see {@link #startAhead}) and the point it is for. */
    private volatile CompletableFuture<TargetProcess> ahead;
    private volatile Point aheadOf;
    private RunWatch watch = RunWatch.NONE;

    public Sweep(Path repo, SweepFolder folder, SweepPlan plan, PrintWriter out, Duration drainMax, GatlingLauncher gatling) {
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
        return Points.of(runs, MachineCeiling.of(runs));
    }

    /**
     * Runs every point not done yet (and failed ones again when asked).
     *
     * @param afterEachPoint what to do once a point has its record (the command rebuilds the page)
     */
    public void run(boolean retryFailed, Runnable afterEachPoint) {
        run(retryFailed, afterEachPoint, RunWatch.NONE);
    }

    /** The same, each point's run watched by watch (its seconds written live unless watch is NONE). */
    public void run(boolean retryFailed, Runnable afterEachPoint, RunWatch watch) {
        this.watch = watch;
        List<Point> points = plan.points();
        List<Point> toRun = new ArrayList<>(points.stream().filter(p -> runs(PointRecord.outcome(p.folder(folder)), retryFailed)).toList());
        Instant begun = Instant.now();
        Duration overhead = Duration.ZERO; // beyond the planned load, summed over the points run so far
        int ran = 0;
        int i = 0;
        for (Point p : points) {
            i++;
            PointRecord.Ending recorded = PointRecord.outcome(p.folder(folder));
            if (stopping) {
                closeAhead();
                return;
            }
            if (!runs(recorded, retryFailed)) {
                out.printf("[%d/%d] %s  kept (%s earlier)%n", i, points.size(), p.label(), recorded.status());
                continue;
            }
            out.printf("[%d/%d] %s%s  starting  (%s)%n", i, points.size(), p.label(),
                    p.target().isService() ? "" : " latency=%d ms".formatted(p.latencyMs()),
                    RunLines.timeLeft(Duration.between(begun, Instant.now()), toRun, ran == 0 ? null : overhead.dividedBy(ran), plan));
            nearCeiling(p).ifPresent(out::println);
            watch.starting("[%d/%d] %s".formatted(i, points.size(), p.label()), p.target(), p.target().poolThreads() > 0 && p.latencyMs() > 0
                    ? p.target().poolThreads() * 1000.0 / p.latencyMs() : null, p.folder(folder));
            Instant pointStart = Instant.now();
            int at = toRun.indexOf(p);
            String line = runPoint(p, at + 1 < toRun.size() ? toRun.get(at + 1) : null);
            Duration beyond = Duration.between(pointStart, Instant.now()).minus(plan.planned(p));
            overhead = overhead.plus(beyond.isNegative() ? Duration.ZERO : beyond); // a point that failed at once took less
            ran++;
            toRun.remove(p);
            if (stopping) {
                closeAhead();
                return;
            }
            out.printf("[%d/%d] %s  %s%n", i, points.size(), p.label(), line);
            watch.ended("[%d/%d] %s  %s".formatted(i, points.size(), p.label(), line));
            afterEachPoint.run();
        }
    }

    /** Whether a point runs: never recorded (or interrupted), or failed and retried. */
    private static boolean runs(PointRecord.Ending recorded, boolean retryFailed) {
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
        Optional<Double> model = s.open() ? OpenModel.of(s, s.modelThreads()).map(m -> m.throughput())
                : QueueingModel.of(s, s.modelThreads()).map(QueueingModel::throughputAtFullPopulation);
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
            GatlingLauncher.Exit run = plan.service().run(repo, gatling, settings(p), pointDir,
                    Duration.ofSeconds(plan.pacing().warmupSeconds()), plan.jvmEvents(), plan.injectors(), TargetRun.SILENT);
            if (stopping) {
                return "interrupted";
            }
            if (!run.succeeded()) {
                return fail(p, String.join("; ", run.failures(pointDir.gatlingLog())), start, null);
            }
            int open = SocketDrain.await(port, drainMax);
            new PointRecord(p.described(), new PointRecord.Ending(Status.DONE, null), start, null,
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

    /** A point's settings, its seconds written live when the sweep is watched. */
    private SimulationSettings settings(Point p) {
        return watch == RunWatch.NONE ? plan.settings(p) : plan.settings(p).live();
    }

    /** A point's run as TargetRun takes it: its target, port, settings, folder, warm-up, injectors and JDK. */
    private TargetRun.Load load(Point p) {
        return new TargetRun.Load(p.target(), plan.port(p.target()), settings(p), Map.of(), p.folder(folder),
                Duration.ofSeconds(plan.pacing().warmupSeconds()), plan.injectors(), plan.jvmEvents(), plan.targetJdk());
    }

    /**
     * Starts the next point's target (when it depends on nothing) once the last point's load has ended and its target
     * has stopped: its JVM starts while the last one's report, recording and page are written, not after. Its warm-up
     * waits for its turn, after the last point's sockets have drained.
     */
    private void startAhead(Point next) {
        if (next == null || stopping || next.target().isService() || !TargetRun.startsAlone(next.target())) {
            return;
        }
        TargetRun.Load load = load(next);
        try {
            Folders.deleteTree(load.dir().dir());
            Files.createDirectories(load.dir().dir());
        }
        catch (IOException e) {
            return; // its own turn says why
        }
        aheadOf = next;
        ahead = CompletableFuture.supplyAsync(() -> TargetRun.startAlone(repo, load), r -> Thread.ofVirtual().start(r));
    }

    /** The target started ahead for p, healthy (null when none was); its failure to start is p's. */
    private TargetProcess takeAhead(Point p) {
        CompletableFuture<TargetProcess> started = p.equals(aheadOf) ? ahead : null;
        if (started == null) {
            closeAhead();
            return null;
        }
        ahead = null;
        aheadOf = null;
        try {
            return started.join();
        }
        catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    /** Stops a target started ahead for a point that will not run now. */
    private void closeAhead() {
        if (ahead != null) {
            ahead.thenAccept(TargetProcess::close);
            ahead = null;
            aheadOf = null;
        }
    }

    private String runPoint(Point p, Point next) {
        if (p.target().isService()) {
            return runServicePoint(p);
        }
        RunFolder pointDir = p.folder(folder);
        TargetRun.Load load = load(p);
        int port = load.port();
        Instant turn = Instant.now();
        PointRecord.Start start = null;
        RunOutcome.Started started = null;
        try {
            TargetProcess startedAhead = takeAhead(p);
            // the machine's fingerprint (its CPU probe) is taken with no JVM starting beside it
            start = PointRecord.Start.at(turn, port, plan.injectors());
            if (startedAhead == null) {
                Folders.deleteTree(pointDir.dir());
                Files.createDirectories(pointDir.dir());
            }
            RunOutcome outcome = TargetRun.run(repo, gatling, load, TargetRun.SILENT, () -> stopping,
                    new TargetRun.Handover(startedAhead, () -> startAhead(next)));
            if (!(outcome instanceof RunOutcome.Finished finished)) {
                return "interrupted";
            }
            GatlingLauncher.Exit run = finished.gatling();
            started = finished.started();
            if (!run.succeeded()) {
                return fail(p, String.join("; ", run.failures(pointDir.gatlingLog())), start, started);
            }
            int open = SocketDrain.await(port, drainMax);
            new PointRecord(p.described(), new PointRecord.Ending(Status.DONE, null), start, started,
                    PointRecord.End.now(start, open)).write(pointDir);
            return RunLines.headline(Summary.row(folder, pointDir, SweepFile.bootId(folder)));
        }
        catch (TargetFailedException e) {
            return fail(p, e.getMessage(), start != null ? start : PointRecord.Start.at(turn, port, plan.injectors()), started);
        }
        catch (IOException e) {
            return fail(p, e.toString(), start != null ? start : PointRecord.Start.at(turn, port, plan.injectors()), started);
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
        new PointRecord(p.described(), new PointRecord.Ending(Status.FAILED, reason), start, started,
                PointRecord.End.now(start, null)).write(p.folder(folder));
        return "FAILED: " + reason;
    }
}
