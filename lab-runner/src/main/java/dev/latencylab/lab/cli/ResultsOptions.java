package dev.latencylab.lab.cli;

import java.nio.file.Path;

import picocli.CommandLine.Option;

import dev.latencylab.lab.layout.ResultsFolders;

/**
 * Where a command keeps what it measured, declared once for run, sweep, capacity and footprint: --results, the folder
 * of its folders. Its default differs by command, so its help is each command's own, in SharedOptions under
 * the command's name (picocli's qualified keys).
 */
final class ResultsOptions {

    @Option(names = "--results", description = "Folder of this command's folders (default: under the repository).")
    Path results;

    /** The folder that holds this command's folders: --results as given (from the current folder), else inRepo under repo. */
    Path holder(Path repo, String inRepo) {
        return ResultsFolders.holder(results, repo, inRepo);
    }
}
