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
 * target waits in one, start the target and wait until it is healthy, warm it up (not measured), run the simulation
 * pointed at it, move Gatling's report into the run's folder, stop the target (and the database).
 */
final class TargetRun {

    /** How long a target may take to become healthy. */
    static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private TargetRun() {
    }

    /**
     * @param passOn   properties given to Gatling as they are (e.g. gatling.http.requestTimeout)
     * @param details  receives targetPid, warmup and a db target's database, for the run's record
     * @param stopping asked after the warm-up and after the run: true (a signal) makes this return null
     * @return the run's outcome, its report in dir; null when stopped
     */
    static GatlingLauncher.Outcome run(Path repo, GatlingLauncher gatling, Target target, int port,
            SimulationSettings settings, Map<String, String> passOn, RunFolder dir, Duration warmup, PrintStream echo,
            Map<String, Object> details, BooleanSupplier stopping) {
        try (EmbeddedDatabase database = target.needsDatabase() ? EmbeddedDatabase.start(dir.databaseLog()) : null;
                TargetProcess server = TargetProcess.start(repo, target.module(), port, properties(target, database), Map.of(), List.of(),
                        dir.targetLog(), START_TIMEOUT)) {
            details.put("targetPid", server.pid());
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

    private static Map<String, String> properties(Target target, EmbeddedDatabase database) {
        if (database == null) {
            return target.properties();
        }
        Map<String, String> p = new LinkedHashMap<>(target.properties());
        p.putAll(target.databaseProperties(database.port()));
        return p;
    }
}
