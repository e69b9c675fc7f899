package dev.latencylab.lab.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import dev.latencylab.lab.footprint.Footprint;
import dev.latencylab.lab.layout.FolderLock;
import dev.latencylab.lab.layout.Folders;
import dev.latencylab.lab.layout.FootprintFolder;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.layout.SearchFolder;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.page.CapacityReport;
import dev.latencylab.lab.page.SweepPage;
import dev.latencylab.lab.page.FootprintPage;
import dev.latencylab.lab.page.RunPage;
import dev.latencylab.lab.page.RunsPage;
import dev.latencylab.lab.page.Verdict;
import dev.latencylab.lab.summary.ResultsTable;
import dev.latencylab.lab.sweep.Sweep;
import dev.latencylab.lab.flow.ExitCode;

@Command(name = "report", mixinStandardHelpOptions = true, description = {
        "Rebuild a page from its data, whatever made it. A sweep folder: summary.csv, runs.csv, charts and index.html, or "
                + "its Markdown table (--markdown) or verdict (--verdict).",
        "With several sweep folders (e.g. from two machines) and --out, build one page that shows them side by side.",
        "Given a run's folder (./lab run's, or one holding a merged result.json), rebuild its page, result.html;",
        "given several and --out, build one page that shows them side by side.",
        "Capacity searches (folders with capacity.json): check each against its result files, print their verdict and "
                + "table, draw them on one chart in --out (default: the parent of the first).",
        "A footprint experiment (a folder with footprint.json): its page and measurements.csv again, or its verdict (--verdict)."})
final class ReportCommand implements Callable<Integer> {

    @CommandLine.Mixin
    Console console;

    @Parameters(paramLabel = "DIR", arity = "1..*", description = "A sweep's folder, e.g. results/20261122-010000; a run's, e.g. "
            + "results/runs/run-mvc-t200-20261122-010000; capacity searches'; or a footprint experiment's.")
    List<Path> dirs;

    @Option(names = "--markdown", description = "Print README's results table of the sweep (from its runs' records) instead.")
    boolean markdown;

    @Option(names = "--verdict", description = "Print the sweep's verdict in Markdown instead: what bounded each target at "
            + "each load, from its points (the page opens with the same).")
    boolean verdict;

    @Option(names = "--out", description = "Folder of the page of several sweeps or runs (needed with more than one), or of the "
            + "chart of capacity searches.")
    Path out;

    @Override
    public Integer call() {
        // another command's folder, under way or left by a killed one, is not read: its files may be half-written
        dirs.forEach(FolderLock::refuseIfLocked);
        List<Path> searches = dirs.stream().filter(d -> Files.isRegularFile(new SearchFolder(d).capacityFile())).toList();
        if (!searches.isEmpty()) {
            return searches(searches);
        }
        if (dirs.size() == 1 && Files.isRegularFile(new FootprintFolder(dirs.get(0)).footprintFile())) {
            return footprint(dirs.get(0));
        }
        List<SweepFolder> sweeps = dirs.stream().map(SweepFolder::new).toList();
        if (markdown && verdict) {
            throw new IllegalArgumentException("--markdown and --verdict: give one (each prints a text of one sweep)");
        }
        String printing = markdown ? "--markdown prints the table of one sweep" : verdict ? "--verdict prints the verdict of one sweep" : null;
        if (sweeps.size() == 1 && !sweeps.get(0).exists() && Files.isRegularFile(new RunFolder(dirs.get(0)).resultFile()) && printing == null
                && out == null) {
            Path resultFile = new RunFolder(dirs.get(0)).resultFile();
            console.out().println("Run page: " + RunPage.write(resultFile).toAbsolutePath());
            // the verdict its file keeps, as judged when it ran (./lab run --slo): said, not judged again
            dev.latencylab.load.result.SloVerdict slo = dev.latencylab.load.result.ResultFile.read(resultFile).slo();
            if (slo != null) {
                console.out().println("SLO " + RunPage.slo(slo));
            }
            return 0;
        }
        List<Path> runs = dirs.stream().filter(d -> !new SweepFolder(d).exists() && Files.isRegularFile(new RunFolder(d).resultFile())).toList();
        if (!runs.isEmpty() && runs.size() < dirs.size()) {
            throw new IllegalArgumentException("%s is a run's folder and %s a sweep's: give runs, or sweeps, to put side by side"
                    .formatted(runs.get(0), dirs.stream().filter(d -> !runs.contains(d)).findFirst().orElseThrow()));
        }
        if (runs.size() > 1) {
            return runs(runs, printing);
        }
        for (SweepFolder sweep : sweeps) {
            if (!sweep.exists()) {
                throw new IllegalArgumentException(sweep.dir() + " is not a sweep folder (it has no points/ and no summary.csv), a "
                        + "run's (no result.json), a capacity search's (no capacity.json) nor a footprint's (no footprint.json); give "
                        + "one that ./lab made, e.g. results/<name>");
            }
        }
        return sweeps.size() > 1 || out != null ? sideBySide(sweeps, printing) : sweep(sweeps.get(0));
    }

