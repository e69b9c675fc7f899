package dev.latencylab.lab.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import dev.latencylab.lab.history.ChangeGate;
import dev.latencylab.lab.history.ChangePoints;
import dev.latencylab.lab.history.History;
import dev.latencylab.lab.history.HistoryLines;
import dev.latencylab.lab.history.HistoryRuns;
import dev.latencylab.lab.format.JUnitXml;
import dev.latencylab.lab.layout.OutputFile;
import dev.latencylab.lab.layout.ResultsFolders;
import dev.latencylab.lab.page.HistoryPage;
import dev.latencylab.lab.flow.ExitCode;

@Command(name = "history", mixinStandardHelpOptions = true, description = {
        "Did it get worse over time? The runs of each point (one target or service, the same settings) in the order they ran, "
                + "and for each metric (goodput, p50, p95, p99, ko, server-cpu) its change points, found by Apache Otava's method "
                + "(E-divisive means in windows of 50 runs, a t-test at p 0.001, changes of " + ChangePoints.MIN_CHANGE_PERCENT
                + "%% or more): when it changed, from what to what, and whether "
                + "the machine changed there (another processor, its speed, its background load).",
        "RUNS: run folders, sweeps, or folders of them (default: the runs of ./lab run, results/runs)."})
final class HistoryCommand implements Callable<Integer> {

    @CommandLine.Mixin
    Console console;

    @CommandLine.ParentCommand
    LatencyLab lab;

    @Parameters(paramLabel = "RUNS", arity = "0..*", description = "Run folders, result files, sweeps, or folders of them.")
    List<Path> given = List.of();

    @Option(names = "--fail-on-change", paramLabel = "METRIC[:PERCENT]", split = ",",
            description = "Exit 3 when the newest change point of METRIC is for the worse by more than PERCENT of the mean before "
                    + "it (default 0: any), at any point, unless the machine changed there the way that explains it (slower, busier; "
                    + "a faster machine excuses nothing for the worse); exit 4 when it cannot judge: fewer than "
                    + History.SIDE_RUNS + " runs on each side, or the newest runs differ for the worse and are too few to call it a change "
                    + "(e.g. p99:10,goodput:5).")
    List<String> failOnChange = List.of();

    @Option(names = "--out", paramLabel = "DIR", description = "Also write the history as a page, DIR/index.html, with a chart per "
            + "metric (each run, the means between change points, the change points) and its runs linked.")
    Path out;

    @Option(names = "--junit", paramLabel = "FILE.xml", description = "With --fail-on-change: also write each gate's verdict at each "
            + "point as JUnit XML, as CI tools read test results: a change for the worse a failure, one it cannot judge an error.")
    Path junit;

    @Option(names = "--min-change", paramLabel = "PERCENT", defaultValue = "" + ChangePoints.MIN_CHANGE_PERCENT,
            description = "The least change reported, in percent of the mean before it (Otava's magnitude; default: "
                    + ChangePoints.MIN_CHANGE_PERCENT + "). Below it, a change point is dropped however significant: percentiles "
                    + "are whole milliseconds, and two runs alike on each side give a t-test without spread, significant by construction.")
    double minChange;

    /** The suite's name in the JUnit file, and how the file starts: one that does not is not history's, and is never replaced. */
    private static final String SUITE = "latency-lab history";
    private static final String JUNIT_START = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"" + SUITE + "\"";

    @Override
    public Integer call() {
        if (!(minChange >= 0)) {
            throw new IllegalArgumentException("--min-change %s: give a percentage of 0 or more (0: every significant change)".formatted(minChange));
        }
        List<ChangeGate> gates = failOnChange.stream().map(ChangeGate::parse).toList();
        if (out != null) {
            HistoryPage.writable(out); // refused before anything is read or printed
        }
        if (junit != null) {
            if (gates.isEmpty()) {
                throw new IllegalArgumentException("--junit %s: it writes the gates' verdicts; give --fail-on-change METRIC[:PERCENT] too".formatted(junit));
            }
            OutputFile.ownFile("--junit", junit, ".xml", JUNIT_START);
        }
        List<Path> paths = given.isEmpty() ? List.of(lab.repo.resolve(ResultsFolders.RUNS)) : given;
        HistoryRuns runs = HistoryRuns.under(paths);
        runs.leftOut().forEach(l -> console.out().println("latency-lab: left out: " + l));
        List<ChangeGate.Verdict> verdicts = new ArrayList<>();
        List<JUnitXml.Case> cases = new ArrayList<>();
        List<History> histories = new ArrayList<>();
        ChangePoints method = new ChangePoints(ChangePoints.LAB.windowLength(), ChangePoints.LAB.maxPValue(), minChange / 100);
        for (History h : History.of(runs.runs(), method)) {
            histories.add(h);
            HistoryLines.of(h).forEach(l -> console.out().println("latency-lab: " + l));
            for (int i = 0; i < gates.size(); i++) {
                ChangeGate.Verdict v = gates.get(i).judge(h);
                verdicts.add(v);
                cases.add(new JUnitXml.Case(h.point(), failOnChange.get(i).strip(), switch (v.call()) {
                    case PASS -> JUnitXml.Outcome.PASSED;
                    case WORSE -> JUnitXml.Outcome.FAILED;
                    case CANNOT_JUDGE -> JUnitXml.Outcome.CANNOT_JUDGE;
                }, v.line() != null ? v.line() : "%s of %s: no change point for the worse%s".formatted(gates.get(i).metric().id(), h.point(),
                        gates.get(i).share() == 0 ? "" : " beyond " + failOnChange.get(i).strip().substring(failOnChange.get(i).strip().indexOf(':') + 1)
                                + "%")));
            }
        }
        if (out != null) {
            console.out().println("History page: " + HistoryPage.write(histories, out.toAbsolutePath()));
        }
        if (junit != null) {
            OutputFile.text(junit, JUnitXml.of(SUITE, cases));
            console.out().println("JUnit file: " + junit.toAbsolutePath());
        }
        verdicts.stream().filter(v -> v.call() == ChangeGate.Call.PASS && v.line() != null)
                .forEach(v -> console.out().println("latency-lab: excused: " + v.line()));
        verdicts.stream().filter(v -> v.call() == ChangeGate.Call.WORSE).forEach(v -> console.err().println("latency-lab: WORSE: " + v.line()));
        verdicts.stream().filter(v -> v.call() == ChangeGate.Call.CANNOT_JUDGE)
                .forEach(v -> console.err().println("latency-lab: CANNOT JUDGE: " + v.line()));
        if (verdicts.stream().anyMatch(v -> v.call() == ChangeGate.Call.WORSE)) {
            return ExitCode.WORSE;
        }
        // a gate that cannot judge is never a pass
        return verdicts.stream().anyMatch(v -> v.call() == ChangeGate.Call.CANNOT_JUDGE) ? ExitCode.CANNOT_JUDGE : ExitCode.OK;
    }
}
