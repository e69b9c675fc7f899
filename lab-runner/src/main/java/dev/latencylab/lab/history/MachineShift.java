package dev.latencylab.lab.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;

import dev.latencylab.lab.machine.Machine;

/**
 * What changed in the machine across a change point, from the fingerprints its runs recorded as they started: another
 * processor or number of cores, a processor whose single-thread probe moved by more than {@value #PROBE_SHARE} of itself
 * (another speed: a governor, a noisy neighbour), or a background load that moved by more than a core. Such a
 * change is the machine's, not the service's, and a history says so beside the change point.
 */
final class MachineShift {

    /** A probe's own run-to-run spread stays well inside this (published sweeps: under 5%). */
    static final double PROBE_SHARE = 0.15;
    private static final double LOAD_CORES = 1.0;

    private MachineShift() {
    }

    /** What changed from the runs before to the runs after, in words; null when nothing recorded did (or nothing was recorded). */
    static String between(List<History.Entry> before, List<History.Entry> after) {
        List<Machine.Fingerprint> a = prints(before);
        List<Machine.Fingerprint> b = prints(after);
        if (a.isEmpty() || b.isEmpty()) {
            return null;
        }
        List<String> changed = new ArrayList<>();
        Machine.Fingerprint last = a.getLast();
        Machine.Fingerprint next = b.getFirst();
        if (!Objects.equals(last.cpu(), next.cpu()) || last.cores() != next.cores()) {
            changed.add("another machine (%s, %d cores, then %s, %d cores)".formatted(last.cpu(), last.cores(), next.cpu(), next.cores()));
        }
        OptionalDouble probeA = a.stream().filter(f -> f.cpuProbeMibPerSecond() != null).mapToDouble(Machine.Fingerprint::cpuProbeMibPerSecond)
                .average();
        OptionalDouble probeB = b.stream().filter(f -> f.cpuProbeMibPerSecond() != null).mapToDouble(Machine.Fingerprint::cpuProbeMibPerSecond)
                .average();
        if (probeA.isPresent() && probeB.isPresent() && Math.abs(probeB.getAsDouble() / probeA.getAsDouble() - 1) > PROBE_SHARE) {
            changed.add("its CPU probe %.0f MiB/s, then %.0f".formatted(probeA.getAsDouble(), probeB.getAsDouble()));
        }
        OptionalDouble loadA = a.stream().filter(f -> f.loadAverage() != null).mapToDouble(Machine.Fingerprint::loadAverage).average();
        OptionalDouble loadB = b.stream().filter(f -> f.loadAverage() != null).mapToDouble(Machine.Fingerprint::loadAverage).average();
        if (loadA.isPresent() && loadB.isPresent() && Math.abs(loadB.getAsDouble() - loadA.getAsDouble()) > LOAD_CORES) {
            changed.add("its load before each run %.1f, then %.1f".formatted(loadA.getAsDouble(), loadB.getAsDouble()));
        }
        return changed.isEmpty() ? null : String.join("; ", changed);
    }

    private static List<Machine.Fingerprint> prints(List<History.Entry> entries) {
        return entries.stream().map(History.Entry::machine).filter(Objects::nonNull).toList();
    }
}
