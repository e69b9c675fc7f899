package dev.latencylab.lab.sweep;

import java.io.PrintWriter;

import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.machine.Machine;

/**
 * A sweep's start in its folder: a new sweep's sweep.json written, or the sweep there resumed: refused when its
 * settings differ, its runs extended when more are asked for, and a warning when it began on another machine.
 */
public final class SweepStart {

    private SweepStart() {
    }

    /**
     * Begins the sweep of plan in dir, or resumes earlier, the sweep dir holds (null: none), saying on out what a
     * resume does, and on err that it began on another machine (its runs from here are flagged).
     *
     * @return null when the sweep may run; else why not, naming the settings that differ from the sweep there
     */
    public static String beginOrResume(SweepPlan plan, SweepFolder dir, SweepFile earlier, PrintWriter out, PrintWriter err) {
        if (earlier == null) {
            SweepFile.begin(plan).write(dir);
            return null;
        }
        String unsaid = plan.headersNotGivenAgain(earlier.plan());
        if (unsaid != null) {
            return "resuming %s: %s".formatted(dir.dir(), unsaid);
        }
        String change = plan.changeFrom(earlier.plan());
        if (change != null) {
            return "%s holds a sweep with other settings (%s): give another --name, or the same settings to resume it".formatted(dir.dir(), change);
        }
        out.println("latency-lab: resuming " + dir.dir());
        SweepPlan.Repeats was = earlier.plan().runs();
        if (!plan.runs().equals(was)) {
            out.printf("latency-lab: extending it to %d runs of each point%s (was %d%s)%n", plan.runs().repeats(),
                    fromUsers(plan.runs().repeatsFromUsers()), was.repeats(), fromUsers(was.repeatsFromUsers()));
            earlier.withRuns(plan.runs()).write(dir);
        }
        String boot = earlier.machine().bootId();
        if (boot != null && !boot.equals(Machine.bootId())) {
            err.println("latency-lab: WARNING: this sweep began on another machine (or before a reboot): "
                    + "runs from here are flagged resumed-elsewhere; compare the CPU probe each point.json records");
        }
        return null;
    }

    private static String fromUsers(int users) {
        return users == 0 ? "" : " from %,d users up".formatted(users);
    }
}
