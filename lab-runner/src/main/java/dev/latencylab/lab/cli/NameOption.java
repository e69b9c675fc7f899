package dev.latencylab.lab.cli;

import picocli.CommandLine.Option;

/**
 * The name of a command's own folder under --results, declared once for sweep, capacity and footprint. Whether a name
 * that exists is resumed differs by command, so its help is each command's own (SharedOptions).
 */
final class NameOption {

    @Option(names = "--name", description = "This command's folder name under --results (default: made from a timestamp).")
    String name;

    /** The name given, checked as a folder's name; null when none was given. */
    String checked() {
        if (name != null) {
            Inputs.folderName("--name", name);
        }
        return name;
    }
}
