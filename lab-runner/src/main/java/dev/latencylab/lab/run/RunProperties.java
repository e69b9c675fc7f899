package dev.latencylab.lab.run;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.latencylab.load.settings.SimulationSettings;
import dev.latencylab.lab.targets.Target;

/**
 * The simulation's properties of ./lab run, from its options and -D properties: a -D property that contradicts an
 * option, or sets what the run sets itself, is refused, naming both; else they are assembled, later ones winning (the
 * run's own, the options', the -D given).
 */
public final class RunProperties {

    private RunProperties() {
    }

    /** What a run splits itself (--injectors): given as -D, refused on run and --url alike. */
    private static final List<String> SPLIT = List.of(SimulationSettings.INJECTORS, SimulationSettings.INJECTOR_INDEX,
            SimulationSettings.START_AT);

    /** -D properties of a run of one of the lab's targets that contradict an option (null: not given) or that the run sets. */
    public static void checkForTarget(Map<String, String> properties, String targetOption, Long latencyOption) {
        String dTarget = properties.get(SimulationSettings.TARGET);
        if (dTarget != null && targetOption != null) {
            throw new IllegalArgumentException("-D%s=%s and --target %s: give the target once, with --target"
                    .formatted(SimulationSettings.TARGET, dTarget, targetOption));
        }
        if (properties.containsKey(SimulationSettings.PATH) && latencyOption != null) {
            throw new IllegalArgumentException("-D%s=%s and --latency-ms %d: give one (--latency-ms sets the path's latency)"
                    .formatted(SimulationSettings.PATH, properties.get(SimulationSettings.PATH), latencyOption));
        }
        for (String split : SPLIT) {
            if (properties.containsKey(split)) {
                throw new IllegalArgumentException(("-D%s: ./lab run splits a run with --injectors K and sets it for each injector "
                        + "(by hand: ./mvnw gatling:test -D%s=... in each of K processes)").formatted(split, split));
            }
        }
        for (String owned : List.of(SimulationSettings.BASE_URL, SimulationSettings.METRICS_URL, SimulationSettings.TARGET_PID,
                SimulationSettings.RESULT_FILE)) {
            if (properties.containsKey(owned)) {
                throw new IllegalArgumentException(("-D%s: ./lab run sets it for the target it starts (use --target and --port; "
                        + "to load a server of your own, run ./mvnw gatling:test -D%s=...)").formatted(owned, owned));
            }
        }
    }

    /** A pool given as -Dsim.model.threads must be the target's own: the model's T is the pool the target was started with. */
    public static void checkModelThreads(Target t, Map<String, String> properties) {
        String modelThreads = properties.get(SimulationSettings.MODEL_THREADS);
        if (modelThreads != null && t.poolThreads() > 0 && !modelThreads.strip().equals(String.valueOf(t.poolThreads()))) {
            throw new IllegalArgumentException("-D%s=%s: %s's pool is %d, which the model takes as T; give another target to change it"
                    .formatted(SimulationSettings.MODEL_THREADS, modelThreads, t.id(), t.poolThreads()));
        }
    }

    /**
     * A run of t: its path at this latency and its pool, the users (null: the simulation's default), the load's shape and
     * its levels' objective, the -D given, and how many injectors share it (each is given its index when it starts).
     */
    public static Map<String, String> forTarget(Target t, long latency, Integer users, Map<String, String> shape, Map<String, String> levelSlo,
            Map<String, String> properties, int injectors) {
        Map<String, String> given = new LinkedHashMap<>();
        given.put(SimulationSettings.PATH, t.path(latency));
        if (t.poolThreads() > 0) {
            given.put(SimulationSettings.MODEL_THREADS, String.valueOf(t.poolThreads()));
        }
        given.putAll(common(users, shape, levelSlo));
        given.putAll(properties);
        given.remove(SimulationSettings.TARGET); // the target is started here
        return split(given, injectors);
    }

    /** -D properties of a run of a service at a URL that the URL sets (its host, port and path) or that the run splits. */
    public static void checkForService(Map<String, String> properties) {
        List<String> set = Stream.concat(Stream.of(SimulationSettings.TARGET, SimulationSettings.PATH, SimulationSettings.BASE_URL,
                SimulationSettings.TARGET_PID, SimulationSettings.RESULT_FILE), SPLIT.stream()).toList();
        for (String owned : set) {
            if (properties.containsKey(owned)) {
                throw new IllegalArgumentException("-D%s and --url: --url sets it (the URL's host, port and path)".formatted(owned));
            }
        }
    }

    /**
     * A run of a service: its own properties (URL, metrics, pools), the users, the load's shape and its levels' objective,
     * its requests and headers, the -D given, and how many injectors share it.
     */
    public static Map<String, String> forService(Map<String, String> service, Integer users, Map<String, String> shape,
            Map<String, String> levelSlo, Map<String, String> requests, Map<String, String> properties, int injectors) {
        Map<String, String> given = new LinkedHashMap<>(service);
        given.putAll(common(users, shape, levelSlo));
        given.putAll(requests);
        given.putAll(properties);
        return split(given, injectors);
    }

    private static Map<String, String> common(Integer users, Map<String, String> shape, Map<String, String> levelSlo) {
        Map<String, String> m = new LinkedHashMap<>();
        if (users != null) {
            m.put(SimulationSettings.USERS, String.valueOf(users));
        }
        m.putAll(shape);
        m.putAll(levelSlo);
        return m;
    }

    /** Checked as each injector will check it (fewer users than injectors, a rate that does not split). */
    private static Map<String, String> split(Map<String, String> given, int injectors) {
        if (injectors > 1) {
            given.put(SimulationSettings.INJECTORS, String.valueOf(injectors));
        }
        return given;
    }
}
