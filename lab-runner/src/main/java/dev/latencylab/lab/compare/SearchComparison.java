package dev.latencylab.lab.compare;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.latencylab.lab.capacity.Capacity;
import dev.latencylab.lab.capacity.CapacitySearch;
import dev.latencylab.lab.format.Figures;
import dev.latencylab.lab.summary.MachineCeiling;
import dev.latencylab.lab.summary.Stages;

/**
 * A's capacity searches against B's (./lab compare of two searches, or of their repeats): the settings that make a
 * search's question, the one that may differ, the capacity with its interval over the repeats (widened by the
 * ladders' steps), and what to weigh beside it. Runs are Comparison's.
 */
final class SearchComparison {

    private SearchComparison() {
    }

    /** The settings of a capacity search that make its question, by name. */
    static final Map<String, Function<Capacity.Search, Object>> SEARCH_SETTINGS = searchSettings();

    private static Map<String, Function<Capacity.Search, Object>> searchSettings() {
        Map<String, Function<Capacity.Search, Object>> m = new LinkedHashMap<>();
        m.put("target", s -> s.settings().target());
        m.put("latency ms", s -> s.settings().latencyMs());
        m.put("SLO p99 ms", s -> s.settings().sloP99Ms());
        m.put("SLO KO %", s -> s.settings().sloKoPercent());
        m.put("arrivals", s -> s.settings().arrivals());
        m.put("level seconds", s -> s.settings().levelSeconds());
        m.put("ramp seconds", s -> s.settings().rampSeconds());
        return m;
    }

    /** The settings in which two searches differ, as "name: a → b". */
    private static List<String> differences(Capacity.Search a, Capacity.Search b) {
        List<String> differ = new ArrayList<>();
        SEARCH_SETTINGS.forEach((name, value) -> {
            if (!Objects.equals(value.apply(a), value.apply(b))) {
                differ.add("%s: %s → %s".formatted(name, value.apply(a), value.apply(b)));
            }
        });
        return differ;
    }

    /** A's capacity searches against B's: the capacity, its interval over the repeats, and what to weigh beside it. */
    static Comparison.Pair pair(List<Side.Searched> a, List<Side.Searched> b) {
        for (List<Side.Searched> side : List.of(a, b)) {
            for (Side.Searched s : side) {
                List<String> differ = differences(side.get(0).search(), s.search());
                if (!differ.isEmpty()) {
                    throw new IllegalArgumentException("%s and %s are given as repeats of one search but differ: %s. Repeats are one search made again"
                            .formatted(side.get(0).folder(), s.folder(), String.join("; ", differ)));
                }
            }
        }
        Capacity.Search first = a.get(0).search();
        List<String> differ = differences(first, b.get(0).search());
        if (differ.size() > 1) {
            throw new IllegalArgumentException(("%s and %s differ in more than the one setting a comparison is about: %s. Compare searches "
                    + "that differ in one setting only").formatted(a.get(0).folder(), b.get(0).folder(), String.join("; ", differ)));
        }
        List<String> notes = new ArrayList<>();
        Comparison.Weighed capacity = outcome(a, b, notes);
        Comparison.machines(a.get(0).search().machine(), b.get(0).search().machine()).ifPresent(notes::add);
        bound("A", a).ifPresent(notes::add);
        bound("B", b).ifPresent(notes::add);
        for (var side : List.of(Map.entry("A", a), Map.entry("B", b))) {
            List<String> disagreed = side.getValue().stream().filter(s -> CapacitySearch.found(s.search().levels()).metAbove() != null)
                    .map(s -> "%s (%s req/s)".formatted(s.folder(), Figures.rate(CapacitySearch.found(s.search().levels()).metAbove()))).toList();
            if (!disagreed.isEmpty()) {
                notes.add(("%s: ladders of one search disagreed in %s: a rate met the SLO in one ladder and missed it in another; there "
                        + "the SLO is met only sometimes").formatted(side.getKey(), String.join(", ", disagreed)));
            }
        }
        Capacity.Search firstB = b.get(0).search();
        return new Comparison.Pair("%s-l%d".formatted(first.settings().target(), first.settings().latencyMs()),
                "%s-l%d".formatted(firstB.settings().target(), firstB.settings().latencyMs()),
                Comparison.Kind.SEARCHES, a.size(), b.size(), differ.isEmpty() ? "" : differ.get(0), capacity == null ? List.of() : List.of(capacity), notes,
                null);
    }

