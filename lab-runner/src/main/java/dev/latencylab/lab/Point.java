package dev.latencylab.lab;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * One point of a sweep: a target at a user count and latency. Its folder holds point.json (status, settings, why it
 * failed), the simulation's result.json and Gatling report, and the logs of the target and of the run.
 */
public record Point(Target target, int users, long latencyMs) {

    static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    public enum Status { DONE, FAILED }

    public String id() {
        return "%s-l%d-u%d".formatted(target.id(), latencyMs, users);
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
        return Status.valueOf(JSON.readTree(file.toFile()).path("status").asString().toUpperCase());
    }

    public void record(SweepFolder sweep, Status status, String reason, Map<String, Object> details) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id());
        m.put("target", target.id());
        m.put("module", target.module());
        m.put("users", users);
        m.put("latencyMs", latencyMs);
        m.put("path", target.path(latencyMs));
        m.put("targetProperties", target.properties());
        m.put("connectionSettings", target.connectionSettings());
        m.put("status", status.name().toLowerCase());
        m.put("reason", reason);
        m.putAll(details);
        JSON.writeValue(folder(sweep).pointRecord().toFile(), m);
    }

    public static JsonNode read(RunFolder point) {
        return JSON.readTree(point.pointRecord().toFile());
    }
}
