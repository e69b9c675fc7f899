package dev.latencylab.load.live;

import java.nio.file.Path;

/**
 * One second of a run as the load's JVM saw it, written as one line of JSON to live.jsonl beside the run's result file
 * while the run lasts, and read by ./lab's live view. Times are of the requests completed in that second (null when
 * none completed); CPU shares are of the run's cores (null where unread); the pool is the connection pool the loaded path
 * waits on, the threads busy those of the server's bounded request pool (Tomcat's; null where it has none).
 *
 * @param second   seconds since the load began
 * @param users    users active (closed load) or in flight (open load) at that second
 * @param ok       OK responses so far
 * @param ko       KO responses so far
 * @param completed responses completed in this second
 */
public record LiveSample(double second, int users, long ok, long ko, long completed, Long p50Ms, Long p95Ms, Long p99Ms, Double serverCpu,
        Double machineCpu, Double injectorCpu, Double poolInUse, Double poolWaiting, Double threadsBusy) {

    /** The file's name, beside the result file. */
    public static final String FILE = "live.jsonl";

    /** Where the run whose result file is resultFile writes its seconds. */
    public static Path beside(Path resultFile) {
        Path folder = resultFile.toAbsolutePath().getParent();
        return folder == null ? Path.of(FILE) : folder.resolve(FILE);
    }
}
