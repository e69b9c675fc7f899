package dev.latencylab.lab.history;

import java.util.Optional;

import dev.latencylab.lab.compare.Metric;

/**
 * ./lab history --fail-on-change METRIC[:PERCENT]: fails where the newest change point of the metric is for the worse by
 * more than PERCENT of the mean before it (0: any change the method finds), and the machine did not change there (a
 * change of the machine is said, and does not fail the gate: it is not the service's).
 *
 * @param metric the metric gated
 * @param share  how much worse is tolerated, as a share of the mean before the change
 */
public record ChangeGate(Metric metric, double share) {

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

    /** The newest change of this metric in the history when it breaches the gate, in one line; empty when it does not. */
    public Optional<String> breach(History history) {
        return history.tracks().stream().filter(t -> t.metric() == metric).findFirst()
                .flatMap(t -> t.last().filter(s -> s.worse() && s.machine() == null && Math.abs(s.relative()) > share)
                        .map(s -> "%s of %s got worse %s".formatted(metric.id(), history.point(), HistoryLines.shift(history, t, s))));
    }
}
