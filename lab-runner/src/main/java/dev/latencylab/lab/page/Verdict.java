package dev.latencylab.lab.page;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import dev.latencylab.lab.capacity.Capacity;
import dev.latencylab.lab.capacity.CapacitySearch;
import dev.latencylab.lab.format.Figures;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.summary.Attribution;
import dev.latencylab.lab.summary.Flags;
import dev.latencylab.lab.summary.MachineCeiling;
import dev.latencylab.lab.summary.RowFlags;
import dev.latencylab.lab.summary.Stages;
import dev.latencylab.lab.summary.Summary;
import dev.latencylab.lab.sweep.Sweep;
import dev.latencylab.lab.targets.Target;

/**
 * A sweep's answer in words, from its points alone (summary.Stages): for each target, what bounded it at each load (the offered load,
 * its pool's T/L, something below the model, this machine's CPU), and the targets side by side at the highest load
 * this machine carried without its CPU deciding. The sweep's page and README open with it; nothing in it is typed by
 * hand, so it stays what the data says. A load is a number of users (closed points) or an arrival rate (open points);
 * the two are told apart, never mixed on one line.
 */
public final class Verdict {

    /**
     * Whether a point's connect timeouts met Tomcat's connection cap with the injector's connections shared (its flags:
     * this machine's open-files limit), not one connection per user (docs/findings.md).
     */
    static boolean sharedConnectionsKo(String target, Summary.PointRow p) {
        return p.flags().has(Flags.CONNECTIONS_SWITCHED) && !cause(target, p).isEmpty();
    }

    private Verdict() {
    }

    /** A load in words: "5,000 users", or "a rate of 2,400 req/s". */
    static String loadText(Summary.PointRow p) {
        return p.identity().rate() == null ? "%,d users".formatted(p.identity().users()) : "a rate of %s req/s".formatted(rate(p.identity().rate()));
    }

    /** A sweep folder's verdict as Markdown, from its runs' records (./lab report DIR --verdict). */
    public static String markdown(SweepFolder sweep) {
        return markdown(Sweep.points(sweep));
    }

    /**
     * The verdict as Markdown, short, for README: a line for the side-by-side load, then a line per target with one
     * number for each stage and what decided it (the model, or this machine).
     */
    public static String markdown(List<Summary.PointRow> points) {
        return text(points, true);
    }

    /** The verdict as HTML, for the top of a sweep's page: each stage with its numbers (verdict.jte). */
    public static String html(List<Summary.PointRow> points) {
        return Templates.render("verdict.jte", java.util.Map.of("lines", lines(points)));
    }

    /** The long verdict's lines, each in parts, a target's name strong: what verdict.jte marks up; empty when none finished. */
    static List<List<Strong>> lines(List<Summary.PointRow> points) {
        if (Stages.of(points).isEmpty()) {
            return List.of();
        }
        return text(points, false).lines().map(l -> Strong.parts(l.substring(2))).toList();
    }

    /** The verdict's words in Markdown, a target's name strong (**); short: README's form. */
    private static String text(List<Summary.PointRow> points, boolean shortForm) {
        List<Stages.TargetStages> targets = Stages.of(points);
        boolean latencies = targets.stream().map(Stages.TargetStages::latencyMs).distinct().count() > 1;
        StringBuilder out = new StringBuilder();
        for (Stages.SideBySide s : Stages.sideBySide(points)) {
            out.append("- ").append("At %s%s%s: ".formatted(loadText(s.at()), latencies
                    ? " and L %d ms".formatted(s.at().identity().latencyMs()) : "",
                    s.machineBound() ? " (the most two targets ran; this machine's CPU bounded one there)"
                            : shortForm ? "" : " (the most two targets ran without this machine's CPU deciding)"));
            List<String> each = new ArrayList<>();
            for (Summary.PointRow p : s.points()) {
                each.add(strong(p.identity().target()) + " " + goodput(p)
                        + (shortForm ? "" : " (p95 %s ms%s)".formatted(ms(p.latency().p95Ms().median()), ko(p))));
            }
            out.append(String.join(", ", each)).append(s.at().identity().rate() == null
                    ? "; offered N/(L+Z): %s req/s.".formatted(rate(s.at().model().modelOfferedLoad()))
                    : "; offered: %s req/s.".formatted(rate(s.at().identity().rate())))
                    .append('\n');
        }
        for (Stages.TargetStages t : targets) {
            List<String> parts = new ArrayList<>();
            for (Stages.Stage s : t.stages()) {
                parts.add(shortForm ? brief(t.target(), s) : stage(t.target(), s));
            }
            String qualifier = (latencies ? "L %d ms".formatted(t.latencyMs()) : "")
                    + (t.open() && targets.stream().anyMatch(o -> !o.open()) ? (latencies ? ", " : "") + "open" : "");
            out.append("- ").append(strong(t.target())).append((qualifier.isEmpty() ? "" : " (" + qualifier + ")") + ": "
                    + String.join("; ", parts) + ".").append('\n');
        }
        return out.toString();
    }

