package dev.latencylab.lab.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import dev.latencylab.lab.docs.Published;
import dev.latencylab.lab.layout.Folders;
import dev.latencylab.lab.flow.ExitCode;

@Command(name = "rebuild-docs", mixinStandardHelpOptions = true, description = {
        "Rebuild every published page, table and chart from its data: the sweeps under docs/ (summary.csv, runs.csv, "
                + "charts, index.html), the side-by-side page, the split runs' pages, the capacity searches and their chart, "
                + "and the tables in README.md and docs/*.md between their markers.",
        "With --check, rebuild a copy instead and list the files that came out different (exit 1), changing nothing."})
final class RebuildDocsCommand implements Callable<Integer> {

    @CommandLine.Mixin
    Console console;

    @CommandLine.ParentCommand
    LatencyLab lab;

    @Option(names = "--check", description = "Compare instead of writing: exit 0 when every published file is what its data gives.")
    boolean check;

    @Override
    public Integer call() throws IOException {
        Path repo = lab.repo.toAbsolutePath().normalize();
        if (!check) {
            List<Path> written = Published.rebuild(repo, OptionsReference::markdown);
            console.out().printf("latency-lab: rebuilt %d published files from their data (git diff shows what changed)%n", written.size());
            return ExitCode.OK;
        }
        Path scratch = Files.createTempDirectory("latency-lab-docs");
        try {
            List<String> differ;
            try {
                differ = Published.check(repo, scratch, OptionsReference::markdown);
            }
            catch (IllegalArgumentException e) {
                // a published file that does not add up, read from the copy: named where the user can open it
                throw new IllegalArgumentException(e.getMessage().replace(scratch.toString(), repo.toString()), e);
            }
            if (differ.isEmpty()) {
                console.out().println("latency-lab: every published page, table and chart is what its data gives");
                return ExitCode.OK;
            }
            differ.forEach(f -> console.out().println("latency-lab: differs from what its data gives: " + f));
            console.out().printf("latency-lab: %d published files differ; ./lab rebuild-docs writes them again%n", differ.size());
            return ExitCode.FAILED;
        }
        finally {
            Folders.deleteTree(scratch);
        }
    }
}
