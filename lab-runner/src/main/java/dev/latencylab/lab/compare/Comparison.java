package dev.latencylab.lab.compare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.latencylab.lab.run.TargetRun;
import dev.latencylab.load.result.Result;
import dev.latencylab.lab.machine.Machine;
import dev.latencylab.lab.summary.Flags;
import dev.latencylab.lab.summary.ServiceModel;
import dev.latencylab.lab.summary.Points;
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
    public enum Call {
        BETTER("better"), WORSE("worse"), NO_DIFFERENCE("no difference beyond the noise"), SAME("the same value on both sides"),
        NO_INTERVAL("no interval");

        private final String words;

        Call(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }

    /**
     * One metric of one pair: the sides' means, B − A, its interval (null: none), the verdict, and where it has no
     * interval, why, in words that say what would give one (else null).
     */
    public record Weighed(Metric metric, double a, double b, double difference, Interval interval, Call verdict, String noInterval) {

        /** The verdict in words, with why there is no interval where that is the verdict. */
        public String verdictWords() {
            return verdict == Call.NO_INTERVAL ? verdict.words() + ": " + noInterval : verdict.words();
        }

        /** B − A as a share of A (null when A is 0). */
        public Double relative() {
            return a == 0 ? null : difference / a;
        }
    }

    /** What a pair's sides hold: runs of a point, or capacity searches; as the reader counts them and is told to repeat them. */
    public enum Kind {
        RUNS("run", "runs", "sweep with --repeats 3 on both sides"),
        SEARCHES("search", "searches", "one search each, or a capacity found only as a lower bound: ./lab capacity --repeats 3 on both sides");

        private final String one;
        private final String many;
        private final String repeat;

        /** What to do for an interval where a side has too few runs or searches. */
        String repeat() {
            return repeat;
        }

        Kind(String one, String many, String repeat) {
            this.one = one;
            this.many = many;
            this.repeat = repeat;
        }

        /** "1 run", "3 searches". */
        public String count(int n) {
            return n + " " + (n == 1 ? one : many);
        }
    }

    /**
     * One point of A against its match in B (or A's capacity searches against B's).
     *
     * @param differs the one setting in which they differ ("" when none: the same settings twice), as "name: a → b"
     * @param notes   what the reader should weigh: another machine or boot, another schema, flagged points
     * @param bound   which pool decided each side, from the servers' own metrics, and how far its bound moved
     *                (BoundShift); null where neither server published its pools
     */
    public record Pair(String pointA, String pointB, Kind kind, int runsA, int runsB, String differs, List<Weighed> outcomes, List<String> notes,
            String bound) {

        /** The verdict first: what is better, what is worse, what cannot be told apart. */
        public String headline() {
            List<String> parts = new ArrayList<>();
            for (Call v : List.of(Call.BETTER, Call.WORSE, Call.NO_DIFFERENCE, Call.SAME)) {
                List<Weighed> these = outcomes.stream().filter(o -> o.verdict() == v).toList();
                boolean sized = v == Call.BETTER || v == Call.WORSE;
                if (!these.isEmpty()) {
                    parts.add(v.words() + " in " + these.stream().map(o -> o.metric().id() + (!sized || o.relative() == null ? ""
                            : " (%+.1f%%)".formatted(o.relative() * 100))).collect(Collectors.joining(", ")));
                }
            }
            List<Weighed> none = outcomes.stream().filter(o -> o.verdict() == Call.NO_INTERVAL).toList();
            if (!none.isEmpty()) {
                parts.add("%d without an interval (%s)".formatted(none.size(),
                        none.stream().map(Weighed::noInterval).distinct().collect(Collectors.joining("; "))));
            }
            return "B: " + String.join("; ", parts);
        }

        /** The methods of its intervals, as said under its table. */
        public List<String> methods() {
            return outcomes.stream().map(Weighed::interval).filter(Objects::nonNull).map(Interval::method).distinct()
                    .map(m -> m + ", " + Math.round(Interval.LEVEL * 100) + "%").toList();
        }
    }

    /** Over every pair: how many metrics came out each way, the verdict before the tables. */
    public String summary() {
        Map<Call, Long> count = new java.util.EnumMap<>(Call.class);
        pairs.forEach(p -> p.outcomes().forEach(o -> count.merge(o.verdict(), 1L, Long::sum)));
        String counted = count.entrySet().stream().map(e -> e.getValue() + " " + e.getKey().words()).collect(Collectors.joining(", "));
        long metrics = count.values().stream().mapToLong(Long::longValue).sum();
        return "%s, %d metric%s: %s".formatted(pairs.get(0).kind() == Kind.SEARCHES ? "capacity searches compared"
                : "%d point%s compared".formatted(pairs.size(), pairs.size() == 1 ? "" : "s"), metrics, metrics == 1 ? "" : "s", counted);
    }

    /** The settings of a run that make its scenario, by name, beside the target and the injectors. */
    static final Map<String, Function<Result, Object>> SETTINGS = settings();

    private static Map<String, Function<Result, Object>> settings() {
        Map<String, Function<Result, Object>> m = new LinkedHashMap<>();
        m.put("target", r -> {
            if (r.target() == null) {
                return "a server started by hand";
            }
            Map<String, String> p = new java.util.TreeMap<>(r.target().properties());
            p.remove(TargetRun.JDK_PROPERTY); // a setting of its own: each side names its JDK
            return r.target().id() + (p.isEmpty() ? "" : " " + p);
        });
        m.put("JDK", r -> r.target() == null ? null
                : r.target().properties().getOrDefault(TargetRun.JDK_PROPERTY, "the runner's own (no --jdk)"));
        m.put("users", r -> r.parameters().open() ? null : r.parameters().users());
        m.put("path", r -> r.parameters().endpoint().path());
        m.put("injection", r -> r.parameters().open() ? "open" : "closed");
        m.put("rates", r -> r.parameters().injection().rates());
        m.put("levelSeconds", r -> r.parameters().injection().levelSeconds());
        m.put("arrivals", r -> r.parameters().injection().arrivals());
        m.put("rampSeconds", r -> r.parameters().pacing().rampSeconds());
        m.put("repeat", r -> r.parameters().pacing().repeat());
        m.put("thinkMs", r -> r.parameters().pacing().thinkMinMs() + "-" + r.parameters().pacing().thinkMaxMs());
        m.put("connections", r -> r.parameters().connections());
        // what the injector did: "auto" may have shared a pool in one run and not in the other (open files)
        m.put("connections used", r -> r.injector().connections());
        m.put("injectors", r -> r.parameters().split().injectors() == null ? 1 : r.parameters().split().injectors());
        return m;
    }

    public static Comparison of(Side a, Side b) {
        if (a.ofSearches() != b.ofSearches()) {
            throw new IllegalArgumentException("%s holds %s and %s holds %s: compare capacity searches with capacity searches, runs with runs"
                    .formatted(a.given(), a.ofSearches() ? "capacity searches" : "runs", b.given(), b.ofSearches() ? "capacity searches" : "runs"));
        }
        if (a.ofSearches()) {
            return new Comparison(a, b, List.of(SearchComparison.pair(a.searches(), b.searches())), List.of());
        }
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
        String repeat = repeatAdvice(a, b);
        // each side's model, once per target (every pair of a target shares it)
        Map<String, java.util.Optional<ServiceModel>> modelsA = new java.util.HashMap<>();
        Map<String, java.util.Optional<ServiceModel>> modelsB = new java.util.HashMap<>();
        for (String[] ids : matched) {
            pairs.add(pair(ids[0], a.points().get(ids[0]), ids[1], b.points().get(ids[1]), model(a, ids[0], modelsA), model(b, ids[1], modelsB),
                    repeat));
        }
        return new Comparison(a, b, pairs, unmatched);
    }

    /**
     * The model of a service of the user's on one side, calibrated on that side's lightest closed point of the same
     * target (ServiceModel), taken from known where that target's is there already; none where the path gives the
     * model (the lab's own targets).
     */
    private static java.util.Optional<ServiceModel> model(Side side, String id, Map<String, java.util.Optional<ServiceModel>> known) {
        Summary.RunRow row = side.points().get(id).get(0).row();
        if (row.model().modelThroughput() != null) {
            return java.util.Optional.empty();
        }
        return known.computeIfAbsent(row.identity().target(), target -> ServiceModel.of(side.points().values().stream()
                .filter(runs -> runs.get(0).row().identity().target().equals(target)).map(Comparison::point).toList()));
    }

    /**
     * What to do for an interval where a side has one run: give each point whole where a side is one run of a point
     * that has more (its folder without -r&lt;n&gt;), else (or where both are runs of one point) repeat the runs.
     */
    static String repeatAdvice(Side a, Side b) {
        if (a.wholePoint().isPresent() && a.wholePoint().map(Map.Entry::getKey).equals(b.wholePoint().map(Map.Entry::getKey))) {
            return Kind.RUNS.repeat; // two runs of one point, set against each other on purpose
        }
        List<String> whole = new ArrayList<>();
        a.wholePoint().ifPresent(p -> whole.add("A " + p.getKey() + " (" + p.getValue() + " runs)"));
        b.wholePoint().ifPresent(p -> whole.add("B " + p.getKey() + " (" + p.getValue() + " runs)"));
        return whole.isEmpty() ? Kind.RUNS.repeat : "give the points whole, without -r<n>, to compare all their runs: " + String.join(", ", whole);
    }

    static Pair pair(String idA, List<Side.Run> a, String idB, List<Side.Run> b) {
        return pair(idA, a, idB, b, java.util.Optional.empty(), java.util.Optional.empty(), Kind.RUNS.repeat);
    }

    /**
     * modelA, modelB: each side's service model, where the target is a service of the user's; repeat: what to do for an
     * interval where a side has one run (repeatAdvice).
     */
    static Pair pair(String idA, List<Side.Run> a, String idB, List<Side.Run> b, java.util.Optional<ServiceModel> modelA,
            java.util.Optional<ServiceModel> modelB, String repeat) {
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
        List<Weighed> outcomes = new ArrayList<>();
        for (Metric m : Metric.values()) {
            Weighed o = outcome(m, a, b, repeat);
            if (o != null) {
                outcomes.add(o);
            }
        }
        List<String> notes = new ArrayList<>();
        // the recording was measured to cost nothing beyond the noise (docs/findings.md): said, and refused only beside another setting
        String jvmA = jvmEvents(ra);
        String jvmB = jvmEvents(rb);
        if (!jvmA.equals(jvmB)) {
            if (differ.isEmpty()) {
                differ.add("JVM events: %s → %s".formatted(jvmA, jvmB));
            }
            else {
                notes.add("JVM events %s in A, %s in B (a recording measured to cost nothing beyond the noise)".formatted(jvmA, jvmB));
            }
        }
        PointRow pointA = point(a);
        PointRow pointB = point(b);
        notes.addAll(notes(a, b, pointA, pointB));
        return new Pair(idA, idB, Kind.RUNS, a.size(), b.size(), differ.isEmpty() ? "" : differ.get(0), outcomes, notes,
                BoundShift.of(pointA, pointB, modelA, modelB).orElse(null));
    }

    private static String jvmEvents(Result r) {
        return r.jvm() == null ? "not recorded" : "recorded";
    }

    /** The metric's verdict for these runs, with what to do for an interval where a side has one run; null when either side lacks it. */
    static Weighed outcome(Metric m, List<Side.Run> a, List<Side.Run> b, String repeat) {
        double[] va = a.stream().map(r -> m.of(r.row())).filter(Objects::nonNull).mapToDouble(Double::doubleValue).toArray();
        double[] vb = b.stream().map(r -> m.of(r.row())).filter(Objects::nonNull).mapToDouble(Double::doubleValue).toArray();
        if (va.length == 0 || vb.length == 0) {
            return null;
        }
        double meanA = Interval.mean(va);
        double meanB = Interval.mean(vb);
        if (java.util.stream.DoubleStream.concat(java.util.Arrays.stream(va), java.util.Arrays.stream(vb)).distinct().count() == 1) {
            // every run of both sides the same (KO 0 against 0): said alike with one run a side or three, no interval to take
            return new Weighed(m, meanA, meanB, 0, null, Call.SAME, null);
        }
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
        Call verdict = verdict(m, meanB - meanA, interval);
        return new Weighed(m, meanA, meanB, meanB - meanA, interval, verdict, verdict == Call.NO_INTERVAL
                ? noInterval(m, a.size(), va.length, b.size(), vb.length, repeat) : null);
    }

    /**
     * Why a metric of runs has no interval: too few runs a side (one run each gives goodput alone a per-second series),
     * or repeats whose runs did not all measure it (a target too busy to answer its actuator leaves its samples out).
     */
    static String noInterval(Metric m, int runsA, int measuredA, int runsB, int measuredB, String repeat) {
        if (runsA < 2 || runsB < 2) {
            return "%s vs %s: %s".formatted(Kind.RUNS.count(runsA), Kind.RUNS.count(runsB), repeat);
        }
        return "%s measured in %d of %d runs of A and %d of %d of B: an interval needs two a side".formatted(m.id(), measuredA, runsA,
                measuredB, runsB);
    }

    static Call verdict(Metric m, double difference, Interval interval) {
        if (interval == null) {
            return difference == 0 ? Call.SAME : Call.NO_INTERVAL;
        }
        if (interval.holds(0)) {
            return Call.NO_DIFFERENCE;
        }
        return (difference > 0) == m.higherIsBetter() ? Call.BETTER : Call.WORSE;
    }

    /** Two machines that are not one: another kind, or another boot (machines of one kind differ). */
    static java.util.Optional<String> machines(Machine.Fingerprint ma, Machine.Fingerprint mb) {
        if (ma != null && mb != null) {
            if (!ma.cpu().equals(mb.cpu()) || ma.cores() != mb.cores()) {
                return java.util.Optional.of("other machines: A on %s (%d cores), B on %s (%d cores); CPU figures compare the machines too"
                        .formatted(ma.cpu(), ma.cores(), mb.cpu(), mb.cores()));
            }
            if (ma.bootId() != null && !ma.bootId().equals(mb.bootId())) {
                return java.util.Optional.of(("A and B ran on different boots (another machine of the same kind, or a reboot): machines of one kind "
                        + "have differed by 1.7 times in CPU per request; CPU probe A %s, B %s MiB/s").formatted(ma.cpuProbeMibPerSecond(),
                                mb.cpuProbeMibPerSecond()));
            }
        }
        return java.util.Optional.empty();
    }

    /** What to weigh beside a pair's metrics; pointA, pointB: each side's runs as its point (its flags). */
    private static List<String> notes(List<Side.Run> a, List<Side.Run> b, PointRow pointA, PointRow pointB) {
        List<String> notes = new ArrayList<>();
        machines(a.get(0).machine(), b.get(0).machine()).ifPresent(notes::add);
        String schemaA = a.get(0).result().schema();
        String schemaB = b.get(0).result().schema();
        if (!schemaA.equals(schemaB)) {
            notes.add("result files of two schemas: A %s, B %s".formatted(schemaA, schemaB));
        }
        flags("A", pointA).ifPresent(notes::add);
        flags("B", pointB).ifPresent(notes::add);
        return notes;
    }

    /** A side's runs as its point. */
    private static PointRow point(List<Side.Run> runs) {
        return Points.of(runs.stream().map(Side.Run::row).toList(), Map.of()).get(0);
    }

    /** A side's point flagged machine-cpu-bound or unstable: its figures say more about the machine, or vary. */
    private static java.util.Optional<String> flags(String side, PointRow point) {
        List<String> marked = point.flags().all().stream().filter(f -> f.equals(Flags.MACHINE_CPU_BOUND) || f.equals(Flags.UNSTABLE))
                .collect(Collectors.toList());
        return marked.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of("%s is flagged %s".formatted(side, String.join(", ", marked)));
    }
}
