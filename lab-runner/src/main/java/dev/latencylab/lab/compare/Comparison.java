package dev.latencylab.lab.compare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.latencylab.load.Result;
import dev.latencylab.lab.machine.Machine;
import dev.latencylab.lab.summary.Summary;
import dev.latencylab.lab.summary.Summary.PointRow;

/**
 * B against A, point by point: for each metric the difference of B's runs from A's, its interval, and a verdict.
 * Refuses pairs that differ in more than one setting (the one being compared), and says what else differs that does
 * not refuse: the machine, the schema, points flagged machine-cpu-bound or unstable.
 *
 * @param pairs     the matched points, in A's order
 * @param unmatched the points of either side that the other does not have
 */
public record Comparison(Side a, Side b, List<Pair> pairs, List<String> unmatched) {

    /** What a metric's interval says. */
    public enum Verdict {
        BETTER("better"), WORSE("worse"), NO_DIFFERENCE("no difference beyond the noise"), SAME("the same value (no interval)"),
        NO_INTERVAL("no interval: repeats on both sides, or a per-second series, are needed");

        private final String words;

        Verdict(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }

    /** One metric of one pair: the sides' means, B − A, its interval (null: none), the verdict. */
    public record Outcome(Metric metric, double a, double b, double difference, Interval interval, Verdict verdict) {

        /** B − A as a share of A (null when A is 0). */
        public Double relative() {
            return a == 0 ? null : difference / a;
        }
    }

    /**
     * One point of A against its match in B.
     *
     * @param differs the one setting in which they differ ("" when none: the same settings twice), as "name: a → b"
     * @param notes   what the reader should weigh: another machine or boot, another schema, flagged points
     */
    public record Pair(String pointA, String pointB, int runsA, int runsB, String differs, List<Outcome> outcomes, List<String> notes) {

        /** The verdict first: what is better, what is worse, what cannot be told apart. */
        public String headline() {
            List<String> parts = new ArrayList<>();
            for (Verdict v : List.of(Verdict.BETTER, Verdict.WORSE, Verdict.NO_DIFFERENCE, Verdict.SAME)) {
                List<Outcome> these = outcomes.stream().filter(o -> o.verdict() == v).toList();
                boolean sized = v == Verdict.BETTER || v == Verdict.WORSE;
                if (!these.isEmpty()) {
                    parts.add(v.words() + " in " + these.stream().map(o -> o.metric().id() + (!sized || o.relative() == null ? ""
                            : " (%+.1f%%)".formatted(o.relative() * 100))).collect(Collectors.joining(", ")));
                }
            }
            long none = outcomes.stream().filter(o -> o.verdict() == Verdict.NO_INTERVAL).count();
            if (none > 0) {
                parts.add("%d without an interval (one run each: sweep with --repeats 3 on both sides)".formatted(none));
            }
            return "B: " + String.join("; ", parts);
        }

        /** The methods of its intervals, as said under its table. */
        public List<String> methods() {
            return outcomes.stream().map(Outcome::interval).filter(Objects::nonNull).map(Interval::method).distinct()
                    .map(m -> m + ", " + Math.round(Interval.LEVEL * 100) + "%").toList();
        }
    }

    /** Over every pair: how many metrics came out each way, the verdict before the tables. */
    public String summary() {
        Map<Verdict, Long> count = new java.util.EnumMap<>(Verdict.class);
        pairs.forEach(p -> p.outcomes().forEach(o -> count.merge(o.verdict(), 1L, Long::sum)));
        String counted = count.entrySet().stream().map(e -> e.getValue() + " " + e.getKey().words()).collect(Collectors.joining(", "));
        return "%d point%s compared, %d metrics: %s".formatted(pairs.size(), pairs.size() == 1 ? "" : "s",
                count.values().stream().mapToLong(Long::longValue).sum(), counted);
    }

    /** The settings of a run that make its scenario, by name, beside the target and the injectors. */
    static final Map<String, Function<Result, Object>> SETTINGS = settings();

    private static Map<String, Function<Result, Object>> settings() {
        Map<String, Function<Result, Object>> m = new LinkedHashMap<>();
        m.put("target", r -> r.target() == null ? "a server started by hand" : r.target().id() + (r.target().properties().isEmpty() ? ""
                : " " + r.target().properties()));
        m.put("users", r -> r.parameters().open() ? null : r.parameters().users());
        m.put("path", r -> r.parameters().path());
        m.put("injection", r -> r.parameters().open() ? "open" : "closed");
        m.put("rates", r -> r.parameters().rates());
        m.put("levelSeconds", r -> r.parameters().levelSeconds());
        m.put("arrivals", r -> r.parameters().arrivals());
        m.put("rampSeconds", r -> r.parameters().rampSeconds());
        m.put("repeat", r -> r.parameters().repeat());
        m.put("thinkMs", r -> r.parameters().thinkMinMs() + "-" + r.parameters().thinkMaxMs());
        m.put("connections", r -> r.parameters().connections());
        // what the injector did: "auto" may have shared a pool in one run and not in the other (open files)
        m.put("connections used", r -> r.injector().connections());
        m.put("injectors", r -> r.parameters().injectors() == null ? 1 : r.parameters().injectors());
        return m;
    }