    /** Several runs on one page, in --out. */
    private Integer runs(List<Path> runs, String printing) {
        if (out == null || printing != null) {
            throw new IllegalArgumentException(printing != null ? printing + "; give one SWEEP_DIR"
                    : "%d runs: give --out DIR, the folder of the page that shows them side by side".formatted(runs.size()));
        }
        if (runs.stream().anyMatch(r -> r.toAbsolutePath().normalize().equals(out.toAbsolutePath().normalize()))) {
            throw new IllegalArgumentException("--out " + out + " is one of the runs; give a folder of its own");
        }
        Folders.pageFolder("--out", out);
        console.out().println("Runs page: " + RunsPage.write(runs.stream().map(RunFolder::new).toList(), out).toAbsolutePath());
        return 0;
    }

    /** Sweeps side by side (or one sweep's page elsewhere), in --out. */
    private Integer sideBySide(List<SweepFolder> sweeps, String printing) {
        if (out == null || printing != null) {
            throw new IllegalArgumentException(printing != null ? printing + "; give one SWEEP_DIR"
                    : "%d sweeps: give --out DIR, the folder of the page that shows them side by side".formatted(sweeps.size()));
        }
        SweepFolder page = new SweepFolder(out);
        if (sweeps.stream().anyMatch(s -> s.dir().toAbsolutePath().normalize().equals(out.toAbsolutePath().normalize()))) {
            throw new IllegalArgumentException("--out " + out + " is one of the sweeps; give a folder of its own");
        }
        Folders.pageFolder("--out", out);
        SweepPage.write(sweeps, page);
        console.out().println("Comparison page: " + page.page().toAbsolutePath());
        return 0;
    }

    /** One sweep: its page and CSV files written again in its folder, or its table or verdict printed. */
    private Integer sweep(SweepFolder sweep) {
        if ((markdown || verdict) && !Files.isDirectory(sweep.points())) {
            throw new IllegalArgumentException("%s has no points/: %s is made from the runs' records there (summary.csv alone is not enough)"
                    .formatted(sweep.dir(), markdown ? "--markdown's table" : "--verdict"));
        }
        if (markdown) {
            console.out().print(ResultsTable.markdown(Sweep.points(sweep)));
            return 0;
        }
        if (verdict) {
            console.out().print(Verdict.markdown(sweep));
            return 0;
        }
        SweepPage.write(sweep);
        console.out().println("Comparison page: " + sweep.page().toAbsolutePath());
        // each point's verdict as its runs' files keep it, judged when they ran: said, not judged again
        Sweep.points(sweep).stream().filter(p -> p.notes().slo() != null)
                .forEach(p -> console.out().println("SLO %s: %s".formatted(p.identity().point(), p.notes().slo())));
        return 0;
    }

    /**
     * Capacity searches: each checked against its result files (refused, naming the file and the field, when it does
     * not add up), their verdict and table printed, their chart drawn in --out, never in a search's own folder.
     */
    private Integer searches(List<Path> searches) {
        if (searches.size() < dirs.size()) {
            throw new IllegalArgumentException("%s is a capacity search and %s is not: give searches alone".formatted(searches.get(0),
                    dirs.stream().filter(d -> !searches.contains(d)).findFirst().orElseThrow()));
        }
        if (markdown || verdict) {
            throw new IllegalArgumentException("--markdown and --verdict are a sweep's; a capacity search's verdict and table are printed anyway");
        }
        console.out().print(CapacityReport.report(searches, out));
        return ExitCode.OK;
    }

    /** A footprint experiment: its page and measurements.csv again from footprint.json, or its verdict in Markdown. */
    private Integer footprint(Path dir) {
        if (markdown || out != null) {
            throw new IllegalArgumentException("--markdown and --out are a sweep's; a footprint gives its page, or its verdict (--verdict)");
        }
        return footprint(dir, verdict, console);
    }

    /** A footprint experiment's page and measurements.csv again, or its verdict printed; as footprint --report did. */
    static int footprint(Path dir, boolean verdict, Console console) {
        Footprint f = Footprint.read(dir);
        if (verdict) {
            console.out().print(FootprintPage.markdown(f));
        }
        else {
            f.writeTable(new FootprintFolder(dir));
            console.out().println("Footprint page: " + FootprintPage.write(f, new FootprintFolder(dir)));
        }
        return ExitCode.OK;
    }
}
