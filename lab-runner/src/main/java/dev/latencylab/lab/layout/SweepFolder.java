package dev.latencylab.lab.layout;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The layout of a sweep folder, its one owner: sweep.json (plan, machine, versions), points/&lt;run id&gt;/ (a
 * {@link RunFolder} each run of a point), summary.csv (points), runs.csv, charts/ and index.html.
 */
public record SweepFolder(Path dir) {

    /** sweep.json: the plan, machine and versions (see the sweep package's SweepFile, which owns its format). */
    public Path planFile() {
        return dir.resolve("sweep.json");
    }

    /** The folder of its points' runs. */
    public static final String POINTS = "points";

    public Path points() {
        return dir.resolve(POINTS);
    }

    public RunFolder point(String id) {
        return new RunFolder(points().resolve(id));
    }

    /** One row per point: median and range of its runs. */
    public Path summaryCsv() {
        return dir.resolve("summary.csv");
    }

    /** One row per run. */
    public Path runsCsv() {
        return dir.resolve("runs.csv");
    }

    /** The name a page of several sweeps labels this one's points with. */
    public String name() {
        return dir.toAbsolutePath().normalize().getFileName().toString();
    }

    public Path charts() {
        return dir.resolve("charts");
    }

    public Path page() {
        return dir.resolve("index.html");
    }

    /** Whether this is a sweep folder at all (points, or at least a summary). */
    public boolean exists() {
        return Files.isDirectory(points()) || Files.isRegularFile(summaryCsv());
    }

    public boolean hasPlan() {
        return Files.isRegularFile(planFile());
    }
}
