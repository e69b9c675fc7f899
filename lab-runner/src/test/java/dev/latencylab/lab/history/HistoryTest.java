package dev.latencylab.lab.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

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
    void theMachineChangedWhereItsProcessorItsSpeedOrItsLoadDidAndWhichWay() {
        assertThat(MachineShift.between(runs(HERE, HERE), runs(HERE, HERE))).as("the same machine").isNull();
        assertThat(MachineShift.between(runs(HERE, HERE), runs(new Machine.Fingerprint("boot-2", "Xeon", 2, 0.5, 410.0))))
                .as("a reboot, a probe within its spread, a load within a core").isNull();
        assertThat(MachineShift.between(runs(HERE), runs(new Machine.Fingerprint("boot-1", "EPYC", 4, 0.3, 400.0))))
                .isEqualTo(new MachineShift("another machine (Xeon, 2 cores, then EPYC, 4 cores)", MachineShift.Direction.UNKNOWN));
        assertThat(MachineShift.between(runs(HERE, HERE), runs(new Machine.Fingerprint("boot-1", "Xeon", 2, 0.3, 300.0))))
                .isEqualTo(new MachineShift("its CPU probe 400 MiB/s, then 300", MachineShift.Direction.SLOWER));
        assertThat(MachineShift.between(runs(HERE), runs(new Machine.Fingerprint("boot-1", "Xeon", 2, 1.8, 400.0))))
                .isEqualTo(new MachineShift("its load before each run 0.3, then 1.8", MachineShift.Direction.SLOWER));
        assertThat(MachineShift.between(runs(new Machine.Fingerprint("boot-1", "Xeon", 2, 5.3, 400.0)), runs(new Machine.Fingerprint("boot-1",
                "Xeon", 2, 2.7, 480.0)))).as("faster and quieter").extracting(MachineShift::direction).isEqualTo(MachineShift.Direction.FASTER);
        assertThat(MachineShift.between(runs(HERE), runs(new Machine.Fingerprint("boot-1", "Xeon", 2, 1.8, 480.0))))
                .as("a faster probe, a busier machine").extracting(MachineShift::direction).isEqualTo(MachineShift.Direction.UNKNOWN);
        assertThat(MachineShift.between(runs(HERE), runs((Machine.Fingerprint) null))).as("nothing recorded after").isNull();
    }

    @Test
    void aMachineExplainsOnlyAChangeInItsOwnDirection() {
        MachineShift faster = new MachineShift("its CPU probe 400 MiB/s, then 480", MachineShift.Direction.FASTER);
        MachineShift slower = new MachineShift("its CPU probe 400 MiB/s, then 300", MachineShift.Direction.SLOWER);
        MachineShift unknown = new MachineShift("another machine", MachineShift.Direction.UNKNOWN);
        assertThat(faster.explains(true)).as("a faster machine, a slower service").isFalse();
        assertThat(faster.explains(false)).isTrue();
        assertThat(slower.explains(true)).isTrue();
        assertThat(slower.explains(false)).as("a slower machine, a faster service").isFalse();
        assertThat(unknown.explains(true)).isTrue();
    }

    /** A history of p99 over runs runs (at least 5) whose newest change point is this one, at run 4. */
    private static History p99(double before, double after, boolean worse, MachineShift machine, int runs) {
        double[] values = new double[runs];
        Arrays.fill(values, 0, 3, before);
        Arrays.fill(values, 3, runs, after);
        ChangePoints.Change change = new ChangePoints.Change(3, 0.0001, before, after, 1, 1);
        Machine.Fingerprint[] machines = new Machine.Fingerprint[runs];
        Arrays.fill(machines, HERE);
        return new History("webflux-l100-u100", runs(machines),
                List.of(new History.Track(Metric.P99, values, List.of(new History.Shift(3, change, worse, machine)), null)));
    }

    private static History p99(double before, double after, boolean worse, MachineShift machine) {
        return p99(before, after, worse, machine, 6);
    }

    @Test
    void theGateFailsOnTheNewestChangeForTheWorseBeyondItsShareThatTheMachineDoesNotExplain() {
        ChangeGate gate = ChangeGate.parse("p99:10");
        assertThat(gate).isEqualTo(new ChangeGate(Metric.P99, 0.10));
        assertThat(gate.judge(p99(100, 120, true, null))).satisfies(v -> {
            assertThat(v.call()).isEqualTo(ChangeGate.Call.WORSE);
            assertThat(v.line()).startsWith(
                    "p99 of webflux-l100-u100 got worse from run 4 of 6 (abc123: run-4, 28 Nov 2026 09:03 UTC): 100 -> 120 ms (+20.0%, p 0.00010; runs 1-3 against 4-6)");
        });
        assertThat(gate.judge(p99(100, 105, true, null)).call()).as("5% is within the gate's 10%").isEqualTo(ChangeGate.Call.PASS);
        assertThat(gate.judge(p99(120, 100, false, null)).call()).as("better").isEqualTo(ChangeGate.Call.PASS);
        ChangeGate.Verdict slower = gate.judge(p99(100, 120, true, new MachineShift("its CPU probe 400 MiB/s, then 300", MachineShift.Direction.SLOWER)));
        assertThat(slower.call()).as("a slower machine explains it").isEqualTo(ChangeGate.Call.PASS);
        assertThat(slower.line()).endsWith("the machine changed there: its CPU probe 400 MiB/s, then 300 (slower), which explains it: not the service's");
        ChangeGate.Verdict faster = gate.judge(p99(100, 137, true, new MachineShift("its CPU probe 1230 MiB/s, then 1504", MachineShift.Direction.FASTER)));
        assertThat(faster.call()).as("a faster machine excuses nothing for the worse").isEqualTo(ChangeGate.Call.WORSE);
        assertThat(faster.line()).contains("+37.0%")
                .endsWith("the machine changed there: its CPU probe 1230 MiB/s, then 1504 (faster), which does not explain a change for the worse");
        assertThat(ChangeGate.parse("goodput").judge(p99(100, 120, true, null)).call()).as("a metric the runs lack")
                .isEqualTo(ChangeGate.Call.CANNOT_JUDGE);
        assertThat(ChangeGate.parse("p99").share()).isZero();
        assertThatThrownBy(() -> ChangeGate.parse("p99:ten")).hasMessage("--fail-on-change p99:ten: give METRIC or METRIC:PERCENT, e.g. p99:10");
        assertThatThrownBy(() -> ChangeGate.parse("capacity")).hasMessageContaining("a history follows goodput, p50, p95, p99, ko, server-cpu");
    }

    @Test
    void oneRunIsNotAChangePointAndTheGateCannotJudgeTooFewAfterIt() {
        Machine.Fingerprint[] twelve = new Machine.Fingerprint[12];
        Arrays.fill(twelve, HERE);
        List<History.Entry> entries = runs(twelve);
        double[] outlierFirst = {90, 100, 101, 100, 99, 100, 101, 100, 99, 100, 101, 100};
        History.Track first = History.track(Metric.P99, outlierFirst, List.of(new ChangePoints.Change(1, 0.0001, 90, 100, 0, 1)), entries, ChangePoints.LAB);
        assertThat(first.shifts()).as("1 run against 11: an outlier").isEmpty();
        assertThat(first.pending()).isNull();

        double[] newestDiffers = {100, 101, 100, 99, 100, 101, 100, 99, 100, 101, 100, 137};
        List<ChangePoints.Change> found = List.of(new ChangePoints.Change(11, 0.0001, 100, 137, 1, 0));
        History.Track last = History.track(Metric.P99, newestDiffers, found, entries, ChangePoints.LAB);
        assertThat(last.shifts()).isEmpty();
        assertThat(last.pending()).satisfies(p -> {
            assertThat(p.at()).isEqualTo(11);
            assertThat(p.worse()).isTrue();
            assertThat(p.change().meanBefore()).as("judged again against the runs since the last change kept").isCloseTo(100.09, within(0.01));
        });
        History h = new History("example-l0-u100", entries, List.of(last));
        ChangeGate.Verdict v = ChangeGate.parse("p99:10").judge(h);
        assertThat(v.call()).isEqualTo(ChangeGate.Call.CANNOT_JUDGE);
        assertThat(v.line()).isEqualTo("p99 of example-l0-u100: run 12 of 12 alone differs, worse: 100 -> 137 ms (+36.9%): "
                + "too few runs after it to call it a change (3 needed): run it again");
        assertThat(HistoryLines.of(h))
                .contains("  p99        run 12 of 12 alone differs, worse: 100 -> 137 ms (+36.9%): not yet a change (3 runs on each side needed)");
        assertThat(ChangeGate.parse("p99:40").judge(h).call()).as("within the gate's share").isEqualTo(ChangeGate.Call.PASS);

        double[] blip = {100, 100, 100, 100, 130, 130, 100, 100, 100, 100, 100, 100};
        List<ChangePoints.Change> blipFound = List.of(new ChangePoints.Change(4, 0.0001, 100, 130, 0, 0), new ChangePoints.Change(6, 0.0001, 130, 100, 0, 0));
        assertThat(History.track(Metric.P99, blip, blipFound, entries, ChangePoints.LAB).shifts()).as("two runs between two changes: neither kept").isEmpty();
        double[] ramp = {100, 100, 100, 100, 100, 100, 115, 115, 130, 130, 130, 130};
        List<ChangePoints.Change> rampFound = List.of(new ChangePoints.Change(6, 0.0001, 100, 115, 0, 0), new ChangePoints.Change(8, 0.0001, 115, 130, 0, 0));
        assertThat(History.track(Metric.P99, ramp, rampFound, entries, ChangePoints.LAB).shifts()).as("a step in two: one change, 6 runs against 6")
                .singleElement().satisfies(s -> assertThat(s.at()).isEqualTo(6));

        assertThat(ChangeGate.parse("p99").judge(p99(100, 120, true, null, 5))).as("5 runs cannot hold 3 on each side").satisfies(t -> {
            assertThat(t.call()).isEqualTo(ChangeGate.Call.CANNOT_JUDGE);
            assertThat(t.line()).isEqualTo("p99 of webflux-l100-u100: 5 runs; a change needs 3 runs on each side (6 in all): run it again");
        });
    }

    @Test
    void aRunWithoutAValueTakesTheOneBeforeIt() {
        assertThat(History.filled(Arrays.asList(null, 2.0, null, 4.0))).containsExactly(2, 2, 2, 4);
        assertThat(History.filled(Arrays.asList(null, null))).isNull();
    }

    @Test
    void aChangeOfTheMachineIsSaidBesideTheChangePointWithItsDirection() {
        History h = p99(100, 120, true, new MachineShift("its CPU probe 400 MiB/s, then 300", MachineShift.Direction.SLOWER));
        assertThat(HistoryLines.of(h)).containsExactly("history of webflux-l100-u100: 6 runs, 28 Nov 2026 09:00 UTC to 28 Nov 2026 09:05 UTC",
                "  p99        worse from run 4 of 6 (abc123: run-4, 28 Nov 2026 09:03 UTC): 100 -> 120 ms (+20.0%, p 0.00010; runs 1-3 against 4-6); "
                        + "the machine changed there: its CPU probe 400 MiB/s, then 300 (slower)");
    }
}
