package dev.latencylab.lab.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.function.Function;

import dev.latencylab.lab.machine.Machine;

/**
 * What changed in the machine across a change point, from the fingerprints its runs recorded as they started: another
 * processor or number of cores, a processor whose single-thread probe moved by more than {@value #PROBE_SHARE} of itself
 * (another speed: a governor, a noisy neighbour), or a background load that moved by more than a core; and which way
 * that moves the service's figures. Such a change explains a change of the service's figures only in its own direction: a
 * faster or quieter machine explains a change for the better, never one for the worse.
 *
 * @param words     what changed, in words
 * @param direction which way the machine moved
 */
record MachineShift(String words, Direction direction) {

    /** A probe's own run-to-run spread stays well inside this (published sweeps: under 5%). */
    static final double PROBE_SHARE = 0.15;
    private static final double LOAD_CORES = 1.0;

    /** Which way a machine's change moves every figure of a run on it. */
    enum Direction {
        /** a faster probe or a quieter machine, and nothing the other way */
        FASTER("faster"),
        /** a slower probe or a busier machine, and nothing the other way */
        SLOWER("slower"),
        /** another processor its probe does not rank, or signs that disagree */
        UNKNOWN("which way, its fingerprints cannot tell");

        private final String words;

        Direction(String words) {
            this.words = words;
        }
    }

    /** Whether this change of the machine explains a change of the service's figures for the worse (or for the better). */
    boolean explains(boolean worse) {
        return direction == Direction.UNKNOWN || direction == (worse ? Direction.SLOWER : Direction.FASTER);
    }

    /** What changed and which way, for a line of the console. */
    String said() {
        return words + " (" + direction.words + ")";
    }

    /** What changed from the runs before to the runs after; null when nothing recorded did (or nothing was recorded). */
    static MachineShift between(List<History.Entry> before, List<History.Entry> after) {
        List<Machine.Fingerprint> a = prints(before);
        List<Machine.Fingerprint> b = prints(after);
        if (a.isEmpty() || b.isEmpty()) {
            return null;
        }
        List<String> changed = new ArrayList<>();
        List<Direction> ways = new ArrayList<>();
        Machine.Fingerprint last = a.getLast();
        Machine.Fingerprint next = b.getFirst();
        if (!Objects.equals(last.cpu(), next.cpu()) || last.cores() != next.cores()) {
            changed.add("another machine (%s, %d cores, then %s, %d cores)".formatted(last.cpu(), last.cores(), next.cpu(), next.cores()));
        }
        OptionalDouble probeA = average(a, Machine.Fingerprint::cpuProbeMibPerSecond);
        OptionalDouble probeB = average(b, Machine.Fingerprint::cpuProbeMibPerSecond);
        if (probeA.isPresent() && probeB.isPresent() && Math.abs(probeB.getAsDouble() / probeA.getAsDouble() - 1) > PROBE_SHARE) {
            changed.add("its CPU probe %.0f MiB/s, then %.0f".formatted(probeA.getAsDouble(), probeB.getAsDouble()));
            ways.add(probeB.getAsDouble() > probeA.getAsDouble() ? Direction.FASTER : Direction.SLOWER);
        }
        OptionalDouble loadA = average(a, Machine.Fingerprint::loadAverage);
        OptionalDouble loadB = average(b, Machine.Fingerprint::loadAverage);
        if (loadA.isPresent() && loadB.isPresent() && Math.abs(loadB.getAsDouble() - loadA.getAsDouble()) > LOAD_CORES) {
            changed.add("its load before each run %.1f, then %.1f".formatted(loadA.getAsDouble(), loadB.getAsDouble()));
            ways.add(loadB.getAsDouble() < loadA.getAsDouble() ? Direction.FASTER : Direction.SLOWER);
        }
        if (changed.isEmpty()) {
            return null;
        }
        Direction way = ways.isEmpty() || ways.stream().distinct().count() > 1 ? Direction.UNKNOWN : ways.getFirst();
        return new MachineShift(String.join("; ", changed), way);
    }

    private static OptionalDouble average(List<Machine.Fingerprint> prints, Function<Machine.Fingerprint, Double> figure) {
        return prints.stream().map(figure).filter(Objects::nonNull).mapToDouble(Double::doubleValue).average();
    }

    private static List<Machine.Fingerprint> prints(List<History.Entry> entries) {
        return entries.stream().map(History.Entry::machine).filter(Objects::nonNull).toList();
    }
}
