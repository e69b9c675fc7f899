package dev.latencylab.lab.summary;

import java.util.ArrayList;
import java.util.List;

import dev.latencylab.load.result.Result;

/**
 * The flags that say how far to trust a run or a point: their names, how several are written in one cell, and when
 * each is set, in words (./lab report --help lists them; docs/sweeps.md's table is made from them) and by rule (a
 * run's: {@link #ofRun}; a point's, from its runs: Summary).
 */
public final class Flags {

    private Flags() {
    }

    public static final String MACHINE_CPU_BOUND = "machine-cpu-bound";
    static final String INJECTOR_CPU_BOUND = "injector-cpu-bound";
    public static final String MACHINE_BUSY_ELSEWHERE = "machine-busy-elsewhere";
    public static final String CONNECTIONS_SWITCHED = "connections-switched";
    static final String DESCRIPTORS_NEAR_LIMIT = "descriptors-near-limit";
    public static final String DISAGREES_WITH_MODEL = "disagrees-with-model";
    public static final String UNSTABLE = "unstable";
    public static final String NEAR_MACHINE_CEILING = "near-machine-ceiling";
    static final String RESUMED_ELSEWHERE = "resumed-elsewhere";
    public static final String NOT_ALL_ACTIVE = "not-all-active";
    public static final String LEVEL_NOT_HELD = "level-not-held";

    /** Machine CPU at or above this share of the run's cores, on the plateau, counts as CPU-bound. */
    static final double CPU_BOUND = 0.90;
    /** Open files at or above this share of the limit count as near it. */
    static final double FILES_NEAR_LIMIT = 0.90;
    /** CPU (share of the run's cores) that neither injector nor server used, from which another process counts as busy. */
    static final double ELSEWHERE = 0.10;

    /**
     * What a run's row reads off its plateau (its level, open; the run's means without one): CPU shares of all cores,
     * completions per second and the model's throughput (null without a model), and whether the model's pool saturates.
     */
    record Plateau(Double machineCpu, Double injectorCpu, Double serverCpu, Double throughput, Double modelThroughput, Boolean saturated) {
    }

    /** A run's flags, in the order a cell writes them; topReason: its most common KO reason; elsewhere: resumed on another boot. */
    static List<String> ofRun(Result r, Plateau p, String topReason, boolean elsewhere) {
        List<String> flags = new ArrayList<>();
        boolean machineBound = p.machineCpu() != null && p.machineCpu() >= CPU_BOUND;
        if (machineBound) {
            flags.add(MACHINE_CPU_BOUND);
        }
        if (busyElsewhere(p.machineCpu(), p.injectorCpu(), p.serverCpu())) {
            flags.add(MACHINE_BUSY_ELSEWHERE); // the injector is not to blame then
        }
        else if (machineBound && p.injectorCpu() != null && p.serverCpu() != null && p.injectorCpu() >= p.serverCpu()) {
            flags.add(INJECTOR_CPU_BOUND);
        }
        if (r.injector().connectionsSwitched()) {
            flags.add(CONNECTIONS_SWITCHED);
        }
        if (near(r.injector().openFiles().max(), (double) r.injector().openFilesLimit())
                || near(r.server().files().openFiles().max(), r.server().files().openFilesLimit())) {
            flags.add(DESCRIPTORS_NEAR_LIMIT);
        }
        if (neverAllActive(r)) {
            flags.add(NOT_ALL_ACTIVE);
        }
        if (levelNotHeld(r)) {
            flags.add(LEVEL_NOT_HELD);
        }
        if (r.requests().ko() > 0) {
            flags.add(RowFlags.ko(r.requests().koPercent(), topReason));
        }
        if (p.throughput() != null && p.modelThroughput() != null && p.modelThroughput() > 0 && !Boolean.TRUE.equals(p.saturated())
                && !machineBound && Math.abs(p.throughput() - p.modelThroughput()) / p.modelThroughput() > Summary.MODEL_TOLERANCE
                && !PoolEvidence.of(r).heldBelow(p.modelThroughput(), p.throughput())) {
            flags.add(DISAGREES_WITH_MODEL);
        }
        if (elsewhere) {
            flags.add(RESUMED_ELSEWHERE);
        }
        return flags;
    }

    /**
     * A closed run whose users were never all active at once (fewer than the plateau's share of them at their peak):
     * users that finished their requests before the last had started. Its goodput is no plateau's.
     */
    public static boolean neverAllActive(Result r) {
        if (r.open() != null) {
            return false;
        }
        Result.Split split = r.parameters().split();
        int here = split.injectorIndex() != null && split.injectors() != null
                ? new dev.latencylab.load.settings.InjectorSplit(split.injectors(), split.injectorIndex(), java.util.Optional.empty())
                        .share(r.parameters().users())
                : r.parameters().users();
        return r.injector().peakActiveUsers() < dev.latencylab.load.result.PlateauSpan.PLATEAU_SHARE * here;
    }

