package dev.latencylab.load.result;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

import org.HdrHistogram.Histogram;

/**
 * A result file's own arithmetic, checked before anything is built on it (a merge, a summary, a page): the schema and
 * histogram encoding are known, every histogram decodes and holds as many values as the counts beside it say, counts
 * are not negative and add up, KO by reason sums to KO, the percentiles are the histogram's, the per-second series
 * sum to the counts, and a merged file's parts sum to its whole. A file edited by hand, cut short or written by
 * another version fails here with the field that is wrong, instead of merging into a wrong number.
 */
public final class ResultCheck {

    /** The one histogram encoding this version writes and reads. */
    public static final String ENCODING = "HdrHistogram compressed, base64";
    public static final String UNIT = "ms";

    private final List<String> problems = new ArrayList<>();
    /**
     * An open run whose ladder stopped early, written before its recorder closed at finish: answers still arriving
     * while the file was built were counted into the fields read later (the published capacity ladders up to
     * 2026-11-23: histogram up to 7.7% above requests.total). For those a later field may only hold more.
     */
    private boolean countedLate;

    private ResultCheck() {
    }

    /** What is wrong with the result, one line each naming the field; empty when it is consistent. */
    public static List<String> problems(Result r) {
        ResultCheck c = new ResultCheck();
        c.check(r);
        return c.problems;
    }

    private void check(Result r) {
        if (!ResultFile.SCHEMA.equals(r.schema())) {
            problems.add("schema is %s; this version reads %s".formatted(r.schema(), ResultFile.SCHEMA));
            return;
        }
        if (r.requests() == null || r.histogram() == null || r.responseTimeMs() == null || r.parameters() == null) {
            problems.add("parameters, requests, histogram and responseTimeMs are required");
            return;
        }
        if (r.target() != null && (r.target().id() == null || r.target().id().isBlank() || r.target().module() == null)) {
            problems.add("target needs its id and module (or no target at all: a server started by hand)");
        }
        countedLate = r.open() != null && r.open().stoppedEarly() != null;
        requests("requests", r.requests());
        Histogram h = histogram("histogram", r.histogram(), r.requests().total(), "requests.total");
        if (h != null && !HistogramCodec.percentiles(h).equals(r.responseTimeMs())) {
            Difference d = firstDifference(r.responseTimeMs(), HistogramCodec.percentiles(h));
            problems.add("responseTimeMs is not what histogram gives (%s %s against %s)".formatted(d.name(), d.first(), d.second()));
        }
        if (r.byRequest() != null) {
            byRequest(r);
        }
        if (r.slo() != null) {
            slo(r.slo());
        }
        if (r.throughput() != null) {
            sum("throughput.completedPerSecond", r.throughput().completedPerSecond(), r.requests().total(), "requests.total");
            sum("throughput.okPerSecond", r.throughput().okPerSecond(), r.requests().ok(), "requests.ok");
            derived(r);
        }
        Result.Split p = r.parameters().split();
        if (p.injectors() != null && p.injectors() < 1) {
            problems.add("parameters.injectors is %d; a run has 1 or more".formatted(p.injectors()));
        }
        if (p.injectorIndex() != null && (p.injectors() == null || p.injectorIndex() < 0 || p.injectorIndex() >= p.injectors())) {
            problems.add("parameters.injectorIndex is %d, outside 0..injectors-1 (injectors %s)".formatted(p.injectorIndex(), p.injectors()));
        }
        if (r.parts() != null) {
            parts(r);
        }
        if (r.open() != null) {
            open(r.open());
        }
        if (r.server() != null && r.server().pools() != null) {
            pools(r.server().pools());
        }
    }

    /**
     * Each pool's figures: a size and a hold time above 0 where given, a full share from 0 to 1, and its bound what
     * they give (size / hold time), never taken as written: a verdict and a compare draw it.
     */
    private void pools(Result.Pools pools) {
        List<Result.Pool> published = pools.published() == null ? List.of() : pools.published();
        for (int i = 0; i < published.size(); i++) {
            Result.Pool p = published.get(i);
            String field = "server.pools.published[%d] (%s)".formatted(i, p.name());
            above0(field + ".size", p.size());
            above0(field + ".holdMs", p.holdMs());
            if (p.fullShare() != null && !(p.fullShare() >= 0 && p.fullShare() <= 1)) {
                problems.add("%s.fullShare is %s; a share is from 0 to 1".formatted(field, p.fullShare()));
            }
            Double bound = p.size() == null || p.holdMs() == null || !(p.size() > 0) || !(p.holdMs() > 0) ? null : p.size() * 1000 / p.holdMs();
            if (bound == null ? p.boundPerSecond() != null : p.boundPerSecond() == null || Math.abs(p.boundPerSecond() - bound) > 1e-6 * bound) {
                problems.add("%s.boundPerSecond is %s; its size / holdMs gives %s".formatted(field, p.boundPerSecond(),
                        bound == null ? "none (it needs both)" : "%.3f".formatted(bound)));
            }
        }
        for (Result.GivenPool g : pools.givenOrNone()) {
            above0("server.pools.given (%s).size".formatted(g.name()), g.size());
        }
    }

