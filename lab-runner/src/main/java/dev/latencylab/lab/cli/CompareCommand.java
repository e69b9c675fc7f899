package dev.latencylab.lab.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import dev.latencylab.lab.compare.Comparison;
import dev.latencylab.lab.compare.Metric;
import dev.latencylab.lab.compare.Side;
import dev.latencylab.lab.format.Figures;
import dev.latencylab.lab.page.ComparePage;
import dev.latencylab.lab.flow.ExitCode;

@Command(name = "compare", mixinStandardHelpOptions = true, description = {
        "Did a change matter? B against A, point by point, each metric's difference against the noise of the runs: "
                + "better, worse, or no difference beyond the noise.",
        "A and B: two runs (a run's folder or result file), two points of sweeps (a point's folder without -r<n>: all its "
                + "repeats), two sweeps (their points matched by id), or two capacity searches (a search's folder, or the name of "
                + "./lab capacity --repeats' folders without -r<n>).",
        "With repeats on both sides the interval is Welch's t over the runs (95%%); with one run each, batch means over "
                + "the plateau's seconds (goodput only; weaker: it cannot see the noise between runs). For searches, Welch's t "
                + "over their capacities, widened by their ladders' steps (two searches or more a side).",
        "Refused: sides that differ in more than one setting (the target, the users, the path, the injectors, the "
                + "connections the injector used...); said: "
                + "another machine or boot, another schema, a point flagged machine-cpu-bound or unstable."})
final class CompareCommand implements Callable<Integer> {

    @CommandLine.Mixin
    Console console;

    @Parameters(index = "0", paramLabel = "A", description = "The baseline: a run, a point of a sweep, a sweep, or capacity searches.")
    Path a;

    @Parameters(index = "1", paramLabel = "B", description = "What is compared with it, of the same kind.")
    Path b;

    @Option(names = "--fail-if-worse", paramLabel = "METRIC:PERCENT", split = ",",
            description = "Exit 3 when B is worse than A in METRIC beyond the noise and by more than PERCENT of A's value, at "
                    + "any point (e.g. goodput:5,p99:10). Metrics: goodput, p50, p95, p99, ko, server-cpu, capacity. A metric "
                    + "without an interval on these sides is not judged but refused: exit 4.")
    List<String> failIfWorse = List.of();

    @Option(names = "--out", paramLabel = "FILE.html", description = "Also write the comparison as an HTML page, the verdict first.")
    Path out;

    @Option(names = "--verdict", description = "Print only the verdict, in Markdown, as the docs carry it between markers.")
    boolean verdict;

    /** A --fail-if-worse limit: the metric, and how much worse (a share of A) is tolerated. */
    record Limit(Metric metric, double share) {

        static Limit parse(String given) {
            String[] parts = given.split(":", -1);
            if (parts.length != 2 || !parts[1].strip().matches("[0-9]+(\\.[0-9]+)?")) {
                throw new IllegalArgumentException("--fail-if-worse %s: give METRIC:PERCENT, e.g. goodput:5".formatted(given));
            }
            return new Limit(Metric.parse(parts[0]), Double.parseDouble(parts[1].strip()) / 100);
        }

        /**
         * Why this limit cannot be judged on this comparison, in one line that says what would make it judgeable; null
         * when every pair has the metric with an interval (or the same value on both sides).
         */
        String unjudgeable(Comparison c) {
            boolean searches = c.pairs().get(0).kind() == Comparison.Kind.SEARCHES;
            if (searches != (metric == Metric.CAPACITY)) {
                return searches ? "capacity searches have one metric, capacity: gate it with capacity:PERCENT"
                        : "capacity is a metric of capacity searches, and these are runs: gate goodput, p50, p95, p99, ko or server-cpu";
            }
            for (Comparison.Pair pair : c.pairs()) {
                Comparison.Weighed o = pair.outcomes().stream().filter(x -> x.metric() == metric).findFirst().orElse(null);
                if (o == null) {
                    return "%s has no %s on %s (%s)".formatted(pair.pointB(), metric.id(), searches ? "a side" : "both sides",
                            searches ? "a side found no capacity: the first level missed the SLO" : "not measured in these runs");
                }
                if (o.verdict() == Comparison.Call.NO_INTERVAL) {
                    return searches ? "%s has no interval for %s (%s vs %s): give two searches or more a side, each bracketed (./lab capacity --repeats 3)"
                            .formatted(pair.pointB(), metric.id(), pair.kind().count(pair.runsA()), pair.kind().count(pair.runsB()))
                            : "%s has no interval for %s (%s); with one run each only goodput has an interval".formatted(pair.pointB(),
                                    metric.id(), o.noInterval());
                }
            }
            return null;
        }

