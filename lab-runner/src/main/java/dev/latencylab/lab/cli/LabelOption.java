package dev.latencylab.lab.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

import picocli.CommandLine.Option;

import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.sweep.Sweep;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;

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

    /** Each run of the sweep that started since this command did and has no label yet, labelled: the runs this command ran. */
    void writeSince(SweepFolder sweep, Instant since) {
        if (label == null) {
            return;
        }
        for (var row : Sweep.rows(sweep)) {
            Path file = sweep.point(row.identity().point()).resultFile();
            if (Files.isRegularFile(file)) {
                Result r = ResultFile.read(file);
                if (r.label() == null && !Instant.parse(r.start()).isBefore(since)) {
                    ResultFile.write(r.withLabel(label), file);
                }
            }
        }
    }
}
