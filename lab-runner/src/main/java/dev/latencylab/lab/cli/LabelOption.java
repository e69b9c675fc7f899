package dev.latencylab.lab.cli;

import picocli.CommandLine.Option;

/** --label: what a run is told apart by in ./lab history (a commit, a version), kept in its result file. */
final class LabelOption {

    @Option(names = "--label", paramLabel = "TEXT", description = "What the run is told apart by in ./lab history, kept in its result "
            + "file: a commit, a version (e.g. --label $(git rev-parse --short HEAD)).")
    String label;

    /** Refuses a label that is not one short line, before anything runs. */
    void check() {
        if (label != null && (label.isBlank() || label.length() > 200 || label.chars().anyMatch(Character::isISOControl))) {
            throw new IllegalArgumentException("--label %s: give one line of text, up to 200 characters (a commit, a version)".formatted(
                    label.chars().anyMatch(Character::isISOControl) ? "(with a control character)" : "'" + label + "'"));
        }
    }
}
