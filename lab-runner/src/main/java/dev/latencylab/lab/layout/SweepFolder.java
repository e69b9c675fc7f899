package dev.latencylab.lab.layout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import tools.jackson.databind.JsonNode;

import dev.latencylab.load.Json;

/**
 * The layout of a sweep folder, its one owner: sweep.json (plan, machine, versions), points/&lt;run id&gt;/ (a
 * {@link RunFolder} each run of a point), summary.csv (points), runs.csv, charts/ and index.html.
 */
public record SweepFolder(Path dir) {

    public Path planFile() {
        return dir.resolve("sweep.json");
    }

    public Path points() {
        return dir.resolve("points");
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

    /** sweep.json as written: the plan's fields, then machine, versions, created. */
    public JsonNode readPlan() {
        return Json.MAPPER.readTree(planFile().toFile());
    }

    /** The boot id of the machine the sweep began on (sweep.json), or null. */
    public String bootId() {
        return hasPlan() ? readPlan().path("machine").path("bootId").asString(null) : null;
    }

    public void writePlan(Map<String, Object> json) {
        OutputFile.json(planFile(), Json.MAPPER, json);
    }
}
