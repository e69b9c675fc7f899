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

    /**
     * The fewest runs on each side of a change point: a run alone that differs from the others is an outlier, and a
     * t-test of one run has no spread to judge it by.
     */
    public static final int SIDE_RUNS = 3;

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
     * One metric across the runs: its values (a run without one takes the one before it, as Otava fills a gap), its
     * change points, oldest first, each with at least {@value #SIDE_RUNS} runs on either side, and the newest change
     * that has fewer runs after it (null: none): too few to call it a change yet.
     */
    public record Track(Metric metric, double[] values, List<Shift> shifts, Shift pending) {

        /** The newest change point, if any. */
        public java.util.Optional<Shift> last() {
            return shifts.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(shifts.getLast());
        }
    }

    /**
     * A change point: the index of the first run after it, the change, whether it is for the worse (the metric's own
     * sense), and what changed in the machine there (null: nothing the runs recorded).
     */
    public record Shift(int at, ChangePoints.Change change, boolean worse, MachineShift machine) {

        /** By how much, relative to the mean before it (0.2: 20% more). */
        public double relative() {
            return change.forwardChange();
        }

        /** Whether the machine's change there explains this one (a slower machine a change for the worse, say). */
        public boolean explainedByMachine() {
            return machine != null && machine.explains(worse);
        }
    }

    /**
     * The histories of these runs, one per series (a point under one load's settings: {@link Series}), each ordered by
     * when its runs started; in the order first found. A point run under two loads is two histories, the second named
     * with its settings' digest.
     */
    public static List<History> of(List<Entry> runs, ChangePoints method) {
        Map<Series, List<Entry>> bySeries = new LinkedHashMap<>();
        runs.forEach(r -> bySeries.computeIfAbsent(Series.of(r.run().row().pointId(), r.run().result()), id -> new ArrayList<>()).add(r));
        List<History> histories = new ArrayList<>();
        bySeries.forEach((series, of) -> {
            List<Entry> entries = of.stream().sorted(Comparator.comparing(Entry::started)).toList();
            boolean alone = bySeries.keySet().stream().filter(k -> k.point().equals(series.point())).count() == 1;
            String name = alone ? series.point() : series.point() + " (load " + series.settings() + ")";
            histories.add(new History(name, entries, tracks(entries, method)));
        });
        return histories;
    }

    private static List<Track> tracks(List<Entry> entries, ChangePoints method) {
        List<Track> tracks = new ArrayList<>();
        for (Metric metric : METRICS) {
            double[] values = filled(entries.stream().map(e -> metric.of(e.run().row())).toList());
            if (values != null) {
                tracks.add(track(metric, values, method.of(values), entries, method));
            }
        }
        return tracks;
    }

    /**
     * The method's changes of one metric, kept where each side has {@value #SIDE_RUNS} runs or more: the newest with fewer
     * after it is pending; of the two changes around any other short stretch, the smaller is set aside, and those left
     * are judged again as the method judges them (the weak dropped).
     */
    static Track track(Metric metric, double[] values, List<ChangePoints.Change> found, List<Entry> entries, ChangePoints method) {
        List<Integer> at = new ArrayList<>(found.stream().map(ChangePoints.Change::index).toList());
        Integer pendingAt = !at.isEmpty() && values.length - at.getLast() < SIDE_RUNS ? at.removeLast() : null;
        List<ChangePoints.Change> kept = method.judged(at, values);
        while (true) {
            List<Integer> bounds = new ArrayList<>(List.of(0));
            kept.forEach(c -> bounds.add(c.index()));
            bounds.add(values.length);
            int shortest = -1;
            for (int i = 0; i + 1 < bounds.size(); i++) {
                int length = bounds.get(i + 1) - bounds.get(i);
                if (length < SIDE_RUNS && (shortest < 0 || length < bounds.get(shortest + 1) - bounds.get(shortest))) {
                    shortest = i;
                }
            }
            if (shortest < 0 || kept.isEmpty()) {
                break;
            }
            // the stretch [bounds[shortest], bounds[shortest + 1]) lies between changes shortest - 1 and shortest (of kept)
            ChangePoints.Change left = shortest >= 1 ? kept.get(shortest - 1) : null;
            ChangePoints.Change right = shortest < kept.size() ? kept.get(shortest) : null;
            ChangePoints.Change smaller = left == null ? right : right == null ? left : left.magnitude() <= right.magnitude() ? left : right;
            List<Integer> rest = new ArrayList<>(kept.stream().map(ChangePoints.Change::index).toList());
            rest.remove(Integer.valueOf(smaller.index()));
            kept = method.judged(rest, values);
        }
        List<Shift> shifts = new ArrayList<>();
        kept.forEach(c -> shifts.add(shift(metric, c, entries)));
        Shift pending = null;
        if (pendingAt != null) {
            int from = kept.isEmpty() ? 0 : kept.getLast().index();
            pending = shift(metric, ChangePoints.between(values, from, pendingAt, values.length), entries);
        }
        return new Track(metric, values, shifts, pending);
    }

    private static Shift shift(Metric metric, ChangePoints.Change c, List<Entry> entries) {
        boolean worse = metric.higherIsBetter() ? c.meanAfter() < c.meanBefore() : c.meanAfter() > c.meanBefore();
        return new Shift(c.index(), c, worse, MachineShift.between(entries.subList(0, c.index()), entries.subList(c.index(), entries.size())));
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
