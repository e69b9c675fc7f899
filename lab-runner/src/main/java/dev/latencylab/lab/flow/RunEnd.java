package dev.latencylab.lab.flow;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;

import dev.latencylab.load.result.ResultFile;
import dev.latencylab.lab.compare.Slo;
import dev.latencylab.lab.compare.SloGate;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.live.LiveView;
import dev.latencylab.lab.page.RunPage;
import dev.latencylab.lab.run.GatlingLauncher;
import dev.latencylab.lab.summary.Summary;

/**
 * What ./lab run says once a run has ended, of a target or a service alike: the live view's last word, Gatling's
 * reports, the result file, why the run failed; and its exit code (a finished run labelled, then judged by its SLO).
 */
record RunEnd(RunFolder dir, int injectors, PrintWriter out, PrintWriter err) {

    /** Tells the live view (if any) that the run is over, linking its page. */
    static void ended(LiveView live, GatlingLauncher.Exit run) {
        if (live != null) {
            Path page = run.resultFile() == null ? null : RunPage.of(run.resultFile());
            live.end((run.succeeded() ? "it finished" : "it failed (the console says why)") + (page == null ? "" : "; its page: " + page), page);
        }
    }

    /** Gatling's report of each injector that wrote one, then the result file. */
    void files(GatlingLauncher.Exit run) {
        for (RunFolder part : injectors == 1 ? List.of(dir) : IntStream.range(0, injectors).mapToObj(dir::injector).toList()) {
            if (Files.isDirectory(part.report())) {
                out.println("HTML report: " + part.reportPage());
            }
        }
        out.println("Result file: " + (run.resultFile() == null ? "(none: the run failed, see above)" : run.resultFile()));
    }

    /**
     * Why the run failed (nothing when it did not), and its exit code: failed, or its SLO's verdict once labelled
     * (label: what ./lab history tells it apart by; null: none).
     */
    int exitCode(GatlingLauncher.Exit run, String label, Slo objective) {
        run.failures(dir.gatlingLog()).forEach(why -> err.println("latency-lab: RUN FAILED: " + why));
        if (!run.succeeded()) {
            return ExitCode.FAILED;
        }
        if (label != null) {
            ResultFile.write(ResultFile.read(run.resultFile()).withLabel(label), run.resultFile());
        }
        List<SloGate.Judged> runs = List.of(new SloGate.Judged(Summary.row(run.resultFile()), run.resultFile()));
        return SloVerdicts.said(objective, 1, SloVerdicts.judge(objective, runs, false), false, out, err);
    }
}