    public static Comparison of(Side a, Side b) {
        List<String[]> matched = new ArrayList<>();
        List<String> unmatched = new ArrayList<>();
        if (a.points().size() == 1 && b.points().size() == 1) {
            matched.add(new String[] {a.points().keySet().iterator().next(), b.points().keySet().iterator().next()});
        }
        else {
            a.points().keySet().stream().filter(b.points()::containsKey).forEach(id -> matched.add(new String[] {id, id}));
            a.points().keySet().stream().filter(id -> !b.points().containsKey(id)).forEach(id -> unmatched.add("only in A: " + id));
            b.points().keySet().stream().filter(id -> !a.points().containsKey(id)).forEach(id -> unmatched.add("only in B: " + id));
        }
        if (matched.isEmpty()) {
            throw new IllegalArgumentException(("%s and %s have no point in common (A: %s; B: %s): compare sweeps of the same points, "
                    + "or one point or run with another").formatted(a.given(), b.given(), String.join(", ", a.points().keySet()),
                    String.join(", ", b.points().keySet())));
        }
        List<Pair> pairs = new ArrayList<>();
        for (String[] ids : matched) {
            pairs.add(pair(ids[0], a.points().get(ids[0]), ids[1], b.points().get(ids[1])));
        }
        return new Comparison(a, b, pairs, unmatched);
    }

    static Pair pair(String idA, List<Side.Run> a, String idB, List<Side.Run> b) {
        Result ra = a.get(0).result();
        Result rb = b.get(0).result();
        List<String> differ = new ArrayList<>();
        SETTINGS.forEach((name, value) -> {
            Object va = value.apply(ra);
            Object vb = value.apply(rb);
            if (!Objects.equals(va, vb)) {
                differ.add("%s: %s → %s".formatted(name, va, vb));
            }
        });
        if (differ.size() > 1) {
            throw new IllegalArgumentException(("%s and %s differ in more than the one setting a comparison is about: %s. Compare runs "
                    + "that differ in one setting only").formatted(idA, idB, String.join("; ", differ)));
        }
        List<Outcome> outcomes = new ArrayList<>();
        for (Metric m : Metric.values()) {
            Outcome o = outcome(m, a, b);
            if (o != null) {
                outcomes.add(o);
            }
        }
        return new Pair(idA, idB, a.size(), b.size(), differ.isEmpty() ? "" : differ.get(0), outcomes, notes(a, b));
    }

    /** The metric's verdict for these runs; null when either side lacks it. */
    static Outcome outcome(Metric m, List<Side.Run> a, List<Side.Run> b) {
        double[] va = a.stream().map(r -> m.of(r.row())).filter(Objects::nonNull).mapToDouble(Double::doubleValue).toArray();
        double[] vb = b.stream().map(r -> m.of(r.row())).filter(Objects::nonNull).mapToDouble(Double::doubleValue).toArray();
        if (va.length == 0 || vb.length == 0) {
            return null;
        }
        double meanA = Interval.mean(va);
        double meanB = Interval.mean(vb);
        Interval interval = null;
        if (va.length >= 2 && vb.length >= 2) {
            interval = Interval.welch(va, vb);
        }
        else if (a.size() == 1 && b.size() == 1) {
            double[] sa = m.perSecond(a.get(0).result());
            double[] sb = m.perSecond(b.get(0).result());
            if (sa != null && sb != null) {
                interval = Interval.batchMeans(sa, sb);
            }
        }
        return new Outcome(m, meanA, meanB, meanB - meanA, interval, verdict(m, meanB - meanA, interval));
    }

    static Verdict verdict(Metric m, double difference, Interval interval) {
        if (interval == null) {
            return difference == 0 ? Verdict.SAME : Verdict.NO_INTERVAL;
        }
        if (interval.holds(0)) {
            return Verdict.NO_DIFFERENCE;
        }
        return (difference > 0) == m.higherIsBetter() ? Verdict.BETTER : Verdict.WORSE;
    }

    private static List<String> notes(List<Side.Run> a, List<Side.Run> b) {
        List<String> notes = new ArrayList<>();
        Machine.Fingerprint ma = a.get(0).machine();
        Machine.Fingerprint mb = b.get(0).machine();
        if (ma != null && mb != null) {
            if (!ma.cpu().equals(mb.cpu()) || ma.cores() != mb.cores()) {
                notes.add("other machines: A on %s (%d cores), B on %s (%d cores); CPU figures compare the machines too"
                        .formatted(ma.cpu(), ma.cores(), mb.cpu(), mb.cores()));
            }
            else if (ma.bootId() != null && !ma.bootId().equals(mb.bootId())) {
                notes.add(("A and B ran on different boots (another machine of the same kind, or a reboot): machines of one kind "
                        + "have differed by 1.7 times in CPU per request; CPU probe A %s, B %s MiB/s").formatted(ma.cpuProbeMibPerSecond(),
                        mb.cpuProbeMibPerSecond()));
            }
        }
        String schemaA = a.get(0).result().schema();
        String schemaB = b.get(0).result().schema();
        if (!schemaA.equals(schemaB)) {
            notes.add("result files of two schemas: A %s, B %s".formatted(schemaA, schemaB));
        }
        flags("A", a).ifPresent(notes::add);
        flags("B", b).ifPresent(notes::add);
        return notes;
    }

    /** A side's point flagged machine-cpu-bound or unstable: its figures say more about the machine, or vary. */
    private static java.util.Optional<String> flags(String side, List<Side.Run> runs) {
        PointRow point = Summary.points(runs.stream().map(Side.Run::row).toList(), Map.of()).get(0);
        List<String> marked = point.flagList().stream().filter(f -> f.equals(Summary.MACHINE_CPU_BOUND) || f.equals(Summary.UNSTABLE))
                .collect(Collectors.toList());
        return marked.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of("%s is flagged %s".formatted(side, String.join(", ", marked)));
    }
}
