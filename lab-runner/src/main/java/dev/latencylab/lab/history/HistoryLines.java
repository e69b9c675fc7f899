package dev.latencylab.lab.history;

import java.util.ArrayList;
import java.util.List;

import dev.latencylab.lab.format.Figures;

/** A history in the console's words: a line for the point, then a line per metric, its change points or none. */
public final class HistoryLines {

    private HistoryLines() {
    }

    public static List<String> of(History h) {
        List<String> lines = new ArrayList<>();
        List<History.Entry> e = h.entries();
        if (e.size() == 1) {
            lines.add("history of %s: 1 run (%s), nothing to compare it with".formatted(h.point(), Figures.when(e.getFirst().started())));
            return lines;
        }
        lines.add("history of %s: %d runs, %s to %s".formatted(h.point(), e.size(), Figures.when(e.getFirst().started()),
                Figures.when(e.getLast().started())));
        for (History.Track t : h.tracks()) {
            if (t.shifts().isEmpty() && t.pending() == null) {
                lines.add("  %-10s no change point (mean %s %s)".formatted(t.metric().id(), figure(mean(t.values())), t.metric().unit()));
            }
            for (History.Shift s : t.shifts()) {
                lines.add("  %-10s %s %s%s".formatted(t.metric().id(), s.worse() ? "worse" : "better", shift(h, t, s),
                        s.machine() == null ? "" : "; the machine changed there: " + s.machine().said()));
            }
            if (t.pending() != null) {
                lines.add("  %-10s %s: not yet a change (%d runs on each side needed)".formatted(t.metric().id(), pending(h, t),
                        History.SIDE_RUNS));
            }
        }
        return lines;
    }

    /** The newest runs that differ, too few to call it a change: which, the means and by how much. */
    static String pending(History h, History.Track t) {
        History.Shift s = t.pending();
        int n = h.entries().size();
        String runs = s.at() + 1 == n ? "run %d of %d alone differs".formatted(n, n) : "runs %d-%d of %d differ".formatted(s.at() + 1, n, n);
        return "%s, %s: %s -> %s %s (%+.1f%%)".formatted(runs, s.worse() ? "worse" : "better", figure(s.change().meanBefore()),
                figure(s.change().meanAfter()), t.metric().unit(), 100 * s.relative());
    }

    /**
     * A change point in words: from which run, the means on either side and by how much, its p-value, and the runs on
     * each side (those between it and its neighbouring change points, which the means are of).
     */
    static String shift(History h, History.Track track, History.Shift s) {
        int i = track.shifts().indexOf(s);
        int from = i == 0 ? 0 : track.shifts().get(i - 1).at();
        int to = i == track.shifts().size() - 1 ? h.entries().size() : track.shifts().get(i + 1).at();
        History.Entry first = h.entries().get(s.at());
        double p = s.change().pValue();
        return "from run %d of %d (%s, %s): %s -> %s %s (%+.1f%%, %s; runs %d-%d against %d-%d)".formatted(s.at() + 1, h.entries().size(),
                first.name(), Figures.when(first.started()), figure(s.change().meanBefore()), figure(s.change().meanAfter()),
                track.metric().unit(), 100 * s.relative(), p == 0 ? "p 0: no spread on either side" : "p %.2g".formatted(p), from + 1, s.at(),
                s.at() + 1, to);
    }

    private static String figure(double v) {
        return Math.abs(v) >= 100 ? "%,.0f".formatted(v) : "%.2f".formatted(v);
    }

    private static double mean(double[] values) {
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        return sum / values.length;
    }
}
