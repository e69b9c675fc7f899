package dev.latencylab.lab.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import picocli.CommandLine.Option;

import dev.latencylab.load.settings.SimulationSettings;
import dev.latencylab.lab.compare.Metric;
import dev.latencylab.lab.compare.Slo;

/**
 * How each run's load is shaped, by the same names on run and sweep: the ramp, the requests each user sends and the
 * think time between them, how users connect, and an open load's rates and how long each is held. Null where not
 * given: the command's default applies (run: the simulation's property defaults; sweep: its preset's). Their help
 * is each command's, in SharedOptions.
 */
final class LoadShapeOptions {

    @Option(names = "--ramp-seconds", paramLabel = "SECONDS", description = "Users arrive evenly over this ramp.")
    Integer ramp;

    @Option(names = "--requests-per-user", paramLabel = "N", description = "Requests each user sends.")
    Integer requestsPerUser;

    @Option(names = "--think-min-ms", paramLabel = "MS", description = "Think time between a user's requests, min.")
    Integer thinkMin;

    @Option(names = "--think-max-ms", paramLabel = "MS", description = "Think time between a user's requests, max.")
    Integer thinkMax;

    @Option(names = "--connections", paramLabel = "MODE", description = "auto, per-user or shared.")
    String connections;

    @Option(names = "--rates", split = ",", paramLabel = "RATE", description = "An open load: arrivals per second.")
    List<Double> rates;

    @Option(names = "--level-seconds", paramLabel = "SECONDS", description = "How long an open load holds each rate.")
    Integer levelSeconds;

    /** Which option sets which of the simulation's properties: a property given as -D on ./lab is refused, naming it. */
    static final Map<String, String> OPTION_OF = Map.of(SimulationSettings.RAMP_SECONDS, "--ramp-seconds", SimulationSettings.REPEAT,
            "--requests-per-user", SimulationSettings.THINK_MIN_MS, "--think-min-ms", SimulationSettings.THINK_MAX_MS, "--think-max-ms",
            SimulationSettings.CONNECTIONS, "--connections", SimulationSettings.RATE, "--rates", SimulationSettings.INJECTION, "--rates",
            SimulationSettings.LEVEL_SECONDS, "--level-seconds", SimulationSettings.USERS, "--users");

    /**
     * The SLO each level of an open load is judged by, from --slo: its p99 and its KO share (null where --slo gives
     * none: the latency's own for the lab's targets; a service's must be given, levelSloGiven).
     */
    static Map<String, String> levelSlo(Slo objective) {
        Map<String, String> m = new LinkedHashMap<>();
        if (objective != null) {
            objective.of(Metric.P99).ifPresent(ms -> m.put(SimulationSettings.SLO_P99_MS, String.valueOf(Math.round(ms))));
            objective.of(Metric.KO).ifPresent(ko -> m.put(SimulationSettings.SLO_KO_PERCENT, String.valueOf(ko)));
        }
        return m;
    }

    /** An open load of a service of the user's needs its levels' p99: its path names no latency to derive one from. */
    void levelSloGiven(Slo objective) {
        if (rates != null && (objective == null || objective.of(Metric.P99).isEmpty())) {
            throw new IllegalArgumentException("--rates and --url: give the SLO each level is judged by with --slo p99:MS (e.g. --slo "
                    + "p99:500): your service's path names no latency to derive it from");
        }
    }

    /** The simulation's properties these options set (a run's): by the names SimulationSettings reads. */
    Map<String, String> properties() {
        Map<String, String> m = new LinkedHashMap<>();
        put(m, SimulationSettings.RAMP_SECONDS, ramp);
        put(m, SimulationSettings.REPEAT, requestsPerUser);
        put(m, SimulationSettings.THINK_MIN_MS, thinkMin);
        put(m, SimulationSettings.THINK_MAX_MS, thinkMax);
        put(m, SimulationSettings.CONNECTIONS, connections);
        if (rates != null) {
            m.put(SimulationSettings.INJECTION, "open");
            m.put(SimulationSettings.RATE, rates.stream().map(SimulationSettings::rate).collect(Collectors.joining(",")));
        }
        put(m, SimulationSettings.LEVEL_SECONDS, levelSeconds);
        return m;
    }

    private static void put(Map<String, String> m, String property, Object value) {
        if (value != null) {
            m.put(property, value.toString());
        }
    }

    /**
     * -D properties that have an option of their own on ./lab: refused, naming the option (-Dsim.* is the language of
     * ./mvnw gatling:test; ./lab says each setting one way).
     */
    static void refuseAsProperties(Map<String, String> properties) {
        for (String property : properties.keySet()) {
            String option = OPTION_OF.get(property);
            if (option != null) {
                throw new IllegalArgumentException("-D%s: give %s instead (./lab's name of it; -Dsim.* properties are for ./mvnw gatling:test)"
                        .formatted(property, option));
            }
        }
    }
}
