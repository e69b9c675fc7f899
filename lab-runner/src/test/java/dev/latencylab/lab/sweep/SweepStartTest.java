package dev.latencylab.lab.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.lab.Lab;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.machine.Machine;

/**
 * A sweep's start in its folder, without a process: begun, resumed as it was, extended to more runs, refused with other
 * settings (its file untouched), and warned of when it began on another machine. The plan is the published sweep's.
 */
class SweepStartTest {

    private static final SweepFile PUBLISHED = SweepFile.read(new SweepFolder(Lab.repo().resolve("docs/results")));

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private String start(SweepPlan plan, SweepFolder dir, SweepFile earlier) {
        return SweepStart.beginOrResume(plan, dir, earlier, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test
    void aSweepBeginsResumesAndExtendsOnThisMachineAndOtherSettingsAreRefused(@TempDir Path tmp) throws Exception {
        SweepPlan plan = PUBLISHED.plan();
        SweepFolder dir = new SweepFolder(tmp);
        assertThat(start(plan, dir, null)).isNull();
        SweepFile begun = SweepFile.read(dir);
        assertThat(begun.plan()).isEqualTo(plan);
        assertThat(begun.machine().bootId()).as("begun on this machine").isEqualTo(Machine.bootId());
        assertThat(out.toString()).isEmpty();

        String written = Files.readString(dir.planFile());
        assertThat(start(plan, dir, begun)).isNull();
        assertThat(out.toString()).contains("resuming " + tmp).doesNotContain("extending");
        assertThat(Files.readString(dir.planFile())).as("resumed as it was: its file as it was").isEqualTo(written);

        SweepPlan.Repeats more = new SweepPlan.Repeats(plan.runs().repeats() + 2, 0);
        SweepPlan extended = new SweepPlan(plan.matrix(), plan.pacing(), plan.ports(), more, plan.open(), plan.injectors(), plan.jvmEvents(),
                plan.jdk(), plan.service());
        assertThat(start(extended, dir, SweepFile.read(dir))).isNull();
        assertThat(out.toString()).contains("extending it to %d runs of each point (was %d".formatted(more.repeats(), plan.runs().repeats()));
        assertThat(SweepFile.read(dir).plan().runs()).isEqualTo(more);
        assertThat(err.toString()).as("resumed where it began").isEmpty();

        String extendedFile = Files.readString(dir.planFile());
        SweepPlan.Matrix m = plan.matrix();
        SweepPlan other = new SweepPlan(new SweepPlan.Matrix(m.targets(), m.users(), List.of(m.latenciesMs().get(0) + 1)), plan.pacing(),
                plan.ports(), more, plan.open(), plan.injectors(), plan.jvmEvents(), plan.jdk(), plan.service());
        assertThat(start(other, dir, SweepFile.read(dir))).startsWith(tmp + " holds a sweep with other settings (").contains("latenciesMs");
        assertThat(Files.readString(dir.planFile())).as("a refused resume writes nothing").isEqualTo(extendedFile);
    }

    @Test
    void aSweepBegunOnAnotherMachineIsResumedWithAWarning(@TempDir Path tmp) throws Exception {
        assertThat(PUBLISHED.machine().bootId()).as("the published sweep's machine, not this boot").isNotNull().isNotEqualTo(Machine.bootId());
        SweepFolder dir = new SweepFolder(tmp);
        Files.copy(Lab.repo().resolve("docs/results/sweep.json"), dir.planFile());
        assertThat(start(PUBLISHED.plan(), dir, SweepFile.read(dir))).isNull();
        assertThat(err.toString()).contains("WARNING: this sweep began on another machine", "flagged resumed-elsewhere");
    }
}