    private static String strong(String target) {
        return "**" + target + "**";
    }

    /**
     * A stage in README's words: what decided it, over which loads, and one number, owed to the model, this machine or a
     * finding by the one rule (summary.Attribution); a pool stage's KO with its own cause where Tomcat's connection cap
     * refused connects, from the first load it did (poolKo).
     */
    private static String brief(String target, Stages.Stage s) {
        Summary.PointRow p = s.bound().holds() ? s.first() : s.last();
        String loads = s.first() == s.last() ? "at " + loadText(p) : (s.bound().holds() ? "from " : "up to ") + loadText(p);
        String cause = cause(target, p);
        // Tomcat's connection cap is a bound of its settings (findings: the model, Tomcat's settings), not a finding
        String owed = Attribution.of(s.bound(), p, !cause.isEmpty()).words();
        return switch (s.bound()) {
            case OFFERED_LOAD -> "the offered load %s (%s%s; %s)".formatted(loads, goodput(p), notes(p), owed);
            case POOL -> "%s %s (T/L %s req/s%s; %s)%s".formatted(pool(target, p), loads, rate(p.model().modelPoolBound()), poolKo(target, s, false),
                    owed, poolKo(target, s, true));
            case BELOW_MODEL -> "below the model %s%s (%s of %s%s%s; %s)".formatted(loads, cause, goodput(p),
                    rate(p.model().modelThroughput()), ko(p), notes(p), owed);
            case MACHINE -> "this machine's CPU %s (%s%s; %s)".formatted(loads, goodput(p), p.model().modelThroughput() == null
                    ? ", machine CPU " + machineCpu(p) : " of " + rate(p.model().modelThroughput()), owed);
            case UNMODELLED, SERVICE_POOL, GIVEN_POOL, UNEXPLAINED -> ServiceWords.brief(s, loads, goodput(p) + notes(p));
        };
    }

    /**
     * The KO of a pool stage: its last load's inside the parentheses where the pool's queue is its cause (afterwards:
     * ""); after them, from the first load whose connects Tomcat's connection cap refused on, with the last load's too
     * (inside: "").
     */
    private static String poolKo(String target, Stages.Stage s, boolean afterwards) {
        Summary.PointRow last = s.last();
        Summary.PointRow capped = s.points().stream().filter(p -> !ko(p).isEmpty() && !cause(target, p).isEmpty()).findFirst().orElse(null);
        if (!afterwards) {
            return capped != null || ko(last).isEmpty() ? ""
                    : ", %.1f%% KO at %s: %s".formatted(last.requests().koPercent(), loadText(last), last.requests().topKoReason());
        }
        if (capped == null) {
            return "";
        }
        String shared = sharedConnectionsKo(target, last) ? ", the injector's connections shared there under this machine's open-files limit" : "";
        String each = capped == last ? "" : "%.1f%% at %s, ".formatted(capped.requests().koPercent(), loadText(capped));
        return ", and KO from %s: %s%.1f%% at %s%s".formatted(cause(target, capped).substring(2), each, last.requests().koPercent(),
                loadText(last), shared);
    }

