package dev.latencylab.lab.summary;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

import dev.latencylab.load.result.SloVerdict;

/**
 * The SLO verdict in a cell of runs.csv and summary.csv, as each run's result file keeps it (judged once, when it ran:
 * read here, never judged again): a run's "met", or "missed: " and the metrics it missed; a point's "met" when every
 * run judged met it, else "missed by k of n". Empty where no objective was given.
 */
public final class SloCell {

    private SloCell() {
    }

    static final String MET = "met";

    /** A run's cell (a capacity search's too), e.g. "missed: p99, ko"; null without a verdict. */
    public static String ofRun(SloVerdict verdict) {
        if (verdict == null) {
            return null;
        }
        return verdict.met() ? MET : "missed: " + verdict.objectives().stream().filter(o -> !o.met()).map(SloVerdict.Objective::metric)
                .collect(Collectors.joining(", "));
    }

    /** A point's cell from its finished runs' cells, e.g. "missed by 1 of 3"; null where none was judged. */
    static String ofPoint(List<String> runs) {
        List<String> judged = runs.stream().filter(Objects::nonNull).toList();
        if (judged.isEmpty()) {
            return null;
        }
        long missed = judged.stream().filter(c -> !c.equals(MET)).count();
        return missed == 0 ? MET : "missed by %d of %d".formatted(missed, judged.size());
    }
}