    /**
     * The capacity's verdict: an interval (Interval.brackets) with two searches or more a side, each of which found its
     * capacity below a rate that missed; none otherwise, the reason in the notes. Null when a side found no capacity.
     */
    static Comparison.Weighed outcome(List<Side.Searched> a, List<Side.Searched> b, List<String> notes) {
        boolean found = true;
        for (var side : List.of(Map.entry("A", a), Map.entry("B", b))) {
            List<String> none = side.getValue().stream().filter(s -> s.search().answer().capacityPerSecond() == null).map(Side.Searched::folder).toList();
            if (!none.isEmpty()) {
                notes.add("%s: no capacity found in %s (the first level missed the SLO): capacity not compared".formatted(side.getKey(),
                        String.join(", ", none)));
                found = false;
            }
        }
        if (!found) {
            return null;
        }
        double[][] va = brackets(a);
        double[][] vb = brackets(b);
        double meanA = Interval.mean(Arrays.stream(va).mapToDouble(v -> v[0]).toArray());
        double meanB = Interval.mean(Arrays.stream(vb).mapToDouble(v -> v[0]).toArray());
        Interval interval = null;
        List<String> lowerBounds = new ArrayList<>();
        for (var side : List.of(Map.entry("A", a), Map.entry("B", b))) {
            side.getValue().stream().filter(s -> !s.search().answer().bracketed()).forEach(s -> lowerBounds.add(side.getKey() + " " + s.folder()));
        }
        if (!lowerBounds.isEmpty()) {
            notes.add("a capacity found only as a lower bound (no level missed up to the ladder's top; give a higher --max-rate): "
                    + String.join(", ", lowerBounds) + "; no interval");
        }
        else if (va.length >= 2 && vb.length >= 2) {
            interval = Interval.brackets(va, vb);
        }
        else {
            notes.add("one search a side says nothing of the noise between searches");
        }
        notes.add("each search's capacity (and the rate that missed above it): A %s; B %s".formatted(steps(va), steps(vb)));
        Comparison.Call verdict = Comparison.verdict(Metric.CAPACITY, meanB - meanA, interval);
        return new Comparison.Weighed(Metric.CAPACITY, meanA, meanB, meanB - meanA, interval, verdict,
                verdict == Comparison.Call.NO_INTERVAL ? Comparison.Kind.SEARCHES.repeat() : null);
    }

    /** "2,000 (2,080)" for each search; a lower bound: "≥ 80 (none)". */
    private static String steps(double[][] searches) {
        return Arrays.stream(searches).map(s -> s[1] > s[0] ? "%s (%s)".formatted(Figures.rate(s[0]), Figures.rate(s[1]))
                : "≥ %s (none)".formatted(Figures.rate(s[0]))).collect(Collectors.joining(", "));
    }

    /** Each search as {capacity, the rate that missed above it} (the capacity again where none missed: a lower bound). */
    private static double[][] brackets(List<Side.Searched> side) {
        return side.stream().map(Side.Searched::search).map(s -> new double[] {s.answer().capacityPerSecond(),
                s.answer().bracketed() ? s.answer().firstMissPerSecond() : s.answer().capacityPerSecond()}).toArray(double[][]::new);
    }

    /** A side whose capacity this machine's CPU bounded: its figure says as much about the machine as about the target. */
    private static java.util.Optional<String> bound(String side, List<Side.Searched> searches) {
        List<Capacity.Search> machine = searches.stream().map(Side.Searched::search).filter(s -> s.bound() == Stages.Cause.MACHINE).toList();
        return machine.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(("%s's capacity was at this machine's CPU (at least "
                + "%.0f%% of the ceiling its search measured) in %d of %d searches: it says as much about the machine as about the target")
                .formatted(side, MachineCeiling.NEAR * 100, machine.size(), searches.size()));
    }
}
