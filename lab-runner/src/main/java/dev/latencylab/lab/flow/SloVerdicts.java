package dev.latencylab.lab.flow;

import java.io.PrintWriter;
import java.util.List;
import java.util.stream.Collectors;

import dev.latencylab.lab.compare.Slo;
import dev.latencylab.lab.compare.SloGate;
import dev.latencylab.lab.page.RunPage;

/**
 * Finished runs and --slo, for run and sweep: judged once (each verdict kept in its result file, its page made again),
 * then said: met by all in one line, else a line for each run that missed it, and exit 5. Two steps, so that a sweep
 * writes its page once, after its runs are judged.
 */
public final class SloVerdicts {

    private SloVerdicts() {
    }

    /** Each run's verdict into its result file and page; what each run that missed it missed (empty: all met it). */
    public static List<String> judge(Slo objective, List<SloGate.Judged> runs, boolean named) {
        if (objective == null) {
            return List.of();
        }
        List<String> missed = SloGate.judge(objective, runs, named);
        runs.forEach(run -> RunPage.write(run.resultFile()));
        return missed;
    }

    /** The judged runs said on the console (named by their points when several: a sweep's), and the exit code. */
    public static int said(Slo objective, int runs, List<String> missed, boolean named, PrintWriter out, PrintWriter err) {
        if (objective == null) {
            return ExitCode.OK;
        }
        if (missed.isEmpty()) {
            String metrics = objective.limits().stream().map(l -> l.metric().id()).collect(Collectors.joining(", "));
            out.println(named ? "latency-lab: SLO met by all %d runs (%s)".formatted(runs, metrics) : "latency-lab: SLO met (" + metrics + ")");
            return ExitCode.OK;
        }
        missed.forEach(m -> err.println("latency-lab: SLO MISSED: " + m));
        return ExitCode.SLO_MISSED;
    }
}
