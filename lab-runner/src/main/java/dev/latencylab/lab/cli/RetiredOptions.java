package dev.latencylab.lab.cli;

import java.util.List;
import java.util.Map;
import java.util.Optional;

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

    /** The line that refuses the first retired option of this command among the arguments typed, if one is. */
    static Optional<String> refusal(String command, List<String> typed) {
        Map<String, String> retired = RETIRED.getOrDefault(command, Map.of());
        return typed.stream().map(a -> a.contains("=") ? a.substring(0, a.indexOf('=')) : a).filter(retired::containsKey).findFirst()
                .map(old -> "%s %s: retired; give %s".formatted(command, old, retired.get(old)));
    }
}
