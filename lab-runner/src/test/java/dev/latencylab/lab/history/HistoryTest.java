package dev.latencylab.lab.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.latencylab.lab.compare.Metric;
import dev.latencylab.lab.machine.Machine;

/**
 * The rules of a history without a run: what counts as the machine changing at a change point, when the gate fails
 * (the newest change, for the worse, beyond its share, not the machine's), and how gaps in a metric are filled.
 */
class HistoryTest {

    private static final Machine.Fingerprint HERE = new Machine.Fingerprint("boot-1", "Xeon", 2, 0.3, 400.0);

    private static List<History.Entry> runs(Machine.Fingerprint... machines) {
        List<History.Entry> entries = new ArrayList<>();
        for (int i = 0; i < machines.length; i++) {
            entries.add(new History.Entry(Path.of("run-" + (i + 1)), "2026-11-28T09:%02d:00Z".formatted(i), i == 3 ? "abc123" : null, machines[i],
                    null));
        }
        return entries;
    }

    @Test
    void theMachineChangedWhereItsProcessorItsSpeedOrItsLoadDid() {
        assertThat(MachineShift.between(runs(HERE, HERE), runs(HERE, HERE))).as("the same machine").isNull();
        assertThat(MachineShift.between(runs(HERE, HERE), runs(new Machine.Fingerprint("boot-2", "Xeon", 2, 0.5, 410.0))))
                .as("a reboot, a probe within its spread, a load within a core").isNull();
        assertThat(MachineShift.between(runs(HERE), runs(new Machine.Fingerprint("boot-1", "EPYC", 4, 0.3, 400.0))))
                .contains("another machine (Xeon, 2 cores, then EPYC, 4 cores)");
        assertThat(MachineShift.between(runs(HERE, HERE), runs(new Machine.Fingerprint("boot-1", "Xeon", 2, 0.3, 300.0))))
                .isEqualTo("its CPU probe 400 MiB/s, then 300");
        assertThat(MachineShift.between(runs(HERE), runs(new Machine.Fingerprint("boot-1", "Xeon", 2, 1.8, 400.0))))
                .isEqualTo("its load before each run 0.3, then 1.8");
        assertThat(MachineShift.between(runs(HERE), runs((Machine.Fingerprint) null))).as("nothing recorded after").isNull();
    }

    /** A history of p99 over five runs whose newest change point is this one. */
    private static History p99(double before, double after, boolean worse, String machine) {
        double[] values = {before, before, before, after, after};
        ChangePoints.Change change = new ChangePoints.Change(3, 0.0001, before, after, 1, 1);
        return new History("webflux-l100-u100", runs(HERE, HERE, HERE, HERE, HERE),
                List.of(new History.Track(Metric.P99, values, List.of(new History.Shift(3, change, worse, machine)))));
    }

    @Test
    void theGateFailsOnTheNewestChangeForTheWorseBeyondItsShareWhereTheMachineDidNotChange() {
        ChangeGate gate = ChangeGate.parse("p99:10");
        assertThat(gate).isEqualTo(new ChangeGate(Metric.P99, 0.10));
        assertThat(gate.breach(p99(100, 120, true, null))).hasValueSatisfying(line -> assertThat(line)
                .startsWith(
                        "p99 of webflux-l100-u100 got worse from run 4 of 5 (abc123: run-4, 28 Nov 2026 09:03 UTC): 100 -> 120 ms (+20.0%, p 0.00010; runs 1-3 against 4-5)"));
        assertThat(gate.breach(p99(100, 105, true, null))).as("5% is within the gate's 10%").isEmpty();
        assertThat(gate.breach(p99(120, 100, false, null))).as("better").isEmpty();
        assertThat(gate.breach(p99(100, 120, true, "its CPU probe 400 MiB/s, then 300"))).as("the machine's change").isEmpty();
        assertThat(ChangeGate.parse("goodput").breach(p99(100, 120, true, null))).as("another metric").isEmpty();
        assertThat(ChangeGate.parse("p99").share()).isZero();
        assertThatThrownBy(() -> ChangeGate.parse("p99:ten")).hasMessage("--fail-on-change p99:ten: give METRIC or METRIC:PERCENT, e.g. p99:10");
        assertThatThrownBy(() -> ChangeGate.parse("capacity")).hasMessageContaining("a history follows goodput, p50, p95, p99, ko, server-cpu");
    }

    @Test
    void aRunWithoutAValueTakesTheOneBeforeIt() {
        assertThat(History.filled(Arrays.asList(null, 2.0, null, 4.0))).containsExactly(2, 2, 2, 4);
        assertThat(History.filled(Arrays.asList(null, null))).isNull();
    }

    @Test
    void aChangeOfTheMachineIsSaidBesideTheChangePoint() {
        History h = p99(100, 120, true, "its CPU probe 400 MiB/s, then 300");
        assertThat(HistoryLines.of(h)).containsExactly("history of webflux-l100-u100: 5 runs, 28 Nov 2026 09:00 UTC to 28 Nov 2026 09:04 UTC",
                "  p99        worse from run 4 of 5 (abc123: run-4, 28 Nov 2026 09:03 UTC): 100 -> 120 ms (+20.0%, p 0.00010; runs 1-3 against 4-5); "
                        + "the machine changed there: its CPU probe 400 MiB/s, then 300");
    }
}
