package dev.latencylab.lab.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import dev.latencylab.load.Result;
import dev.latencylab.load.ResultFile;
import dev.latencylab.load.ResultMerge;
import dev.latencylab.lab.page.RunPage;
import dev.latencylab.lab.layout.Folders;

@Command(name = "merge", mixinStandardHelpOptions = true, description = {
        "Merge the result files of the K injectors of one run (sim.injectors=K, e.g. copied from K machines) into one "
                + "result.json of the same schema: histograms added exactly, per-second series aligned on wall-clock seconds "
                + "and summed, KO summed by reason, each injector's counts, CPU and open files kept in its parts.",
        "Refused, writing nothing: files of different runs or settings, an injector missing or given twice, starts more "
                + "than 5 s apart.",
        "Beside the merged file: its page (FILE.html, with FILE-per-second.png), the merged run's own page."})
final class MergeCommand implements Callable<Integer> {

    @Parameters(paramLabel = "RESULT", arity = "1..*", description = "A result file, or a folder holding result.json (e.g. injector-0).")
    List<Path> inputs;

    @Option(names = "--out", required = true, description = "The merged result file to write (not one that exists).")
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
        for (Path written : List.of(out, RunPage.of(out), RunPage.chartOf(out))) {
            if (Files.exists(written)) {
                throw new IllegalArgumentException("--out %s: %s exists; give a new file (merge never overwrites)".formatted(out, written));
            }
        }
        Path folder = Folders.writableFolder("--out", out.toAbsolutePath().getParent());
        Result merged = ResultMerge.merge(files, folder);
        try {
            ResultFile.writeNew(merged, out); // exclusive: of two merges to one --out, one writes and the other stops here
        }
        catch (java.io.UncheckedIOException e) {
            if (e.getCause() instanceof java.nio.file.FileAlreadyExistsException) {
                throw new IllegalArgumentException("--out %s: written by another command meanwhile; nothing written (merge never overwrites)"
                        .formatted(out));
            }
            throw e;
        }
        // the result first: a page that cannot be drawn (e.g. no fonts) leaves the merged file said
        System.out.printf("Merged %d injectors: %s, %,d KO; p99 %s ms%n", merged.parts().size(), ResultMerge.requestCounts(merged),
                merged.requests().ko(), merged.responseTimeMs().p99());
        merged.problems().forEach(p -> System.err.println("latency-lab: PROBLEM: " + p));
        System.out.println("Result file: " + out.toAbsolutePath());
        System.out.println("Run page: " + RunPage.write(out).toAbsolutePath());
        return merged.problems().isEmpty() ? LatencyLab.OK : LatencyLab.FAILED;
    }
}
