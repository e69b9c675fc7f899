package dev.latencylab.lab.cli;

import java.nio.file.Path;

import picocli.CommandLine.Option;

import dev.latencylab.lab.run.GatlingLauncher;

/** How Gatling is started: with its HTML report, or without where no one reads it. */
final class GatlingOptions {

    @Option(names = "--no-gatling-report", description = "Skip Gatling's HTML report of each run (the result file and the "
            + "lab's pages are still written): saves its seconds and its disk.")
    boolean skipReport;

    /** One Gatling process per run (capacity's ladders). */
    GatlingLauncher launcher(Path repo) {
        return new GatlingLauncher(repo, !skipReport, GatlingLauncher.INJECTOR_LEAD);
    }

    /** One or several per run, as the injector options say. */
    GatlingLauncher launcher(Path repo, InjectorOptions injectors) {
        return new GatlingLauncher(repo, !skipReport, injectors.lead());
    }
}