        boolean breachedBy(Comparison.Weighed o) {
            return o.metric() == metric && o.verdict() == Comparison.Call.WORSE
                    && (o.relative() == null || Math.abs(o.relative()) > share);
        }
    }

    @Override
    public Integer call() {
        List<Limit> limits = failIfWorse.stream().map(Limit::parse).toList();
        limits.stream().map(Limit::metric).filter(m -> limits.stream().filter(l -> l.metric() == m).count() > 1).findFirst().ifPresent(m -> {
            throw new IllegalArgumentException("--fail-if-worse %s: %s is given twice; give each metric once".formatted(String.join(",",
                    failIfWorse), m.id()));
        });
        if (out != null) {
            ComparePage.writable(out); // refused before anything is read or printed
        }
        Comparison c = Comparison.of(Side.read(a), Side.read(b));
        if (verdict) {
            console.out().print(ComparePage.markdown(c));
            return ExitCode.OK;
        }
        console.out().printf("latency-lab: B %s against A %s%n", b, a);
        if (a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize())) {
            console.out().println("latency-lab: note: A and B are the same folder: every difference is 0 by construction");
        }
        console.out().println("latency-lab: " + c.summary());
        List<String> breached = new ArrayList<>();
        c.pairs().forEach(pair -> printPair(pair, limits, breached));
        c.unmatched().forEach(u -> console.out().println("latency-lab: not compared, " + u));
        c.a().failed().forEach(f -> console.out().println("latency-lab: not compared, in A: " + f));
        c.b().failed().forEach(f -> console.out().println("latency-lab: not compared, in B: " + f));
        if (out != null) {
            console.out().println("Comparison page: " + ComparePage.write(c, out.toAbsolutePath()));
        }
        if (!breached.isEmpty()) {
            breached.forEach(w -> console.err().println("latency-lab: WORSE: " + w));
            return ExitCode.WORSE;
        }
        // a gate that cannot judge is never a pass
        List<String> unjudged = unjudged(limits, c);
        unjudged.forEach(console.err()::println);
        return unjudged.isEmpty() ? ExitCode.OK : ExitCode.CANNOT_JUDGE;
    }

    /** A pair's table on the console, each metric's breach of a limit added to breached. */
    private void printPair(Comparison.Pair pair, List<Limit> limits, List<String> breached) {
        console.out().println();
        console.out().printf("%s (%s) -> %s (%s)%s%n", pair.pointA(), pair.kind().count(pair.runsA()), pair.pointB(), pair.kind().count(pair.runsB()),
                pair.differs().isEmpty() ? ", the same settings" : ", differs in " + pair.differs());
        console.out().println("  " + pair.headline());
        // A and B are each side's mean over its runs (a sweep's tables give medians): the heading says so
        console.out().printf("  %-22s %10s %10s %10s %8s  %-24s %s%n", "metric", "A mean", "B mean", "B-A", "B-A %", "95% interval", "verdict");
        for (Comparison.Weighed o : pair.outcomes()) {
            console.out().printf("  %-22s %10s %10s %10s %8s  %-24s %s%n", o.metric().id() + " " + o.metric().unit(),
                    Figures.value(o.a()), Figures.value(o.b()), Figures.signed(o.difference()), o.relative() == null ? ""
                            : "%+.1f%%".formatted(o.relative() * 100),
                    o.interval() == null ? "-" : o.interval().range(), o.verdict().words());
            limits.stream().filter(l -> l.breachedBy(o)).forEach(l -> breached.add("%s: %s worse by %.1f%% (more than %s%%)"
                    .formatted(pair.pointB(), o.metric().id(), Math.abs(o.relative() == null ? 100 : o.relative() * 100), Figures.rate(l.share() * 100))));
        }
        pair.methods().forEach(m -> console.out().println("  interval: " + m));
        if (pair.bound() != null) {
            console.out().println("  bound: " + pair.bound());
        }
        pair.notes().forEach(n -> console.out().println("  note: " + n));
    }

    /** Why each limit cannot judge this comparison (no interval, no metric), one line each. */
    private static List<String> unjudged(List<Limit> limits, Comparison c) {
        List<String> unjudged = new ArrayList<>();
        for (Limit l : limits) {
            String why = l.unjudgeable(c);
            if (why != null) {
                unjudged.add("latency-lab: --fail-if-worse %s:%s cannot judge: %s".formatted(l.metric().id(), Figures.rate(l.share() * 100), why));
            }
        }
        return unjudged;
    }

}
