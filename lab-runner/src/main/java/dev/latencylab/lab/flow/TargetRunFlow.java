package dev.latencylab.lab.flow;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import dev.latencylab.load.live.LiveSample;
import dev.latencylab.load.settings.SimulationSettings;
import dev.latencylab.lab.compare.Slo;
import dev.latencylab.lab.layout.ResultsFolders;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.live.LiveView;
import dev.latencylab.lab.page.RunPage;
import dev.latencylab.lab.run.GatlingLauncher;
import dev.latencylab.lab.run.Jdk;
import dev.latencylab.lab.run.Point;
import dev.latencylab.lab.run.SingleRun;
import dev.latencylab.lab.run.TargetRun;
import dev.latencylab.lab.summary.Summary;
import dev.latencylab.lab.sweep.RunLines;

/**
 * ./lab run of one of the lab's targets, its input checked: a folder named for what the run measures, the run
 * (SingleRun: started, warmed up, loaded, stopped) with its live view, its page and line, what it left, and the exit code.
 */
public final class TargetRunFlow {

    /**
     * A run asked for: the target's load as TargetRun takes it but for its folder (made here), the point it measures,
     * whether a target was named (a newcomer's first run is told what compares), its label and objective (null: none).
     */
    public record Asked(Point point, int port, SimulationSettings settings, Map<String, String> passOn, Duration warmup, int injectors,
            boolean jvmEvents, Jdk jdk, boolean targetNamed, String label, Slo objective) {

        TargetRun.Load load(RunFolder dir) {
            return new TargetRun.Load(point.target(), port, settings, passOn, dir, warmup, injectors, jvmEvents, jdk);
        }
    }

    /** Why a run of several injectors is not watched live: each writes its own seconds. */
    static final String SEVERAL_INJECTORS = "each of several injectors counts its own share; watch a run of one";

    private TargetRunFlow() {
    }

    /** Why a run of a target on so many injectors is not watched live; null: it is. */
    public static String unwatched(int injectors) {
        return injectors > 1 ? SEVERAL_INJECTORS : null;
    }

    /**
     * @param runs         the folder the run's own folder is made in
     * @param commandStart when ./lab started: the run's overhead counts from there
     * @return the exit code
     */
    public static int run(Path repo, Path runs, GatlingLauncher gatling, Asked asked, Instant commandStart, LiveStart liveStart,
            PrintWriter out, PrintWriter err) {
        Point point = asked.point();
        Jdk jdk = asked.jdk();
        // outside target/: mvn clean keeps it; named for what it measured (ls tells runs apart): run-webflux-l100-u1000-<time>
        RunFolder dir = new RunFolder(ResultsFolders.newFolder(runs, "run-%s%s-%s".formatted(Point.pointId(point.target().id(),
                point.latencyMs(), point.users(), point.rate()), jdk == null ? "" : "-" + jdk.label(), ResultsFolders.stamp())));
        out.printf("latency-lab: starting %s on port %d%s (run folder: %s)%n", point.target().id(), asked.port(), jdk == null ? ""
                : " on JDK " + jdk.describe() + ", " + jdk.java(), dir.dir());
        SingleRun.Ran ran;
        try (LiveView live = liveStart.start(point.label(), unwatched(asked.injectors()))) {
            if (live != null) {
                int threads = point.target().poolThreads();
                live.follow(new LiveView.Watched(point.label(), point.target().id(), point.label(), threads > 0 ? threads * 1000.0 / point.latencyMs()
                        : null, threads > 0 ? threads : null), LiveSample.beside(dir.resultFile()));
            }
            ran = SingleRun.run(repo, gatling, asked.load(dir), point, commandStart, out, done -> said(done, point, dir, out));
            RunEnd.ended(live, ran.outcome());
        }
        GatlingLauncher.Exit run = ran.outcome();
        if (ran.overhead() != null) {
            out.println("latency-lab: " + ran.overhead());
        }
        RunEnd end = new RunEnd(dir, asked.injectors(), out, err);
        end.files(run);
        if (run.resultFile() != null) {
            out.println("Run page: " + RunPage.of(run.resultFile()));
        }
        if (run.succeeded() && !asked.targetNamed()) {
            // the first run a newcomer makes compares nothing: say so, and what does
            out.println("latency-lab: that was one stack at one load. To see a thread pool, virtual threads and WebFlux "
                    + "part, and why: ./lab sweep --preset quick (about 4 minutes; its page opens with the verdict)");
        }
        return end.exitCode(run, asked.label(), asked.objective());
    }

    /** Once the run's record is written: its page, and its line when it finished. */
    private static void said(SingleRun.Ran done, Point point, RunFolder dir, PrintWriter out) {
        if (done.outcome().resultFile() != null) {
            RunPage.write(done.outcome().resultFile());
        }
        if (done.succeeded()) {
            out.println("latency-lab: " + point.label() + ": " + RunLines.headline(Summary.row(dir)));
        }
    }
}
