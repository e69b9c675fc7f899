package dev.latencylab.lab.cli;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.latencylab.load.settings.SimulationSettings;

/**
 * Spellings a command had before each setting got one name: typed, each is refused in one line that names what replaced
 * it (the project was never released, so none is kept as a second name).
 */
final class RetiredOptions {

    private RetiredOptions() {
    }

    /** By command: the old option and what to give instead. */
    static final Map<String, Map<String, String>> RETIRED = Map.of(
            "run", Map.of("--repeat", "--requests-per-user N (the requests each user sends)", "--max-ko-percent", "--slo ko:PERCENT",
                    "--mvc-port", "--port PORT", "--webflux-port", "--port PORT"),
            "sweep", Map.of("--repeat", "--requests-per-user N (the requests each user sends; --repeats is the runs of each point)",
                    "--mvc-port", "--port PORT (every target's port, one after the other)",
                    "--webflux-port", "--port PORT (every target's port, one after the other)", "--max-ko-percent", "--slo ko:PERCENT"),
            "capacity", Map.of("--slo-p99-ms", "--slo p99:MS", "--slo-ko-percent", "--slo ko:PERCENT", "--max-ko-percent", "--slo ko:PERCENT",
                    "--report", "./lab report DIR... (every page of every kind of folder)", "--out", "./lab report DIR... --out DIR"),
            "footprint", Map.of("--report", "./lab report DIR", "--verdict", "./lab report DIR --verdict"),
            "compare", Map.of("--page", "--out FILE.html"));

    /**
     * The line that refuses the first retired option of this command among the arguments typed, if one is; or a -D
     * property given to a command other than run (as ./mvnw gatling:test takes them), naming its option where it has one.
     */
    static Optional<String> refusal(String command, java.util.Set<String> options, List<String> typed) {
        Map<String, String> retired = RETIRED.getOrDefault(command, Map.of());
        List<String> names = typed.stream().map(a -> a.contains("=") ? a.substring(0, a.indexOf('=')) : a).toList();
        Optional<String> old = names.stream().filter(retired::containsKey).findFirst()
                .map(o -> "%s %s: retired; give %s".formatted(command, o, retired.get(o)));
        if (old.isPresent() || command.equals("run")) {
            return old;
        }
        return names.stream().filter(n -> n.startsWith("-D") && n.length() > 2).findFirst().map(d -> {
            String property = d.substring(2);
            String option = "capacity".equals(command) && property.equals(SimulationSettings.RATE)
                    ? "--start-rate and --max-rate (the search chooses its rates)"
                    : options.contains(LoadShapeOptions.OPTION_OF.get(property)) ? LoadShapeOptions.OPTION_OF.get(property) : null;
            return "%s %s: ./lab %s takes no -D property; give %s".formatted(command, d, command,
                    option != null ? option : "its options instead (./lab %s --help)".formatted(command));
        });
    }
}
