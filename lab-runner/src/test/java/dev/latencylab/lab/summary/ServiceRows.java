package dev.latencylab.lab.summary;

import dev.latencylab.lab.run.Point;
import dev.latencylab.lab.run.Status;

/** Finished runs of a service of the user's (no model), with the numbers and pool evidence a case chooses: for the rules' tests. */
public final class ServiceRows {

    private ServiceRows() {
    }

    /** A run of the service "clinic" at so many users; machine CPU at or above 90% flags it so. */
    public static Summary.RunRow run(int users, int run, double goodput, long p50, double machineCpu, PoolEvidence evidence) {
        return run(users, run, goodput, p50, machineCpu, evidence, false);
    }

    /** The same, flagged not-all-active where its users were never all active at once. */
    public static Summary.RunRow run(int users, int run, double goodput, long p50, double machineCpu, PoolEvidence evidence,
            boolean neverAllActive) {
        RowFlags flags = RowFlags.of(java.util.stream.Stream.of(machineCpu >= Flags.CPU_BOUND ? Flags.MACHINE_CPU_BOUND : "",
                neverAllActive ? Flags.NOT_ALL_ACTIVE : "").filter(f -> !f.isEmpty()).toList());
        return new Summary.RunRow(new Summary.RunRow.Identity(Point.pointId("clinic", 0, users, null) + "-r" + run, "clinic", users, null, 0, run),
                new Summary.RunRow.Outcome(Status.DONE, null), new Summary.Pool(null, "", "per-user"),
                new Summary.RunRow.Rates(goodput, goodput, goodput, (long) goodput),
                new Summary.RunRow.Latencies(p50, p50, p50 + 5, p50 + 10, p50 + 10, p50 + 10), new Summary.RunRow.Requests(1000L, 0L, 0.0, null),
                new Summary.RunRow.Threads(60.0, 30.0), new Summary.RunRow.Cpu(0.1, 0.1, machineCpu, 2, 1.0, 1.0, 0.0, 1.0, 1400.0),
                new Summary.RunRow.Peaks(100.0, 100.0, 100.0), new Summary.Model(null, null, null, null, null, null), evidence,
                new Summary.RunRow.Notes(flags, null, 30L, null));
    }

    /** The pools a service publishes, with one of them full (null: none) at this size, hold time and bound. */
    public static PoolEvidence evidence(String full, Double size, Double holdMs, Double bound) {
        return new PoolEvidence("Tomcat's threads 50, HikariCP " + (size == null ? 10 : size.intValue()), full, size,
                full == null ? null : "connections", holdMs, bound, full == null ? null : 1.0, null, null, null, null, null);
    }

    /**
     * A service that publishes HikariCP 10 (none full) but not its Tomcat's threads, whose size the user gave (null:
     * none given).
     */
    public static PoolEvidence tomcatGiven(Integer threads) {
        return new PoolEvidence("HikariCP 10", null, null, null, null, null, null, "Tomcat's threads",
                threads == null ? null : "Tomcat's threads " + threads, threads == null ? null : "Tomcat's threads",
                threads == null ? null : threads.doubleValue(), threads == null ? null : "threads");
    }
}
