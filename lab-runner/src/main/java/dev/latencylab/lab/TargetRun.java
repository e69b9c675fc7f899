package dev.latencylab.lab;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import dev.latencylab.load.SimulationSettings;

/**
 * One simulation against a fresh target JVM, as run, sweep and capacity all do it: start a fresh PostgreSQL when the
 * target waits in one, or a fresh downstream service (the WebFlux target) when it calls one; start the target and
 * wait until it is healthy, warm it up (not measured), run the simulation pointed at it, move Gatling's report into
 * the run's folder, stop the target (and what it depends on).
 */
final class TargetRun {

    /** How long a target may take to become healthy. */
    static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private TargetRun() {
    }

    /**
     * @param passOn   properties given to Gatling as they are (e.g. gatling.http.requestTimeout)
     * @param details  receives targetPid, warmup, and a db target's database or an http target's downstream, for the
     *                 run's record
     * @param stopping asked after the warm-up and after the run: true (a signal) makes this return null
     * @return the run's outcome, its report in dir; null when stopped
     */
    static GatlingLauncher.Outcome run(Path repo, GatlingLauncher gatling, Target target, int port,
            SimulationSettings settings, Map<String, String> passOn, RunFolder dir, Duration warmup, PrintStream echo,
            Map<String, Object> details, BooleanSupplier stopping) {
        try (EmbeddedDatabase database = target.needsDatabase() ? EmbeddedDatabase.start(dir.databaseLog(), target.databaseMaxConnections()) : null;
                TargetProcess downstream = target.needsDownstream() ? TargetProcess.start(repo, Target.WEBFLUX_MODULE,
                        TargetProcess.freePort(), Map.of(), Map.of(), List.of(), dir.downstreamLog(), START_TIMEOUT) : null;
                TargetProcess server = TargetProcess.start(repo, target.module(), port, properties(target, database, downstream),
                        Map.of(), List.of(), dir.targetLog(), START_TIMEOUT)) {
            details.put("targetPid", server.pid());
            if (downstream != null) {
                details.put("downstream", Map.of("pid", downstream.pid(), "url", downstream.baseUrl()));
                if (echo != null) {
                    echo.printf("latency-lab: downstream service (WebFlux, pid %d) at %s%n", downstream.pid(), downstream.baseUrl());
                }
            }
            if (database != null) {
                Map<String, Object> described = database.describe();
                details.put("database", described);
                if (echo != null) {
                    echo.printf("latency-lab: PostgreSQL %s (embedded, port %s, max_connections %s)%n", described.get("version"),
                            described.get("port"), described.get("maxConnections"));
                }
            }
            Warmup.Outcome warm = Warmup.run(server.baseUrl() + settings.path(), warmup, 50);
            details.put("warmup", Map.of("seconds", warmup.toSeconds(), "ok", warm.ok(), "failed", warm.failed()));
            if (echo != null) {
                echo.printf("latency-lab: target pid %d warmed up for %d s (%d requests, not measured)%n", server.pid(),
                        warmup.toSeconds(), warm.ok() + warm.failed());
            }
            if (stopping.getAsBoolean()) {
                return null;
            }
            Map<String, String> sim = new LinkedHashMap<>(settings.forTarget(server.baseUrl(), server.pid(), dir.resultFile()).toProperties());
            sim.putAll(passOn);
            GatlingLauncher.Outcome run = gatling.run(sim, dir.gatlingLog(), echo);
            if (stopping.getAsBoolean()) {
                return null;
            }
            run.keepReport(dir);
            return run;
        }
    }

    private static Map<String, String> properties(Target target, EmbeddedDatabase database, TargetProcess downstream) {
        Map<String, String> p = new LinkedHashMap<>(target.properties());
        if (database != null) {
            p.putAll(target.databaseProperties(database.port()));
        }
        if (downstream != null) {
            p.putAll(Target.downstreamProperties(downstream.baseUrl()));
        }
        return p;
    }
}
