package dev.latencylab.lab.compare;

import java.nio.file.Path;
import java.util.List;

import dev.latencylab.load.result.ResultFile;
import dev.latencylab.lab.summary.Summary.RunRow;

/**
 * Finished runs judged by an objective (./lab run --slo, sweep --slo): each one's verdict kept in its result file, so
 * that report, pages and CI read it rather than judge again, and what each run that missed it missed, in one line.
 */
public final class SloGate {

    private SloGate() {
    }

    /** A finished run, as its row reads it, and its result file, where its verdict is kept. */
    public record Judged(RunRow row, Path resultFile) {
    }

    /**
     * Writes each run's verdict into its result file.
     *
     * @param named each line begins with its run's point (a sweep's runs)
     * @return a line for each run that missed the objective, saying which limits and by how much; empty when all met it
     */
    public static List<String> judge(Slo objective, List<Judged> runs, boolean named) {
        for (Judged run : runs) {
            ResultFile.write(ResultFile.read(run.resultFile()).withSlo(objective.verdict(run.row())), run.resultFile());
        }
        List<String> lines = new java.util.ArrayList<>();
        for (Judged run : runs) {
            List<String> missed = objective.missed(run.row());
            if (!missed.isEmpty()) {
                lines.add((named ? run.row().identity().point() + ": " : "") + String.join("; ", missed));
            }
        }
        return lines;
    }
}
