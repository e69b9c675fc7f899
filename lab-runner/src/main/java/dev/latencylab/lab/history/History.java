package dev.latencylab.lab.history;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.latencylab.lab.compare.Metric;
import dev.latencylab.lab.compare.Side;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.machine.Machine;

/**
 * The runs of one point (one target or service with the same settings) in the order they ran, and for each metric its
 * values and its change points: did it get worse over time, and when.
 *
 * @param point   the point's id, as a sweep names it (webflux-l100-u1000, service-8080-u200)
 * @param entries its runs, oldest first
 * @param tracks  each metric the runs have, with its change points
 */
public record History(String point, List<Entry> entries, List<Track> tracks) {

    /** The metrics a history follows, in the order it shows them. */
    public static final List<Metric> METRICS = List.of(Metric.GOODPUT, Metric.P50, Metric.P95, Metric.P99, Metric.KO, Metric.SERVER_CPU);

    /**
     * A run of the history: its folder, when it started (ISO, as its result has it), the label it was given (--label; null
     * without), the machine it ran on (null if unrecorded).
     */
    public record Entry(Path folder, String started, String label, Machine.Fingerprint machine, Side.Run run) {

        /**
         * The run as a reader finds it: its folder's name, after its sweep's for a sweep's point
         * (after/example-l0-u100-r1), after its label where it has one.
         */
        public String name() {
            Path parent = folder.getParent();
            boolean ofSweep = parent != null && parent.getFileName() != null && parent.getFileName().toString().equals(SweepFolder.POINTS)
                    && parent.getParent() != null && parent.getParent().getFileName() != null;
            String name = ofSweep ? parent.getParent().getFileName() + "/" + folder.getFileName() : String.valueOf(folder.getFileName());
            return label == null ? name : label + ": " + name;
        }
    }

    /**
     * One metric across the runs: its values (a run without one takes the one before it, as Otava fills a gap) and its
     * change points, oldest first.
     */
    public record Track(Metric metric, double[] values, List<Shift> shifts) {

        /** The newest change point, if any. */
        public java.util.Optional<Shift> last() {
            return shifts.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(shifts.getLast());
        }
    }

    /**
     * A change point: the index of the first run after it, the change, whether it is for the worse (the metric's own
     * sense), and what changed in the machine there (null: nothing the runs recorded).
     */
    public record Shift(int at, ChangePoints.Change change, boolean worse, String machine) {

        /** By how much, relative to the mean before it (0.2: 20% more). */
        public double relative() {
            return change.forwardChange();
        }
    }

    /** The histories of these runs, one per point, each ordered by when its runs started; points in the order first found. */
    public static List<History> of(List<Entry> runs, ChangePoints method) {
        Map<String, List<Entry>> byPoint = new LinkedHashMap<>();
        runs.forEach(r -> byPoint.computeIfAbsent(r.run().row().pointId(), id -> new ArrayList<>()).add(r));
        List<History> histories = new ArrayList<>();
        byPoint.forEach((point, of) -> {
            List<Entry> entries = of.stream().sorted(Comparator.comparing(Entry::started)).toList();
            histories.add(new History(point, entries, tracks(entries, method)));
        });
        return histories;
    }

    private static List<Track> tracks(List<Entry> entries, ChangePoints method) {
        List<Track> tracks = new ArrayList<>();
        for (Metric metric : METRICS) {
            double[] values = filled(entries.stream().map(e -> metric.of(e.run().row())).toList());
            if (values == null) {
                continue;
            }
            List<Shift> shifts = new ArrayList<>();
            for (ChangePoints.Change c : method.of(values)) {
                boolean worse = metric.higherIsBetter() ? c.meanAfter() < c.meanBefore() : c.meanAfter() > c.meanBefore();
                shifts.add(new Shift(c.index(), c, worse, MachineShift.between(entries.subList(0, c.index()), entries.subList(c.index(),
                        entries.size()))));
            }
            tracks.add(new Track(metric, values, shifts));
        }
        return tracks;
    }

    /** Gaps filled forward (and leading ones backward), as Otava fills them; null when no run has the metric. */
    static double[] filled(List<Double> given) {
        Double first = given.stream().filter(java.util.Objects::nonNull).findFirst().orElse(null);
        if (first == null) {
            return null;
        }
        double[] values = new double[given.size()];
        double last = first;
        for (int i = 0; i < values.length; i++) {
            last = given.get(i) == null ? last : given.get(i);
            values[i] = last;
        }
        return values;
    }
}
