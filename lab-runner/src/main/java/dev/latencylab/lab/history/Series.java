package dev.latencylab.lab.history;

import java.util.List;
import java.util.Objects;

import dev.latencylab.lab.run.OwnSimulation;
import dev.latencylab.lab.run.ServiceRun;
import dev.latencylab.load.result.Result;

/**
 * Which runs are one series of a history: one point id and one load, the simulation (a user's by its source's SHA-256)
 * and what it was given (users, path, request mix, header names, protocol, pacing, connections, injection and rates). Where it ran (the port), its process
 * and the service's own settings are not part of it: a history is there to see the service change under the same load.
 *
 * @param point    the point's id
 * @param settings the digest of the load's settings, its first 8 hex digits
 */
record Series(String point, String settings) {

    static Series of(String point, Result r) {
        Result.Parameters p = r.parameters();
        Result.Endpoint e = p.endpoint();
        // a simulation of the user's is named with its source's digest (ServiceRun#SIMULATION): edited, it is another load
        String simulation = r.target() == null || r.target().properties() == null ? null : r.target().properties().get(ServiceRun.SIMULATION);
        List<Object> parts = List.of(Objects.toString(r.simulation()), Objects.toString(simulation), p.users(), Objects.toString(e.path()),
                Objects.toString(e.requestMix()),
                Objects.toString(e.headers()), Objects.toString(e.protocol(), "h1"), Objects.toString(p.pacing()), Objects.toString(p.connections()),
                Objects.toString(p.injection()));
        return new Series(point, OwnSimulation.digest(parts.toString()).substring(0, 8));
    }
}
