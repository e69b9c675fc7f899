package dev.latencylab.lab.cli;

import java.util.List;
import java.util.ListResourceBundle;
import java.util.stream.Collectors;

import dev.latencylab.load.settings.SimulationProperties;
import dev.latencylab.load.settings.SimulationSettings;
import dev.latencylab.lab.layout.ResultsFolders;
import dev.latencylab.lab.sweep.Preset;

/**
 * The help picocli reads from the root command's resource bundle: the options declared once (ResultsOptions,
 * NameOption) as each command means them, a key being the command's qualified name, then the option's (picocli's
 * qualified keys; their default folders are ResultsFolders'); and the defaults of
 * sweep's presets, from Preset itself, for the ${sweep...} variables of SweepCommand's help.
 */
public final class SharedOptions extends ListResourceBundle {

    @Override
    protected Object[][] getContents() {
        Preset d = Preset.DEFAULT;
        Preset q = Preset.QUICK;
        return new Object[][] {
                {"lab.run.results", "Folder of the runs, as capacity's and footprint's hold theirs (default: " + ResultsFolders.RUNS + " in the repository)."},
                {"lab.sweep.results", "Folder that holds the sweeps (default: " + ResultsFolders.RESULTS + "/ in the repository)."},
                {"lab.sweep.name", "The sweep's folder name: give an existing one to resume it (default: a timestamp)."},
                {"lab.capacity.results", "Folder of the searches (default: " + ResultsFolders.SEARCHES + " in the repository)."},
                {"lab.capacity.name", "The search's folder name (default: <target>-l<latency>-<timestamp>)."},
                {"lab.footprint.results", "Folder of the experiments, as sweep's and capacity's hold theirs (default: " + ResultsFolders.FOOTPRINTS
                        + " in the repository)."},
                {"lab.footprint.name", "The experiment's folder name: give an existing one to resume it, measuring only what it lacks (default: "
                        + "footprint-<timestamp>)."},
                {"lab.sweep.ramp-seconds", "Ramp (default: %d; quick: %d).".formatted(d.rampSeconds, q.rampSeconds)},
                {"lab.sweep.requests-per-user", "Requests per user (default: %d; quick: %d; --repeats is the runs of each point)."
                        .formatted(d.repeat, q.repeat)},
                {"lab.sweep.think-min-ms", "Think time, min (default: %d).".formatted(Preset.THINK_MIN_MS)},
                {"lab.sweep.think-max-ms", "Think time, max (default: %d).".formatted(Preset.THINK_MAX_MS)},
                {"lab.sweep.connections", "auto, per-user or shared (default: %s).".formatted(dev.latencylab.lab.sweep.SweepPlan.PerRun.CONNECTIONS)},
                {"lab.sweep.rates", "Open-model points beside the user counts: arrivals per second, each held --level-seconds (default: none)."},
                {"lab.sweep.level-seconds",
                        "How long each open point holds its rate (default: %d).".formatted(dev.latencylab.lab.sweep.SweepPlan.Levels.LEVEL_SECONDS)},
                {"lab.run.ramp-seconds", runs(SimulationSettings.RAMP_SECONDS)},
                {"lab.run.requests-per-user", runs(SimulationSettings.REPEAT)},
                {"lab.run.think-min-ms", runs(SimulationSettings.THINK_MIN_MS)},
                {"lab.run.think-max-ms", runs(SimulationSettings.THINK_MAX_MS)},
                {"lab.run.connections", runs(SimulationSettings.CONNECTIONS)},
                {"lab.run.rates", "An open run: arrivals per second, whether the server keeps up or not; several (100,200,400) make a "
                        + "ladder of levels (sim.rate with sim.injection=open)."},
                {"lab.run.level-seconds", runs(SimulationSettings.LEVEL_SECONDS)},
                {"sweep.default.shape", "%d targets x %s users".formatted(d.targets.size(), range(d.users))},
                {"sweep.quick.shape", "%s x %s users".formatted(words(q.targets), range(q.users))},
                {"sweep.default.targets", String.join(",", d.targets)},
                {"sweep.default.users", joined(d.users)},
                {"sweep.quick.users", joined(q.users)},
                {"sweep.latencies", joined(Preset.LATENCIES_MS)},
                {"sweep.default.ramp", String.valueOf(d.rampSeconds)},
                {"sweep.quick.ramp", String.valueOf(q.rampSeconds)},
                {"sweep.default.requests", String.valueOf(d.repeat)},
                {"sweep.quick.requests", String.valueOf(q.repeat)},
                {"sweep.think.min", String.valueOf(Preset.THINK_MIN_MS)},
                {"sweep.think.max", String.valueOf(Preset.THINK_MAX_MS)},
                {"sweep.default.warmup", String.valueOf(d.warmupSeconds)},
                {"sweep.quick.warmup", String.valueOf(q.warmupSeconds)},
        };
    }

    /** A run's option, in the words of the property it sets (the simulation's one catalogue), its default and its name. */
    private static String runs(String property) {
        SimulationProperties.Property p = SimulationProperties.PROPERTIES.stream().filter(q -> q.name().equals(property)).findFirst().orElseThrow();
        String meaning = p.meaning().substring(0, 1).toUpperCase(java.util.Locale.ROOT) + p.meaning().substring(1);
        return "%s (default: %s; %s).".formatted(meaning, p.defaultValue(), p.name());
    }

    private static String joined(List<? extends Number> values) {
        return values.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    /** 1,000-20,000: the first and last of a preset's loads. */
    private static String range(List<Integer> users) {
        return "%,d-%,d".formatted(users.getFirst(), users.getLast());
    }

    /** mvc-t20, mvc-virtual and webflux */
    private static String words(List<String> targets) {
        return String.join(", ", targets.subList(0, targets.size() - 1)) + " and " + targets.getLast();
    }
}
