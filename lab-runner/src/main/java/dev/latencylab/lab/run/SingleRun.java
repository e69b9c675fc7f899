package dev.latencylab.lab.run;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;

import dev.latencylab.load.result.ResultFile;
import dev.latencylab.lab.layout.FolderLock;
import dev.latencylab.lab.layout.RunFolder;

/**
 * One run in a folder of its own (./lab run's workflow, without its command line): the folder locked and a signal hook
 * installed before the target starts, the target run (TargetRun), then its record written as a sweep point's is, with
 * what the lab added to the scenario's own time.
 */
public final class SingleRun {

    /**
     * What a run left: Gatling's outcome and the record written beside it.
     *
     * @param overhead null when the run wrote no result file
     */
    public record Ran(GatlingLauncher.Exit outcome, PointRecord record, Overhead overhead) {

        public boolean succeeded() {
            return outcome.succeeded();
        }
    }

    private SingleRun() {
    }

    /**
     * @param load         the target, its port, the settings and the run's folder (made by the caller)
     * @param point        what the run measures, as its record names it
     * @param commandStart when ./lab started: the overhead counts from there
     * @param said         what the caller makes of the run once its record is written (its page, its line), inside the
     *                     lock and counted in the overhead, as everything ./lab does beside the scenario
     */
    public static Ran run(Path repo, GatlingLauncher gatling, TargetRun.Load load, Point point, Instant commandStart, PrintWriter out,
            java.util.function.Consumer<Ran> said) {
        RunFolder dir = load.dir();
        try (FolderLock lock = FolderLock.take(dir.dir(), "run --target " + load.target().id(), false);
                StopOnSignal signal = StopOnSignal.endingRun(gatling, () -> {
                }, "stopped; the target and the simulation were ended (folder: "
                        + dir.dir() + ")")) {
            PointRecord.Start start = PointRecord.Start.now(load.port(), load.injectors());
            // never stopped from here: a signal ends the JVM through the hook, after the run's own writes
            RunOutcome.Finished finished = (RunOutcome.Finished) TargetRun.run(repo, gatling, load, out, () -> false);
            GatlingLauncher.Exit run = finished.gatling();
            out.println();
            out.println("latency-lab: stopped " + load.target().id());
            // the run's record, as a sweep point's: the summary line and a page read it the same way
            PointRecord record = new PointRecord(point.described(), new PointRecord.Ending(run.succeeded() ? Status.DONE
                    : Status.FAILED, run.succeeded() ? null : String.join("; ", run.failures(dir.gatlingLog()))), start,
                    finished.started(), PointRecord.End.now(start, null));
            record.write(dir);
            said.accept(new Ran(run, record, null));
            Overhead overhead = null;
            if (run.resultFile() != null) {
                // what the lab added to the scenario's own time, recorded beside the run's other details
                overhead = Overhead.of(commandStart, ResultFile.read(run.resultFile()), Instant.now(), (int) load.warmup().toSeconds());
                record = record.withOverhead(overhead);
                record.write(dir);
            }
            return new Ran(run, record, overhead);
        }
    }
}
