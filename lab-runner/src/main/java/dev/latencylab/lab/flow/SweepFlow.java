package dev.latencylab.lab.flow;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.load.settings.SimulationSettings;
import dev.latencylab.lab.compare.Slo;
import dev.latencylab.lab.compare.SloGate;
import dev.latencylab.lab.format.Figures;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.live.LiveView;
import dev.latencylab.lab.page.SweepPage;
import dev.latencylab.lab.run.GatlingLauncher;
import dev.latencylab.lab.run.RunWatch;
import dev.latencylab.lab.run.StopOnSignal;
import dev.latencylab.lab.summary.Summary;
import dev.latencylab.lab.sweep.Sweep;
import dev.latencylab.lab.sweep.SweepFile;
import dev.latencylab.lab.sweep.SweepPlan;
import dev.latencylab.lab.sweep.SweepStart;

/**
 * ./lab sweep, its plan checked and its folder locked: begun or resumed, its points run in turn with the live view, the
 * page rebuilt after each, every run judged by the objective once all finished, what it left said, and the exit code.
 */
public final class SweepFlow {

    /**
     * A sweep asked for: its plan and folder (earlier: the sweep.json found there, null when new), how long a point's
     * sockets may take to drain, whether failed points run again, and its label and objective (null: none).
     */
    public record Asked(SweepPlan plan, SweepFolder dir, SweepFile earlier, Duration drain, boolean retryFailed, String label, Slo objective) {
    }

    private SweepFlow() {
    }

    /** @param gatling the launcher each point runs (the lab's simulation, or the user's) */
    public static int run(Path repo, GatlingLauncher gatling, Asked asked, LiveStart liveStart, PrintWriter out, PrintWriter err) {
        SweepPlan plan = asked.plan();
        SweepFolder dir = asked.dir();
        Instant start = Instant.now();
        String refused = SweepStart.beginOrResume(plan, dir, asked.earlier(), out, err);
        if (refused != null) {
            err.println("latency-lab: " + refused);
            return ExitCode.BAD_INPUT;
        }
        // said before the first point: a load whose users are never all active has no plateau to measure (a simulation of
        // the user's paces itself: its own)
        boolean ownPacing = plan.service() != null && plan.service().simulation() != null;
        plan.points().stream().filter(p -> !ownPacing && p.run() == 1 && !p.isOpen()).map(plan::settings).map(SimulationSettings::plateauUnreachable)
                .filter(Objects::nonNull).distinct().forEach(why -> err.println("latency-lab: WARNING: " + why));
        Sweep sweep = new Sweep(repo, dir, plan, out, asked.drain(), gatling);
        String unwatched = plan.injectors() > 1 ? "each of several injectors counts its own share; watch a sweep of one"
                : ownPacing ? "your simulation's requests are read from Gatling's records once each run ends" : null;
        try (StopOnSignal signal = StopOnSignal.endingRun(gatling, sweep::stopping, "stopped; the point under way was ended and finished "
                + "points are kept: run the same command with --name " + dir.dir().getFileName() + " to resume");
                LiveView live = liveStart.start("sweep " + dir.dir().getFileName(), unwatched)) {
            sweep.run(asked.retryFailed(), () -> {
                labelSince(asked.label(), dir, start);
                SweepPage.write(dir);
            }, live == null ? RunWatch.NONE : live);
            if (sweep.stopped()) {
                return ExitCode.FAILED;
            }
            List<Summary.RunRow> rows = Sweep.rows(dir);
            long failed = rows.stream().filter(r -> !r.done()).count();
            List<SloGate.Judged> runs = rows.stream().map(r -> new SloGate.Judged(r, dir.point(r.identity().point()).resultFile())).toList();
            // judged before the page is written, once: the verdicts go into its runs.csv and summary.csv
            List<String> missed = failed > 0 ? List.of() : SloVerdicts.judge(asked.objective(), runs, true);
            SweepPage.write(dir);
            if (live != null) {
                live.end("the sweep finished", dir.page());
            }
            out.printf("latency-lab: sweep finished in %s; %d of %d runs failed%nComparison page: %s%n",
                    Figures.minutes(Duration.between(start, Instant.now())), failed, plan.points().size(), dir.page());
            if (failed > 0) {
                err.printf("latency-lab: %d run(s) failed (see the page); --retry-failed with --name %s runs them again%n",
                        failed, dir.dir().getFileName());
                return ExitCode.FAILED;
            }
            return SloVerdicts.said(asked.objective(), runs.size(), missed, true, out, err);
        }
    }

    /** Each run of the sweep that started since this command did and has no label yet, labelled: the runs this command ran. */
    private static void labelSince(String label, SweepFolder sweep, Instant since) {
        if (label == null) {
            return;
        }
        for (var row : Sweep.rows(sweep)) {
            Path file = sweep.point(row.identity().point()).resultFile();
            if (Files.isRegularFile(file)) {
                Result r = ResultFile.read(file);
                if (r.label() == null && !Instant.parse(r.start()).isBefore(since)) {
                    ResultFile.write(r.withLabel(label), file);
                }
            }
        }
    }
}