    /**
     * One stage in the page's words: its bound, the loads it covers, and the numbers of one point: the last a target
     * followed the model to, the first its pool held it at (past it, the pool's queue and refused connections take over).
     */
    private static String stage(String target, Stages.Stage s) {
        String loads = s.first() == s.last() ? "at " + loadText(s.last()) : "from %s to %s".formatted(loadText(s.first()), loadText(s.last()));
        Summary.PointRow p = s.bound().holds() ? s.first() : s.last();
        String at = "%s at %s, p95 %s ms%s%s".formatted(goodput(p), loadText(p), ms(p.latency().p95Ms().median()), ko(p), notes(p));
        return switch (s.bound()) {
            case OFFERED_LOAD -> "followed the offered load %s (%s; model %s)".formatted(loads, at, rate(p.model().modelOfferedLoad()));
            case POOL -> "held at the T/L of %s, %s req/s, %s (%s)".formatted(pool(target, p), rate(p.model().modelPoolBound()), loads, at);
            case BELOW_MODEL -> "below the model %s%s (%s; model %s)".formatted(loads, cause(target, p), at, rate(p.model().modelThroughput()));
            case MACHINE -> "bounded by this machine's CPU %s (%s; %smachine CPU %s)".formatted(loads, at,
                    p.model().modelThroughput() == null ? "" : "model " + rate(p.model().modelThroughput()) + ", ", machineCpu(p));
            case UNMODELLED, SERVICE_POOL, GIVEN_POOL, UNEXPLAINED -> ServiceWords.stage(s, loads, at);
        };
    }

    /** The machine's CPU on the point's plateau, e.g. "97%". */
    private static String machineCpu(Summary.PointRow p) {
        return p.cpu().machineCpu().median() == null ? "-" : "%.0f%%".formatted(p.cpu().machineCpu().median() * 100);
    }

    /** What a reader must know beside the numbers: runs that disagree, a load near this machine's ceiling. */
    private static String notes(Summary.PointRow p) {
        RowFlags flags = p.flags();
        List<String> notes = new ArrayList<>();
        if (flags.has(Flags.UNSTABLE)) {
            notes.add("its runs disagree");
        }
        if (flags.has(Flags.MACHINE_CPU_BOUND) && Stages.Cause.of(p) != Stages.Cause.MACHINE) {
            notes.add("this machine's CPU near its limit");
        }
        else if (flags.has(Flags.NEAR_MACHINE_CEILING) && !flags.has(Flags.MACHINE_CPU_BOUND)) {
            notes.add("near this machine's ceiling");
        }
        return notes.isEmpty() ? "" : ", " + String.join(", ", notes);
    }

    /**
     * The pool a target's T counts: PostgreSQL's max_connections when the lab started it with fewer connections than the
     * pool would open (-pg<M>: T/L is then M/L), else its connection pool (a database or a downstream), else the carriers
     * its virtual threads pin (mvc-virtual-pinned: a pool only before JDK 24), else its threads.
     */
    private static String pool(String target, Summary.PointRow p) {
        return pool(target, p.model().modelPoolBound(), p.identity().latencyMs());
    }

    private static String pool(String target, Double poolBound, long latencyMs) {
        Target t = Target.known(target).orElse(null);
        if (t == null) {
            return "its thread pool"; // a service of the user's: the T the model took is its Tomcat's, read from its metrics
        }
        if (t.databaseMaxConnections() > 0 && poolBound != null && Math.round(poolBound * latencyMs / 1000.0) == t.databaseMaxConnections()) {
            return "PostgreSQL's max_connections (%d)".formatted(t.databaseMaxConnections());
        }
        if (poolBound != null && t.pinnedAt((int) Math.round(poolBound * latencyMs / 1000.0))) {
            return "its pinned carrier threads";
        }
        return t.downstreamOverHttp2() ? "its connections' HTTP/2 streams" : t.needsDatabase() || t.needsDownstream() ? "its connection pool"
                : "its thread pool";
    }

    /**
     * Capacity searches' answer as Markdown (./lab capacity --report prints it above their table): the targets by
     * capacity, then for each what bounded it: its pool's T/L (capacity within the model's tolerance of it: the model),
     * this machine's CPU (at least {@link MachineCeiling#NEAR} of the ceiling measured in the search: this machine), or
     * neither (a finding: the search measured it, this suite does not explain it).
     */
    public static String capacity(List<Capacity.Search> records) {
        StringBuilder out = new StringBuilder();
        List<String> slos = records.stream().map(Verdict::slo).distinct().toList();
        List<Capacity.Search> found = records.stream().filter(r -> r.answer().capacityPerSecond() != null)
                .sorted(Comparator.comparing((Capacity.Search s) -> s.answer().capacityPerSecond()).reversed()).toList();
        if (found.size() > 1) {
            out.append("- Within ").append(slos.size() == 1 ? "the SLO (" + slos.get(0) + ")" : "each one's SLO").append(": ")
                    .append(String.join(", ", found.stream().map(r -> "**%s** %s %s%s".formatted(r.settings().target(),
                            Figures.rate(r.answer().capacityPerSecond()), r.settings().rateUnit(), r.answer().bracketed() ? "" : " or more")).toList()))
                    .append(".\n");
        }
        for (Capacity.Search r : records) {
            out.append("- **").append(r.settings().target()).append("**").append(slos.size() == 1 ? "" : " (" + slo(r) + ")").append(": ")
                    .append(capacityBound(r)).append(".\n");
        }
        return out.toString();
    }

