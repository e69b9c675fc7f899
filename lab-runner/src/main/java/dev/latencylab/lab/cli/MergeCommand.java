package dev.latencylab.lab.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.load.merge.ResultMerge;
import dev.latencylab.lab.page.RunPage;
import dev.latencylab.lab.layout.Folders;
import dev.latencylab.lab.flow.ExitCode;

@Command(name = "merge", mixinStandardHelpOptions = true, description = {
        "Merge the result files of the K injectors of one run (sim.injectors=K, e.g. copied from K machines) into one "
                + "result.json of the same schema: histograms added exactly, per-second series aligned on wall-clock seconds "
                + "and summed, KO summed by reason, each injector's counts, CPU and open files kept in its parts.",
        "Refused, writing nothing: files of different runs or settings, an injector missing or given twice, starts more "
                + "than 5 s apart.",
        "In the folder --out names: result.json, its page (result.html, with result-per-second.png), the merged run's own "
                + "page; ./lab report DIR rebuilds the page."})
final class MergeCommand implements Callable<Integer> {

    @CommandLine.Mixin
    Console console;

    @Parameters(paramLabel = "RESULT", arity = "1..*", description = "A result file, or a folder holding result.json (e.g. injector-0).")
    List<Path> inputs;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "The merged run's folder, as every command's --out is "
            + "a folder (made if missing; one that holds a result.json is refused: merge never overwrites).")
    Path out;

    @Override
    public Integer call() {
        List<Path> files = new ArrayList<>();
        for (Path input : inputs) {
            Path f = Files.isDirectory(input) ? input.resolve(ResultFile.NAME) : input;
            if (!Files.isRegularFile(f)) {
                throw new IllegalArgumentException("%s: no such result file%s".formatted(f,
                        Files.isDirectory(input) ? " in that folder (is it an injector's run folder?)" : ""));
            }
            files.add(f);
        }
        Path file = mergedFile(out);
        for (Path written : List.of(file, RunPage.of(file), RunPage.chartOf(file))) {
            if (Files.exists(written)) {
                throw new IllegalArgumentException("--out %s: %s exists; give another folder (merge never overwrites)".formatted(out, written));
            }
        }
        Result merged = ResultMerge.merge(files, file.toAbsolutePath().getParent());
        Folders.writableFolder("--out", file.toAbsolutePath().getParent()); // made once the files are known to merge
        try {
            ResultFile.writeNew(merged, file); // exclusive: of two merges to one --out, one writes and the other stops here
        }
        catch (java.io.UncheckedIOException e) {
            if (e.getCause() instanceof java.nio.file.FileAlreadyExistsException) {
                throw new IllegalArgumentException("--out %s: written by another command meanwhile; nothing written (merge never overwrites)"
                        .formatted(out));
            }
            throw e;
        }
        // the result first: a page that cannot be drawn (e.g. no fonts) leaves the merged file said
        console.out().printf("Merged %d injectors: %s, %,d KO; p99 %s ms%n", merged.parts().size(), ResultMerge.requestCounts(merged),
                merged.requests().ko(), merged.responseTimeMs().p99());
        merged.problems().forEach(p -> console.err().println("latency-lab: PROBLEM: " + p));
        console.out().println("Result file: " + file.toAbsolutePath());
        console.out().println("Run page: " + RunPage.write(file).toAbsolutePath());
        return merged.problems().isEmpty() ? ExitCode.OK : ExitCode.FAILED;
    }

    /** The merged result file: DIR/result.json. */
    private static Path mergedFile(Path out) {
        if (out.getFileName() != null && out.getFileName().toString().endsWith(".json")) {
            throw new IllegalArgumentException("--out %s: give the merged run's folder; its result.json is written there".formatted(out));
        }
        return out.resolve(ResultFile.NAME);
    }
}
