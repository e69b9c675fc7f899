package dev.latencylab.lab.cli;

import java.time.Duration;

import picocli.CommandLine.Option;

import dev.latencylab.lab.run.GatlingLauncher;

/** Several Gatling processes for each run (./lab run, a sweep's points): how many, and how far ahead they start together. */
final class InjectorOptions {

    @Option(names = "--injectors", defaultValue = "1", description = "Gatling processes that share each run's users (or each rate), "
            + "each with its own folder (injector-<i>/), started together; their results merged into the run's result.json "
            + "(default: ${DEFAULT-VALUE}).")
    int injectors;

    @Option(names = "--injector-lead-seconds", description = "With --injectors K: how long after the K Gatling JVMs are "
            + "started (beside the warm-up) their common start is (default: 10).")
    Integer injectorLeadSeconds;

    /** The injectors asked for, checked against what this machine holds. */
    int injectors() {
        return Inputs.injectors(injectors);
    }

    Duration lead() {
        return Duration.ofSeconds(Inputs.seconds("--injector-lead-seconds", injectorLeadSeconds == null
                ? (int) GatlingLauncher.INJECTOR_LEAD.toSeconds() : injectorLeadSeconds));
    }
}
