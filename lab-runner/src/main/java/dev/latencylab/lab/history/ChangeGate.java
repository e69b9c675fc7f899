package dev.latencylab.lab.history;

import dev.latencylab.lab.compare.Metric;

/**
 * ./lab history --fail-on-change METRIC[:PERCENT]: fails where the newest change point of the metric is for the worse by
 * more than PERCENT of the mean before it (0: any change the method finds), unless the machine changed there in the
 * direction that explains it (slower or busier; a faster machine never excuses a slower service). It cannot judge a
 * history too short to hold a change ({@value History#SIDE_RUNS} runs on each side), nor a change for the worse with
 * fewer runs after it: those are said, and are never a pass.
 *
 * @param metric the metric gated
 * @param share  how much worse is tolerated, as a share of the mean before the change
 */
public record ChangeGate(Metric metric, double share) {

    /** What the gate made of a history. */
    public enum Call {
        PASS, WORSE, CANNOT_JUDGE
    }

    /** The gate's call on one history, and its line (null for a pass with nothing to say). */
    public record Verdict(Call call, String line) {
    }

    public static ChangeGate parse(String given) {
        String[] parts = given.split(":", -1);
        if (parts.length > 2 || parts.length == 2 && !parts[1].strip().matches("[0-9]+(\\.[0-9]+)?")) {
            throw new IllegalArgumentException("--fail-on-change %s: give METRIC or METRIC:PERCENT, e.g. p99:10".formatted(given));
        }
        Metric metric = Metric.parse(parts[0]);
        if (!History.METRICS.contains(metric)) {
            throw new IllegalArgumentException("--fail-on-change %s: a history follows %s".formatted(given,
                    String.join(", ", History.METRICS.stream().map(Metric::id).toList())));
        }
        return new ChangeGate(metric, parts.length == 2 ? Double.parseDouble(parts[1].strip()) / 100 : 0);
    }

    /** The gate's call on this history. */
    public Verdict judge(History history) {
        String of = metric.id() + " of " + history.point();
        History.Track track = history.tracks().stream().filter(t -> t.metric() == metric).findFirst().orElse(null);
        if (track == null) {
            return new Verdict(Call.CANNOT_JUDGE, "%s: none of its runs has it".formatted(of));
        }
        int runs = history.entries().size();
        if (runs < 2 * History.SIDE_RUNS) {
            return new Verdict(Call.CANNOT_JUDGE, "%s: %d run%s; a change needs %d runs on each side (%d in all): run it again".formatted(of, runs,
                    runs == 1 ? "" : "s", History.SIDE_RUNS, 2 * History.SIDE_RUNS));
        }
        History.Shift last = track.last().filter(this::beyond).orElse(null);
        if (last != null) {
            String change = "%s got worse %s".formatted(of, HistoryLines.shift(history, track, last));
            if (last.machine() == null) {
                return new Verdict(Call.WORSE, change);
            }
            String machine = "; the machine changed there: " + last.machine().said();
            return last.explainedByMachine() ? new Verdict(Call.PASS, change + machine + ", which explains it: not the service's")
                    : new Verdict(Call.WORSE, change + machine + ", which does not explain a change for the worse");
        }
        History.Shift pending = track.pending();
        if (pending != null && beyond(pending) && !pending.explainedByMachine()) {
            return new Verdict(Call.CANNOT_JUDGE, "%s: %s: too few runs after it to call it a change (%d needed): run it again".formatted(of,
                    HistoryLines.pending(history, track), History.SIDE_RUNS));
        }
        return new Verdict(Call.PASS, null);
    }

    private boolean beyond(History.Shift s) {
        return s.worse() && Math.abs(s.relative()) > share;
    }
}