    /** A level counts as not held when the injector started its 1% latest arrivals later than this share of the level. */
    static final double LAG_SHARE_OF_LEVEL = 0.10;

    /**
     * An open run with a level that its injector did not hold at its rate: the p99 of how late arrivals started is over
     * a tenth of the level (it fell behind its schedule), or some planned arrivals were never sent. Not the level a
     * ladder stopped at because it missed the SLO: its verdict says so, and its arrivals were cut off by the stop. Its
     * goodput is no plateau's of that rate.
     */
    public static boolean levelNotHeld(Result r) {
        if (r.open() == null || r.open().levels() == null) {
            return false;
        }
        Result.Level stoppedAt = r.open().stoppedEarly() == null ? null : r.open().topLevel();
        return r.open().levels().stream().filter(l -> l.counts().arrivals() > 0 && l != stoppedAt).anyMatch(l -> {
            Result.ResponseTimes lag = l.times() == null ? null : l.times().injectorLagMs();
            double levelMs = (l.window().toSecond() - l.window().fromSecond()) * 1000;
            boolean late = lag != null && lag.p99() != null && levelMs > 0 && lag.p99() > LAG_SHARE_OF_LEVEL * levelMs;
            return late || l.counts().arrivals() < l.counts().plannedArrivals();
        });
    }

    /** Another process used at least ELSEWHERE of the machine, and more than injector and server together. */
    static boolean busyElsewhere(Double machineCpu, Double injectorCpu, Double serverCpu) {
        if (machineCpu == null || injectorCpu == null || serverCpu == null) {
            return false;
        }
        double ours = injectorCpu + serverCpu;
        double elsewhere = machineCpu - ours;
        return elsewhere >= ELSEWHERE && elsewhere > ours;
    }

    private static boolean near(Double value, Double limit) {
        return value != null && limit != null && limit > 0 && value >= FILES_NEAR_LIMIT * limit;
    }

    /** A flag of a run or point, and when it is set: ./lab report --help lists them, docs/sweeps.md's table is made from them. */
    public record Flag(String name, String when) {
    }

    public static final List<Flag> FLAGS = List.of(
            new Flag(MACHINE_CPU_BOUND, "the machine's CPU averaged >= 90% on the plateau: injector and server together used all cores"),
            new Flag(INJECTOR_CPU_BOUND, "machine-cpu-bound, and Gatling used at least as much CPU as the server: the injector, not "
                    + "the server, may be the limit"),
            new Flag(MACHINE_BUSY_ELSEWHERE, "another process used at least 10% of the machine's CPU on the plateau, and more than "
                    + "injector and server together (machine CPU minus theirs): the point shared the machine, whatever else it "
                    + "shows; never also injector-cpu-bound"),
            new Flag(CONNECTIONS_SWITCHED, "`auto` gave up one connection per user (open-files limit): the server saw far fewer "
                    + "connections than users"),
            new Flag(DESCRIPTORS_NEAR_LIMIT, "injector or server had >= 90% of its open-files limit open"),
            new Flag(NOT_ALL_ACTIVE, "a closed run's users were never all active at once (fewer than 95% of them at their peak: "
                    + "the first finished their requests before the last started): no plateau, its goodput is not the load's "
                    + "of all its users, and no model is calibrated on it; more requests per user or a shorter ramp reach one"),
            new Flag(LEVEL_NOT_HELD, "an open run's injector did not hold a level's rate: the p99 of how late it started arrivals was "
                    + "over a tenth of the level, or it never sent some of them (not the level a ladder stopped at, which its verdict "
                    + "names): no plateau at that rate; a lighter load per injector, or more injectors, holds it"),
            new Flag("ko x% (reason)", "requests failed, with the most frequent reason (a point: the median of its runs)"),
            new Flag(DISAGREES_WITH_MODEL, "throughput more than 10% off the model while neither the pool nor the machine was saturated, "
                    + "nor a pool the server's own metrics show full at its bound"),
            new Flag(UNSTABLE, "a point's runs disagree: their goodput ranges over more than 5% of its median, or their p95 over "
                    + "more than 25% of its median and more than 10 ms"),
            new Flag(NEAR_MACHINE_CEILING, "the point's model throughput is at least 80% of the target's machine ceiling: the "
                    + "machine's CPU, not only the server, was measured"),
            new Flag(RESUMED_ELSEWHERE, "the run ran on another boot than the sweep's first runs (another machine, or a reboot): "
                    + "compare the CPU probe its point.json records"),
            new Flag("k of n runs failed", "some runs of the point failed (their reasons are on the page); the numbers are the others'"));
}
