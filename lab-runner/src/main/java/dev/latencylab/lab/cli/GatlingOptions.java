package dev.latencylab.lab.cli;

import java.nio.file.Path;
import java.time.Duration;

import picocli.CommandLine.Option;

import dev.latencylab.lab.run.GatlingLauncher;

/** How Gatling is started: its HTML report (skipped where no one reads it), the lead of a split run's common start. */
final class GatlingOptions {

    @Option(names = "--no-gatling-report", description = "Skip Gatling's HTML report of each run (the result file and the "
            + "lab's pages are still written): saves its seconds and its disk.")
    boolean skipReport;

    @Option(names = "--injector-lead-seconds", description = "With --injectors K: how long after the K Gatling JVMs are "
            + "started (beside the warm-up) their common start is (default: 10).")
    Integer injectorLeadSeconds;

    GatlingLauncher launcher(Path repo) {
        int lead = Inputs.seconds("--injector-lead-seconds", injectorLeadSeconds == null ? (int) GatlingLauncher.INJECTOR_LEAD.toSeconds()
                : injectorLeadSeconds);
        return new GatlingLauncher(repo, !skipReport, Duration.ofSeconds(lead));
    }
}
