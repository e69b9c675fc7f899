package dev.latencylab.load.merge;

import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultCheck;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Whether result files are the parts of one split run, before they are merged: each whole and an injector's part,
 * the same settings, target and timeouts, every injector once, and started together. A refusal names the file and
 * what differs (ResultMerge.MergeException).
 */
final class MergeCheck {

    private MergeCheck() {
    }

    /** The files belong to one split run: each an injector of the same K, every index once, the same settings, started together. */
    static void check(List<String> names, List<Result> results) {
        if (results.isEmpty()) {
            throw new ResultMerge.MergeException("no result file given");
        }
        checkEach(names, results);
        checkSameRun(names, results);
        checkEveryInjectorOnce(names, results);
        checkStarts(names, results);
    }

    /** Each file alone: whole, an injector's part of a split run, an open run's levels with their histograms. */
    private static void checkEach(List<String> names, List<Result> results) {
        for (int i = 0; i < results.size(); i++) {
            List<String> wrong = ResultCheck.problems(results.get(i));
            if (!wrong.isEmpty()) {
                throw new ResultMerge.MergeException("%s: %s".formatted(names.get(i), String.join("; ", wrong)));
            }
        }
        for (int i = 0; i < results.size(); i++) {
            Result.Split p = results.get(i).parameters().split();
            if (p.injectors() == null || p.injectors() < 2 || p.injectorIndex() == null) {
                throw new ResultMerge.MergeException("%s is not an injector's part of a split run (sim.injectors=%s): nothing to merge it with"
                        .formatted(names.get(i), p.injectors() == null ? "1" : p.injectors()));
            }
            Result.Open open = results.get(i).open();
            if (open != null && open.levels().stream().anyMatch(l -> l.histograms().fromDueHistogram() == null || l.histograms().responseTimeHistogram() == null
                    || l.histograms().injectorLagHistogram() == null) || open != null && open.injectorLagHistogram() == null) {
                throw new ResultMerge.MergeException("%s is an open run written without its levels' histograms (before several injectors): "
                        .formatted(names.get(i)) + "its levels cannot be merged exactly; run it again with this version");
            }
        }
    }

    /** The parts of one run: the same settings, target and timeouts as the first. */
    private static void checkSameRun(List<String> names, List<Result> results) {
        Result.Parameters reference = results.get(0).parameters();
        for (int i = 1; i < results.size(); i++) {
            String differs = difference(reference, results.get(i).parameters());
            if (differs != null) {
                throw new ResultMerge.MergeException("%s and %s are not parts of the same run: %s".formatted(names.get(0), names.get(i), differs));
            }
            if (!Objects.equals(results.get(0).target(), results.get(i).target())) {
                throw new ResultMerge.MergeException("%s and %s are not parts of the same run: target %s and %s".formatted(names.get(0), names.get(i),
                        results.get(0).target(), results.get(i).target()));
            }
            if (!Objects.equals(results.get(0).requests().timeoutsMs(), results.get(i).requests().timeoutsMs())) {
                throw new ResultMerge.MergeException("%s and %s are not parts of the same run: timeouts %s and %s".formatted(names.get(0), names.get(i),
                        results.get(0).requests().timeoutsMs(), results.get(i).requests().timeoutsMs()));
            }
        }
    }

    /** Each injector of the run given once. */
    private static void checkEveryInjectorOnce(List<String> names, List<Result> results) {
        int k = results.get(0).parameters().split().injectors();
        String[] byIndex = new String[k];
        for (int i = 0; i < results.size(); i++) {
            int index = results.get(i).parameters().split().injectorIndex();
            if (byIndex[index] != null) {
                throw new ResultMerge.MergeException("%s and %s are both injector %d of %d".formatted(byIndex[index], names.get(i), index, k));
            }
            byIndex[index] = names.get(i);
        }
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            if (byIndex[i] == null) {
                missing.add(i);
            }
        }
        if (!missing.isEmpty()) {
            throw new ResultMerge.MergeException("the run had %d injectors; missing the result file of injector %s (given: %s)".formatted(k,
                    missing.stream().map(String::valueOf).reduce((a, b) -> a + ", " + b).orElseThrow(), String.join(", ", names)));
        }
    }

    /** Injectors that started together: none more than ResultMerge.MAX_START_SKEW after the first. */
    private static void checkStarts(List<String> names, List<Result> results) {
        Instant earliest = null;
        String earliestName = null;
        for (int i = 0; i < results.size(); i++) {
            Instant s = Instant.parse(results.get(i).start());
            if (earliest == null || s.isBefore(earliest)) {
                earliest = s;
                earliestName = names.get(i);
            }
        }
        for (int i = 0; i < results.size(); i++) {
            Duration late = Duration.between(earliest, Instant.parse(results.get(i).start()));
            if (late.compareTo(ResultMerge.MAX_START_SKEW) > 0) {
                throw new ResultMerge.MergeException("%s started %.1f s after %s: not the same run (injectors start at most %d s apart)"
                        .formatted(names.get(i), late.toMillis() / 1000.0, earliestName, ResultMerge.MAX_START_SKEW.toSeconds()));
            }
        }
    }

    /** The first setting in which two parts differ (their index aside), or null. */
    private static String difference(Result.Parameters a, Result.Parameters b) {
        // what each injector's connections negotiated is its own count, summed by the merge
        ResultCheck.Difference d = ResultCheck.firstDifference(a, b, "injectorIndex", "negotiated");
        return d == null ? null : "%s is %s in one and %s in the other".formatted(d.name(), d.first(), d.second());
    }
}
