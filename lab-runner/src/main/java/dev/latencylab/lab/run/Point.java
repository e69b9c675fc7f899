package dev.latencylab.lab.run;

import dev.latencylab.load.settings.SimulationSettings;
import dev.latencylab.lab.layout.ResultsFolders;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.targets.Target;

/**
 * One run of a sweep's point: a target at a user count (closed model) or an arrival rate (open model: rate per
 * second, users 0) and a latency, the run-th time (1 first). Its folder holds point.json (status, settings, machine,
 * why it failed), the simulation's result.json and Gatling report, and the logs of the target and of the run.
 */
public record Point(Target target, int users, long latencyMs, int run, Double rate) {

    /** A closed-model point. */
    public Point(Target target, int users, long latencyMs, int run) {
        this(target, users, latencyMs, run, null);
    }

    /** An open-model point: arrivals at rate per second. */
    public static Point open(Target target, double rate, long latencyMs, int run) {
        return new Point(target, 0, latencyMs, run, rate);
    }

    /** The point one run (./lab run) of target measures with these settings: its users, or its open load's highest rate. */
    public static Point of(Target target, SimulationSettings settings, long latencyMs) {
        return settings.open() ? open(target, settings.load().rates().getLast(), latencyMs, 1) : new Point(target, settings.users(), latencyMs, 1);
    }

    public boolean isOpen() {
        return rate != null;
    }

    /** The folder's name, e.g. webflux-l100-u5000-r2, or webflux-l100-rate3000-r2 for an open point. */
    public String id() {
        return ResultsFolders.repeat(pointId(target.id(), latencyMs, users, rate), run);
    }

    /** What the runs of one point share, e.g. webflux-l100-u5000 or webflux-l100-rate3000: the row of summary.csv. */
    public static String pointId(String target, long latencyMs, int users, Double rate) {
        return rate != null ? "%s-l%d-rate%s".formatted(target, latencyMs, SimulationSettings.rate(rate))
                : "%s-l%d-u%d".formatted(target, latencyMs, users);
    }

    /** For the console: "webflux users=5000 run 2", "webflux rate=3000/s run 2". */
    public String label() {
        return rate != null ? "%s rate=%s/s run %d".formatted(target.id(), SimulationSettings.rate(rate), run)
                : "%s users=%d run %d".formatted(target.id(), users, run);
    }

    public RunFolder folder(SweepFolder sweep) {
        return sweep.point(id());
    }

    /** This point as its runs' records name it. */
    public PointRecord.Described described() {
        return new PointRecord.Described(id(), target.id(), target.module(), users, rate, latencyMs, run, target.path(latencyMs),
                target.properties(), target.connectionSettings());
    }
}
