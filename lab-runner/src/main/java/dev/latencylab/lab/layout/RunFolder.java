package dev.latencylab.lab.layout;

import java.nio.file.Path;

import dev.latencylab.load.result.ResultFile;

/**
 * The files of one simulation run against a target this runner started: {@code ./lab run}'s folder, and each sweep
 * point's. The one place that names them.
 */
public record RunFolder(Path dir) {

    public Path targetLog() {
        return dir.resolve("target.log");
    }

    /** The downstream service's log, for an http target. */
    public Path downstreamLog() {
        return dir.resolve("downstream.log");
    }

    /** The embedded PostgreSQL's log, for a db target. */
    public Path databaseLog() {
        return dir.resolve("database.log");
    }

    /** The target's flight recording (JVM events), written at its exit; its events in the run are in result.json. */
    public Path targetRecording() {
        return dir.resolve("target.jfr");
    }

    public Path gatlingLog() {
        return dir.resolve("gatling.log");
    }

    public Path resultFile() {
        return dir.resolve(ResultFile.NAME);
    }

    /** Gatling's HTML report, moved here from gatling-scripts/target/gatling after the run. */
    public Path report() {
        return dir.resolve("report");
    }

    public Path reportPage() {
        return report().resolve("index.html");
    }

    /** The files of injector i of a run split over several (its log, report and result file); the merged result is here. */
    public RunFolder injector(int i) {
        return new RunFolder(dir.resolve("injector-" + i));
    }

    /** A sweep point's record: status, settings, why it failed (see run.PointRecord). */
    public Path pointRecord() {
        return dir.resolve("point.json");
    }
}