    private static String slo(Capacity.Search r) {
        return "p99 <= %,d ms %s, %s".formatted(r.settings().sloP99Ms(),
                dev.latencylab.load.result.Result.Open.FLOW.equals(r.settings().arrivalSends()) ? "of the flow's requests" : "from each arrival's due time",
                r.settings().sloKoPercent() == 0 ? "no KO" : "KO <= " + Figures.rate(r.settings().sloKoPercent()) + "%");
    }

    /** What bounded one search's capacity, with its numbers. */
    public static String capacityBound(Capacity.Search r) {
        if (r.answer().capacityPerSecond() == null) {
            return r.wasInterrupted() ? "none found: the search was stopped" : "none: its first level missed the SLO";
        }
        double capacity = r.answer().capacityPerSecond();
        CapacitySearch.Found outcome = CapacitySearch.found(r.levels());
        String next = r.answer().bracketed() ? "%s missed%s".formatted(Figures.rate(r.answer().firstMissPerSecond()),
                outcome.metAbove() == null ? "" : ", %s met in another ladder".formatted(Figures.rate(outcome.metAbove())))
                : r.wasInterrupted() ? "stopped before a level missed" : "no level missed up to the ladder's top";
        Double model = r.bounds().modelCapacityPerSecond();
        Double ceiling = r.bounds().machineCeilingPerSecond();
        String ofCeiling = ceiling == null ? "no machine ceiling measured"
                : "%.0f%% of this machine's ceiling %,.0f".formatted(100 * capacity / ceiling, ceiling);
        String at = "%s %s%s".formatted(Figures.rate(capacity), r.settings().rateUnit(), r.answer().bracketed() ? "" : " or more");
        if (r.bound() == Stages.Cause.POOL) {
            return "%s, %s (%.0f%% of T/L %s, %s; %s; the model)".formatted(pool(r.settings().target(), model, r.settings().latencyMs()), at,
                    100 * capacity / model, Figures.rate(model), ofCeiling, next);
        }
        if (r.bound() == Stages.Cause.MACHINE) {
            return "this machine's CPU, %s (%s, %s; %s; this machine)".formatted(at, ofCeiling,
                    model == null ? "no pool" : "below T/L " + Figures.rate(model), next);
        }
        if (model == null && r.settings().ofService()) {
            return ServiceWords.capacity(r, at, ofCeiling, next);
        }
        return "neither %s nor this machine's CPU, %s (%s; %s; a finding)".formatted(model == null ? "a pool (none)"
                : "T/L " + Figures.rate(model), at, ofCeiling, next);
    }

    /**
     * Why a point fell below the model, where the data names it: users refused at connect by Tomcat's connection cap
     * (max-connections plus accept-count) with one connection per user.
     */
    private static String cause(String target, Summary.PointRow p) {
        Target t = Target.known(target).orElse(null);
        return t != null && t.isMvc() && p.requests().topKoReason() != null && p.requests().topKoReason().contains("connect timeout")
                && !t.connectionSettings().isEmpty()
                        ? ": Tomcat's connection cap (%s)".formatted(t.connectionSettings()) : "";
    }

    /** A point's goodput, and that it is no plateau's where its users were never all active at once. */
    private static String goodput(Summary.PointRow p) {
        return rate(p.rates().goodput().median()) + " req/s"
                + (p.flags().has(Flags.NOT_ALL_ACTIVE) ? ", never all its users active at once: no plateau" : "")
                + (p.flags().has(Flags.LEVEL_NOT_HELD) ? ", its rate not held by the injector: no plateau" : "");
    }

    static String rate(Double v) {
        return v == null ? "-" : "%,.0f".formatted(v);
    }

    static String ms(Double v) {
        return v == null ? "-" : "%,.0f".formatted(v);
    }

    private static String ko(Summary.PointRow p) {
        return p.requests().koPercent() == null || p.requests().koPercent() == 0
                ? "" : ", %.1f%% KO: %s".formatted(p.requests().koPercent(), p.requests().topKoReason());
    }
}
