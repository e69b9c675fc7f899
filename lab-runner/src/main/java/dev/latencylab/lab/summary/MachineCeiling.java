package dev.latencylab.lab.summary;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.latencylab.lab.summary.Spread;
import dev.latencylab.lab.summary.Summary;

/**
 * This machine's own bound on a target's goodput, a line of the model like T/L: its cores over the CPU time one OK
 * response costs injector and server together (they share the cores). The cost is measured at the target's busiest
 * point whose pool was not the limit and beside which nothing else used the machine: the CPU per response falls as
 * the load grows (fixed costs of sampling and timers spread over more responses, more events handled per wake-up),
 * so a lighter point would understate the ceiling, and past a pool's knee the pool, not the CPU, decides. Measured
 * below the machine's limit it is still a lower bound, for the same reason.
 *
 * @param fromUsers the point the cost was measured at (median of its runs)
 */
public record MachineCeiling(String target, int fromUsers, int cores, double serverCpuMsPerRequest,
        double injectorCpuMsPerRequest) {

    /** A point whose model throughput is at or above this share of the ceiling ran near it: the CPU, not only the server, was measured. */
    public static final double NEAR = 0.80;
    /**
     * A ceiling measured at a goodput under this share of itself is not one: at so light a load fixed costs (idle
     * threads, timers, the sampler) weigh on every response, and the 4-fold or longer extrapolation put ceilings of
     * db targets at 338 req/s measured at 62, below the 490 that this machine served beside them.
     */
    static final double LIGHT = 0.25;

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

    /** CPU ms one response cost: a share of all cores, times the cores, over the responses per second. */
    public static Double cpuMsPerRequest(Double cpuShare, Integer cores, Double requestsPerSecond) {
        if (cpuShare == null || cores == null || cores <= 0 || requestsPerSecond == null || requestsPerSecond <= 0) {
            return null;
        }
        return cpuShare * cores * 1000 / requestsPerSecond;
    }

    /**
     * Each target's ceiling from its runs, by target id; a target with no run that qualifies has none, nor one whose
     * busiest such run was too light (see {@link #LIGHT}).
     */
    public static Map<String, MachineCeiling> of(List<Summary.RunRow> runs) {
        Map<String, Map<Integer, List<Summary.RunRow>>> byTarget = new TreeMap<>();
        for (Summary.RunRow r : runs) {
            if (qualifies(r)) {
                byTarget.computeIfAbsent(r.identity().target(), t -> new TreeMap<>()).computeIfAbsent(r.identity().users(),
                        n -> new ArrayList<>()).add(r);
            }
        }
        Map<String, MachineCeiling> ceilings = new TreeMap<>();
        byTarget.forEach((target, byUsers) -> {
            List<Summary.RunRow> busiest = byUsers.values().stream()
                    .max(Comparator.comparingDouble(point -> median(point, (Summary.RunRow r) -> r.rates().goodput()))).orElseThrow();
            Summary.RunRow first = busiest.get(0);
            MachineCeiling ceiling = new MachineCeiling(target, first.identity().users(), first.cpu().cores(),
                    median(busiest, r -> r.cpu().serverCpuMsPerRequest()), median(busiest, r -> r.cpu().injectorCpuMsPerRequest()));
            if (median(busiest, r -> r.rates().goodput()) >= LIGHT * ceiling.requestsPerSecond()) {
                ceilings.put(target, ceiling);
            }
        });
        return ceilings;
    }

    /**
     * A run whose CPU per response is what this machine pays for a response of this target: its pool was not the
     * limit (the model) and no other process used the machine. Closed runs only: they are what fromUsers names (an
     * open point's CPU per response is on its page beside its rate, and ./lab capacity measures its own ceiling). A CPU-bound run counts: it is the closest to the
     * ceiling; so does one with KO, since the cost is per OK response.
     */
    static boolean qualifies(Summary.RunRow r) {
        return r.done() && r.identity().rate() == null && !Boolean.TRUE.equals(r.model().modelSaturated()) && r.cpu().cores() != null
                && r.rates().goodput() != null
                && r.cpu().serverCpuMsPerRequest() != null && r.cpu().injectorCpuMsPerRequest() != null
                && !r.flags().has(Flags.MACHINE_BUSY_ELSEWHERE);
    }

    private static double median(List<Summary.RunRow> runs, java.util.function.Function<Summary.RunRow, Double> value) {
        return Spread.of(runs.stream().map(value).toList()).median();
    }
}
