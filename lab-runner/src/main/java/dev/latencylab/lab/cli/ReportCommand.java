package dev.latencylab.lab.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import dev.latencylab.lab.layout.FolderLock;
import dev.latencylab.lab.layout.Folders;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.page.ComparisonPage;
import dev.latencylab.lab.page.RunPage;
import dev.latencylab.lab.page.RunsPage;
import dev.latencylab.lab.page.Verdict;
import dev.latencylab.lab.summary.ResultsTable;
import dev.latencylab.lab.sweep.Sweep;

@Command(name = "report", mixinStandardHelpOptions = true, description = {
        "Rebuild summary.csv, runs.csv, charts and index.html of a sweep folder, or print its Markdown table.",
        "With several sweep folders (e.g. from two machines) and --out, build one page that shows them side by side.",
        "Given a run's folder (./lab run's, or one holding a merged result.json), rebuild its page, result.html;",
        "given several and --out, build one page that shows them side by side."})
final class ReportCommand implements Callable<Integer> {

    @Parameters(paramLabel = "SWEEP_DIR", arity = "1..*", description = "e.g. results/20261122-010000, or a run's folder, e.g. results/runs/run-mvc-t200-20261122-010000")
    List<Path> dirs;

    @Option(names = "--markdown", description = "Print README's results table of the sweep (from its runs' records) instead.")
    boolean markdown;

    @Option(names = "--verdict", description = "Print the sweep's verdict in Markdown instead: what bounded each target at "
            + "each load, from its points (the page opens with the same).")
    boolean verdict;

    @Option(names = "--out", description = "Folder of the page of several sweeps or runs (needed with more than one).")
    Path out;

    @Override
    public Integer call() {
        // another command's folder, under way or left by a killed one, is not read: its files may be half-written
        dirs.forEach(FolderLock::refuseIfLocked);
        List<SweepFolder> sweeps = dirs.stream().map(SweepFolder::new).toList();
        if (markdown && verdict) {
            throw new IllegalArgumentException("--markdown and --verdict: give one (each prints a text of one sweep)");
        }
        String printing = markdown ? "--markdown prints the table of one sweep" : verdict ? "--verdict prints the verdict of one sweep" : null;
        if (sweeps.size() == 1 && !sweeps.get(0).exists() && Files.isRegularFile(new RunFolder(dirs.get(0)).resultFile()) && printing == null
                && out == null) {
            System.out.println("Run page: " + RunPage.write(new RunFolder(dirs.get(0)).resultFile()).toAbsolutePath());
            return 0;
        }
        List<Path> runs = dirs.stream().filter(d -> !new SweepFolder(d).exists() && Files.isRegularFile(new RunFolder(d).resultFile())).toList();
        if (!runs.isEmpty() && runs.size() < dirs.size()) {
            throw new IllegalArgumentException("%s is a run's folder and %s a sweep's: give runs, or sweeps, to put side by side"
                    .formatted(runs.get(0), dirs.stream().filter(d -> !runs.contains(d)).findFirst().orElseThrow()));
        }
        if (runs.size() > 1) {
            if (out == null || printing != null) {
                throw new IllegalArgumentException(printing != null ? printing + "; give one SWEEP_DIR"
                        : "%d runs: give --out DIR, the folder of the page that shows them side by side".formatted(runs.size()));
            }
            if (runs.stream().anyMatch(r -> r.toAbsolutePath().normalize().equals(out.toAbsolutePath().normalize()))) {
                throw new IllegalArgumentException("--out " + out + " is one of the runs; give a folder of its own");
            }
            Folders.pageFolder("--out", out);
            System.out.println("Runs page: " + RunsPage.write(runs.stream().map(RunFolder::new).toList(), out).toAbsolutePath());
            return 0;
        }
        for (SweepFolder sweep : sweeps) {
            if (!sweep.exists()) {
                throw new IllegalArgumentException(sweep.dir() + " is not a sweep folder (it has no points/ and no summary.csv) nor a "
                        + "run's (no result.json); give one that ./lab sweep made, e.g. results/<name>, or a run's folder");
            }
        }
        if (sweeps.size() > 1 || out != null) {
            if (out == null || printing != null) {
                throw new IllegalArgumentException(printing != null ? printing + "; give one SWEEP_DIR"
                        : "%d sweeps: give --out DIR, the folder of the page that shows them side by side".formatted(sweeps.size()));
            }
            SweepFolder page = new SweepFolder(out);
            if (sweeps.stream().anyMatch(s -> s.dir().toAbsolutePath().normalize().equals(out.toAbsolutePath().normalize()))) {
                throw new IllegalArgumentException("--out " + out + " is one of the sweeps; give a folder of its own");
            }
            Folders.pageFolder("--out", out);
            ComparisonPage.write(sweeps, page);
            System.out.println("Comparison page: " + page.page().toAbsolutePath());
            return 0;
        }
        SweepFolder sweep = sweeps.get(0);
        if ((markdown || verdict) && !Files.isDirectory(sweep.points())) {
            throw new IllegalArgumentException("%s has no points/: %s is made from the runs' records there (summary.csv alone is not enough)"
                    .formatted(sweep.dir(), markdown ? "--markdown's table" : "--verdict"));
        }
        if (markdown) {
            System.out.print(ResultsTable.markdown(Sweep.points(sweep)));
            return 0;
        }
        if (verdict) {
            System.out.print(Verdict.markdown(sweep));
            return 0;
        }
        ComparisonPage.write(sweep);
        System.out.println("Comparison page: " + sweep.page().toAbsolutePath());
        return 0;
    }
}
