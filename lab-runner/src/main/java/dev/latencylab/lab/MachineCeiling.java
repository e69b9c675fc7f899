package dev.latencylab.lab;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * This machine's own bound on a target's throughput, a line of the model like T/L: its cores over the CPU time one
 * request costs injector and server together (they share the cores). The cost is measured at the target's busiest
 * unsaturated point (pool not the limit, no KO, machine neither CPU-bound nor busy elsewhere): at lighter load the
 * fixed costs of sampling and timers weigh more per request, and past a pool's knee the pool, not the CPU, decides.
 *
 * @param fromUsers the point the cost was measured at (median of its runs)
 */
public record MachineCeiling(String target, int fromUsers, int cores, double serverCpuMsPerRequest,
        double injectorCpuMsPerRequest) {

    /** A point whose model throughput is at or above this share of the ceiling ran near it: the CPU, not only the server, was measured. */
    static final double NEAR = 0.80;

    public double cpuMsPerRequest() {
        return serverCpuMsPerRequest + injectorCpuMsPerRequest;
    }

    /** Requests per second at which injector and server together use every core. */
    public double requestsPerSecond() {
        return cores * 1000.0 / cpuMsPerRequest();
    }

    public boolean near(double requestsPerSecond) {
        return requestsPerSecond >= NEAR * requestsPerSecond();
    }

    /** CPU ms one request cost: a share of all cores, times the cores, over the requests per second. */
    static Double cpuMsPerRequest(Double cpuShare, Integer cores, Double requestsPerSecond) {
        if (cpuShare == null || cores == null || cores <= 0 || requestsPerSecond == null || requestsPerSecond <= 0) {
            return null;
        }
        return cpuShare * cores * 1000 / requestsPerSecond;
    }

    /** Each target's ceiling from its runs, by target id; a target with no run that qualifies has none. */
    static Map<String, MachineCeiling> of(List<Summary.RunRow> runs) {
        Map<String, Map<Integer, List<Summary.RunRow>>> byTarget = new TreeMap<>();
        for (Summary.RunRow r : runs) {
            if (qualifies(r)) {
                byTarget.computeIfAbsent(r.target(), t -> new TreeMap<>()).computeIfAbsent(r.users(), n -> new ArrayList<>()).add(r);
            }
        }
        Map<String, MachineCeiling> ceilings = new TreeMap<>();
        byTarget.forEach((target, byUsers) -> {
            List<Summary.RunRow> busiest = byUsers.values().stream()
                    .max(Comparator.comparingDouble(point -> median(point, Summary.RunRow::throughput))).orElseThrow();
            Summary.RunRow first = busiest.get(0);
            ceilings.put(target, new MachineCeiling(target, first.users(), first.cores(),
                    median(busiest, Summary.RunRow::serverCpuMsPerRequest), median(busiest, Summary.RunRow::injectorCpuMsPerRequest)));
        });
        return ceilings;
    }

    /** A run whose CPU per request is the machine's cost of a request, nothing else's. */
    static boolean qualifies(Summary.RunRow r) {
        return "done".equals(r.status()) && !Boolean.TRUE.equals(r.modelSaturated()) && r.ko() != null && r.ko() == 0
                && r.cores() != null && r.serverCpuMsPerRequest() != null && r.injectorCpuMsPerRequest() != null
                && r.throughput() != null && !r.flagList().contains(Summary.MACHINE_CPU_BOUND)
                && !r.flagList().contains(Summary.MACHINE_BUSY_ELSEWHERE);
    }

    private static double median(List<Summary.RunRow> runs, java.util.function.Function<Summary.RunRow, Double> value) {
        return Spread.of(runs.stream().map(value).toList()).median();
    }
}