    private void above0(String field, Double value) {
        if (value != null && !(Double.isFinite(value) && value > 0)) {
            problems.add("%s is %s; give a number above 0, or none".formatted(field, value));
        }
    }

    /** A component in which two records of one type differ: its name and both values. */
    public record Difference(String name, Object first, Object second) {
    }

    /**
     * The first component (in declaration order, those named in except aside) in which a and b differ, or null; a
     * component that is itself a record of named parts is searched the same way, so that the part is named.
     */
    public static <R extends Record> Difference firstDifference(R a, R b, String... except) {
        for (java.lang.reflect.RecordComponent c : a.getClass().getRecordComponents()) {
            if (java.util.Arrays.asList(except).contains(c.getName())) {
                continue;
            }
            try {
                Object x = c.getAccessor().invoke(a);
                Object y = c.getAccessor().invoke(b);
                if (x instanceof Record rx && y instanceof Record ry && rx.getClass() == ry.getClass()) {
                    Difference inner = firstDifference(rx, ry, except);
                    if (inner != null) {
                        return inner;
                    }
                }
                else if (!Objects.equals(x, y)) {
                    return new Difference(c.getName(), x, y);
                }
            }
            catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
        return null;
    }

    private void requests(String field, Result.Requests q) {
        nonNegative(field + ".total", q.total());
        nonNegative(field + ".ok", q.ok());
        nonNegative(field + ".ko", q.ko());
        if (differs(q.ok() + q.ko(), q.total())) {
            problems.add("%s: ok %,d + ko %,d is not total %,d".formatted(field, q.ok(), q.ko(), q.total()));
        }
        Map<String, Long> byReason = q.koByReason() == null ? Map.of() : q.koByReason();
        byReason.forEach((reason, n) -> nonNegative(field + ".koByReason[" + reason + "]", n == null ? -1 : n));
        long reasons = byReason.values().stream().filter(Objects::nonNull).mapToLong(Long::longValue).sum();
        if (reasons != q.ko()) {
            problems.add("%s.koByReason sums to %,d, not ko %,d".formatted(field, reasons, q.ko()));
        }
        double percent = q.total() == 0 ? 0.0 : 100.0 * q.ko() / q.total();
        if (!countedLate && Math.abs(percent - q.koPercent()) > 1e-9 * Math.max(1, percent)) {
            problems.add("%s.koPercent is %s; ko/total gives %s".formatted(field, q.koPercent(), percent));
        }
    }

    /** An SLO verdict is what its own values give: each objective met as its value and limit say, the whole met when each is. */
    private void slo(SloVerdict v) {
        if (v.objectives() == null || v.objectives().isEmpty()) {
            problems.add("slo.objectives: none; a verdict judges at least one");
            return;
        }
        for (int i = 0; i < v.objectives().size(); i++) {
            SloVerdict.Objective o = v.objectives().get(i);
            if (o.met() != SloVerdict.Objective.meets(o.value(), o.limit(), o.atMost())) {
                problems.add("slo.objectives[%d] (%s): met is %s, but %s %s %s is %s".formatted(i, o.metric(), o.met(), o.value(),
                        o.atMost() ? "<=" : ">=", o.limit(), !o.met()));
            }
        }
        boolean all = v.objectives().stream().allMatch(SloVerdict.Objective::met);
        if (v.met() != all) {
            problems.add("slo.met is %s, but its objectives give %s".formatted(v.met(), all));
        }
    }

    /** Each request of a mix: its histogram holds its OK and KO and gives its percentiles; together they are the run's. */
    private void byRequest(Result r) {
        long ok = 0;
        long ko = 0;
        for (int i = 0; i < r.byRequest().size(); i++) {
            Result.ByRequest q = r.byRequest().get(i);
            String at = "byRequest[%d] (%s)".formatted(i, q.name());
            if (q.ok() < 0 || q.ko() < 0) {
                problems.add(at + " counts are negative");
            }
            ok += q.ok();
            ko += q.ko();
            Histogram h = histogram(at + ".histogram", q.histogram(), q.ok() + q.ko(), at + " ok + ko");
            if (h != null && !HistogramCodec.percentiles(h).equals(q.responseTimeMs())) {
                problems.add(at + ".responseTimeMs is not what its histogram gives");
            }
        }
        if (ok != r.requests().ok() || ko != r.requests().ko()) {
            problems.add("byRequest counts %d OK and %d KO, requests %d and %d: they must be the same".formatted(ok, ko, r.requests().ok(), r.requests().ko()));
        }
    }

    /** The histogram, decoded and holding `count` values; null (and a problem) when it does not. */
    private Histogram histogram(String field, Result.EncodedHistogram e, long count, String countField) {
        if (e == null) {
            problems.add(field + " is missing");
            return null;
        }
        if (!ENCODING.equals(e.encoding()) || !UNIT.equals(e.unit())) {
            problems.add("%s: encoding \"%s\" in \"%s\"; this version reads \"%s\" in \"%s\"".formatted(field, e.encoding(), e.unit(),
                    ENCODING, UNIT));
            return null;
        }
        Histogram h;
        try {
            h = HistogramCodec.decode(Objects.requireNonNull(e.data(), "no data"));
        }
        catch (RuntimeException | OutOfMemoryError bad) {
            // an edited header can name an impossible size: the allocation fails at once, the heap is untouched
            problems.add("%s.data does not decode as an HdrHistogram (%s)".formatted(field, bad.getMessage()));
            return null;
        }
        if (differs(h.getTotalCount(), count)) {
            problems.add("%s holds %,d values; %s says %,d".formatted(field, h.getTotalCount(), countField, count));
        }
        return h;
    }

    private void sum(String field, long[] series, long expected, String countField) {
        if (series == null) {
            return; // written before that series existed
        }
        long sum = 0;
        for (long v : series) {
            if (v < 0) {
                problems.add(field + " has a negative second");
                return;
            }
            sum += v;
        }
        if (differs(sum, expected)) {
            problems.add("%s sums to %,d; %s says %,d".formatted(field, sum, countField, expected));
        }
    }

    /**
     * The figures a reader compares, each recomputed from the series it was computed from (ResultFile.build,
     * ResultMerge: the same rules): the plateau's completions and OK responses per second are the means of the per-second
     * series over the plateau's whole seconds, and an open level's goodput is that of its window's whole seconds.
     */
    private void derived(Result r) {
        Result.Throughput t = r.throughput();
        if (r.plateau() != null && t.completedPerSecond() != null) {
            PlateauSpan.Seconds span = PlateauSpan.Seconds.of(r.plateau().fromSecond(), r.plateau().toSecond(),
                    t.completedPerSecond(), t.okPerSecond() == null ? t.completedPerSecond() : t.okPerSecond());
            same("throughput.plateauPerSecond", t.plateauPerSecond(), span.throughput(), "throughput.completedPerSecond");
            same("plateau.throughputPerSecond", r.plateau().throughputPerSecond(), span.throughput(), "throughput.completedPerSecond");
            if (t.okPerSecond() != null) {
                same("throughput.goodputPlateauPerSecond", t.goodputPlateauPerSecond(), span.goodput(), "throughput.okPerSecond");
            }
        }
        if (r.open() != null && r.open().levels() != null && t.okPerSecond() != null) {
            for (Result.Level l : r.open().levels()) {
                // files from before several injectors (no level histograms) computed a level's goodput by another rule
                if (l.counts().arrivals() > 0 && l.histograms().responseTimeHistogram() != null) {
                    levelGoodput(l, t.okPerSecond(), r.open().sent().arrivalsStarted());
                }
            }
        }
    }

    /**
     * A level's goodput against its window's whole seconds. The window is written rounded to the millisecond
     * (ArrivalRecorder), so a bound within half a millisecond of a whole second may have counted that second or not:
     * either reading is the level's own.
     */
    private void levelGoodput(Result.Level l, long[] okPerSecond, long started) {
        double from = l.window().fromSecond();
        double to = l.window().toSecond();
        Double nearest = PlateauSpan.meanOfWholeSeconds(okPerSecond, from, to);
        for (double f : new double[] {from - ROUNDED, from, from + ROUNDED}) {
            for (double e : new double[] {to - ROUNDED, to, to + ROUNDED}) {
                if (equal(l.goodputPerSecond(), PlateauSpan.meanOfWholeSeconds(okPerSecond, f, e))) {
                    return;
                }
            }
        }
        // counted late (see countedLate): the level read the series after it was written, so it may hold more, never
        // more than every arrival the series does not hold, spread over the level's seconds
        long seconds = Math.max(1, (long) Math.floor(to) - (long) Math.ceil(from));
        long unseen = Math.max(0, started - java.util.Arrays.stream(okPerSecond).sum());
        if (countedLate && nearest != null && l.goodputPerSecond() != null && l.goodputPerSecond() >= nearest
                && l.goodputPerSecond() <= nearest + (double) unseen / seconds) {
            return;
        }
        problems.add("open.levels[%d].goodputPerSecond is %s; throughput.okPerSecond gives %s".formatted(l.index(), l.goodputPerSecond(), nearest));
    }

    /** Half of the millisecond a level's window is rounded to. */
    private static final double ROUNDED = 0.0005;

    private static boolean equal(Double written, Double recomputed) {
        return written == null ? recomputed == null
                : recomputed != null && Math.abs(written - recomputed) <= 1e-9 * Math.max(1, Math.abs(recomputed));
    }

    /** A figure as written against what its series gives (both null: the series has no whole second there). */
    private void same(String field, Double written, Double recomputed, String from) {
        if (!equal(written, recomputed)) {
            problems.add("%s is %s; %s gives %s".formatted(field, written, from, recomputed));
        }
    }

    private void parts(Result r) {
        List<Result.Part> parts = r.parts();
        Integer k = r.parameters().split().injectors();
        if (k == null || parts.size() != k) {
            problems.add("parts: %d, but parameters.injectors is %s".formatted(parts.size(), k));
        }
        for (Result.Part part : parts) {
            if (part.requests() == null) {
                problems.add("parts[%d].requests is missing".formatted(part.index()));
                return;
            }
            requests("parts[%d].requests".formatted(part.index()), part.requests());
        }
        partsSum("total", parts, q -> q.total(), r.requests().total());
        partsSum("ok", parts, q -> q.ok(), r.requests().ok());
        partsSum("ko", parts, q -> q.ko(), r.requests().ko());
    }

    private void partsSum(String field, List<Result.Part> parts, Function<Result.Requests, Long> count, long whole) {
        long sum = parts.stream().mapToLong(p -> count.apply(p.requests())).sum();
        if (sum != whole) {
            problems.add("parts' requests.%s sum to %,d; requests.%s says %,d".formatted(field, sum, field, whole));
        }
    }

    private void open(Result.Open o) {
        nonNegative("open.plannedArrivals", o.sent().plannedArrivals());
        nonNegative("open.arrivalsStarted", o.sent().arrivalsStarted());
        if (o.levels() == null) {
            problems.add("open.levels is missing");
            return;
        }
        for (Result.Level l : o.levels()) {
            String at = "open.levels[%d]".formatted(l.index());
            nonNegative(at + ".plannedArrivals", l.counts().plannedArrivals());
            nonNegative(at + ".arrivals", l.counts().arrivals());
            nonNegative(at + ".ok", l.counts().ok());
            nonNegative(at + ".ko", l.counts().ko());
            nonNegative(at + ".unanswered", l.counts().unanswered());
            // a flow's level counts its requests, several to an arrival, and times each user's start once
            if (!o.flows() && l.counts().ok() + l.counts().ko() + l.counts().unanswered() > l.counts().arrivals()) {
                problems.add("%s: ok %,d + ko %,d + unanswered %,d is more than its %,d arrivals".formatted(at, l.counts().ok(), l.counts().ko(),
                        l.counts().unanswered(), l.counts().arrivals()));
            }
            // files from before several injectors have no level histograms: their percentiles stand alone
            if (l.histograms().responseTimeHistogram() != null) {
                histogram(at + ".responseTimeHistogram", l.histograms().responseTimeHistogram(), l.counts().ok() + l.counts().ko(), at + " ok + ko");
            }
            if (l.histograms().fromDueHistogram() != null) {
                histogram(at + ".fromDueHistogram", l.histograms().fromDueHistogram(), l.counts().ok() + l.counts().ko() + l.counts().unanswered(),
                        at + " ok + ko + unanswered");
            }
            if (l.histograms().injectorLagHistogram() != null) {
                histogram(at + ".injectorLagHistogram", l.histograms().injectorLagHistogram(),
                        o.flows() ? l.counts().arrivals() : l.counts().ok() + l.counts().ko(), at + (o.flows() ? " arrivals" : " ok + ko"));
            }
        }
    }

    /** Whether a count read after another differs from it beyond what {@link #countedLate} allows. */
    private boolean differs(long later, long earlier) {
        return countedLate ? later < earlier : later != earlier;
    }

    private void nonNegative(String field, long n) {
        if (n < 0) {
            problems.add("%s is %,d; a count cannot be negative".formatted(field, n));
        }
    }
}
