package dev.latencylab.lab.sweep;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import tools.jackson.databind.JsonNode;

import dev.latencylab.load.Json;
import dev.latencylab.load.SimulationSettings;
import dev.latencylab.lab.layout.OutputFile;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.targets.Target;

/**
 * One run of a sweep's point: a target at a user count (closed model) or an arrival rate (open model: rate per
 * second, users 0) and a latency, the run-th time (1 first). Its folder holds point.json (status, settings, machine,
 * why it failed), the simulation's result.json and Gatling report, and the logs of the target and of the run.
 */
public record Point(Target target, int users, long latencyMs, int run, Double rate) {

    /** A closed-model point. */
    public Point(Target target, int users, long latencyMs, int run) {
        this(target, users, latencyMs, run, null);
    }

    /** An open-model point: arrivals at rate per second. */
    public static Point open(Target target, double rate, long latencyMs, int run) {
        return new Point(target, 0, latencyMs, run, rate);
    }

    public boolean isOpen() {
        return rate != null;
    }


    public enum Status { DONE, FAILED }

    /** The folder's name, e.g. webflux-l100-u5000-r2, or webflux-l100-rate3000-r2 for an open point. */
    public String id() {
        return "%s-r%d".formatted(pointId(target.id(), latencyMs, users, rate), run);
    }

    /** What the runs of one point share, e.g. webflux-l100-u5000 or webflux-l100-rate3000: the row of summary.csv. */
    public static String pointId(String target, long latencyMs, int users, Double rate) {
        return rate != null ? "%s-l%d-rate%s".formatted(target, latencyMs, SimulationSettings.rate(rate))
                : "%s-l%d-u%d".formatted(target, latencyMs, users);
    }

    /** For the console: "webflux users=5000 run 2", "webflux rate=3000/s run 2". */
    public String label() {
        return rate != null ? "%s rate=%s/s run %d".formatted(target.id(), SimulationSettings.rate(rate), run)
                : "%s users=%d run %d".formatted(target.id(), users, run);
    }

    public RunFolder folder(SweepFolder sweep) {
        return sweep.point(id());
    }

    /** The recorded status, or null when the point has not finished (never run, or interrupted). */
    public Status status(SweepFolder sweep) {
        Path file = folder(sweep).pointRecord();
        if (!Files.isRegularFile(file)) {
            return null;
        }
        return Status.valueOf(Json.MAPPER.readTree(file.toFile()).path("status").asString().toUpperCase());
    }

    public void record(SweepFolder sweep, Status status, String reason, Map<String, Object> details) {
        record(folder(sweep), status, reason, details);
    }

    /** The record in any run's folder: a sweep point's, or ./lab run's own (which the summary line reads). */
    public void record(RunFolder folder, Status status, String reason, Map<String, Object> details) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id());
        m.put("target", target.id());
        m.put("module", target.module());
        m.put("users", users);
        if (rate != null) {
            m.put("rate", rate);
        }
        m.put("latencyMs", latencyMs);
        m.put("run", run);
        m.put("path", target.path(latencyMs));
        m.put("targetProperties", target.properties());
        m.put("connectionSettings", target.connectionSettings());
        m.put("status", status.name().toLowerCase());
        m.put("reason", reason);
        m.putAll(details);
        OutputFile.json(folder.pointRecord(), Json.MAPPER, m);
    }

    public static JsonNode read(RunFolder point) {
        return Json.MAPPER.readTree(point.pointRecord().toFile());
    }
}
