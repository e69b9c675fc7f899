package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.lab.compare.Metric;
import dev.latencylab.lab.history.ChangePoints;
import dev.latencylab.lab.history.History;
import dev.latencylab.lab.history.HistoryRuns;
import dev.latencylab.lab.flow.ExitCode;

/**
 * The published proof of ./lab history (docs/results-history: the example service 12 times as it is, then 5 times
 * with its query 20% slower): in the data, every change point of every metric is at the run where the change was
 * made, the query's time (p50) among them, and none is among the runs before it; through the command line, the gate
 * exits 3 on the whole history and 0 on the runs before the change, and the page links each run.
 */
class HistoryIT {

    private static final Path PUBLISHED = Lab.repo().resolve("docs/results-history");

    @TempDir
    Path tmp;

    @Test
    void theChangeIsFoundWhereItWasMadeAndNoneBeforeIt() {
        List<History> all = History.of(HistoryRuns.under(List.of(PUBLISHED)).runs(), ChangePoints.LAB);
        assertThat(all).singleElement().satisfies(h -> {
            assertThat(h.point()).isEqualTo("example-l0-u100");
            assertThat(h.entries()).hasSize(17);
            assertThat(h.entries().subList(0, 12)).allSatisfy(e -> assertThat(e.folder().toString()).contains("/before/"));
            assertThat(h.entries().subList(12, 17)).allSatisfy(e -> assertThat(e.folder().toString()).contains("/after/"));
            assertThat(h.tracks()).allSatisfy(t -> assertThat(t.shifts()).as(t.metric().id()).allSatisfy(s -> assertThat(s.at()).isEqualTo(12)));
            History.Track p50 = h.tracks().stream().filter(t -> t.metric() == Metric.P50).findFirst().orElseThrow();
            assertThat(p50.shifts()).singleElement().satisfies(s -> {
                assertThat(s.worse()).isTrue();
                assertThat(s.machine()).as("the same machine on both sides").isNull();
                assertThat(s.relative()).as("a query 20% slower, in a response that is mostly the query").isBetween(0.1, 0.25);
            });
        });
        List<History> before = History.of(HistoryRuns.under(List.of(PUBLISHED.resolve("before"))).runs(), ChangePoints.LAB);
        assertThat(before).singleElement().satisfies(h -> assertThat(h.tracks()).allSatisfy(t -> assertThat(t.shifts()).as(t.metric().id()).isEmpty()));
    }

    @Test
    void theGateFailsOnTheChangedHistoryAndPassesTheUnchangedOne() {
        LabCommand.Finished changed = LabCommand.inThisJvm("history", PUBLISHED.toString(), "--fail-on-change", "p50:10",
                "--out", tmp.resolve("page").toString());
        assertThat(changed.exitCode()).as(changed.output()).isEqualTo(ExitCode.WORSE);
        assertThat(changed.output()).containsPattern("latency-lab: WORSE: p50 of example-l0-u100 got worse from run 13 of 17 \\(after/example-l0-u100-r1, "
                + "28 Nov 2026 [0-9:]+ UTC\\): [0-9.]+ -> [0-9.]+ ms \\(\\+[0-9.]+%, p [0-9.e-]+; runs 1-12 against 13-17\\)")
                .contains("History page: " + tmp.resolve("page/index.html"));
        assertThat(tmp.resolve("page/index.html")).content().contains("results-history/before/points/example-l0-u100-r1/result.json\"")
                .contains("results-history/after/points/example-l0-u100-r5/result.json\"").doesNotContain("unrecorded");

        LabCommand.Finished unchanged = LabCommand.inThisJvm("history", PUBLISHED.resolve("before").toString(),
                "--fail-on-change", "p50:10");
        assertThat(unchanged.exitCode()).as(unchanged.output()).isZero();
        assertThat(unchanged.output()).contains("latency-lab: history of example-l0-u100: 12 runs").contains("p50        no change point")
                .doesNotContain("WORSE");
    }

    /**
     * The gates as a CI reads test results (--junit), read back by Maven's own report parser: on the changed history
     * p50 beyond 10% a failure that names it, goodput a pass; on the first runs alone, too few to judge, an error.
     */
    @Test
    void theGatesAreWrittenAsJUnitXmlThatACiReads() throws Exception {
        Path file = tmp.resolve("gates.xml");
        LabCommand.Finished changed = LabCommand.inThisJvm("history", PUBLISHED.toString(), "--fail-on-change", "p50:10,goodput:5", "--junit",
                file.toString());
        assertThat(changed.exitCode()).as(changed.output()).isEqualTo(ExitCode.WORSE);
        assertThat(changed.output()).contains("JUnit file: " + file);
        org.apache.maven.plugins.surefire.report.ReportTestSuite suite = new org.apache.maven.plugins.surefire.report.TestSuiteXmlParser(
                new org.apache.maven.plugin.surefire.log.api.NullConsoleLogger()).parse(file.toString()).getFirst();
        assertThat(suite.getNumberOfTests()).isEqualTo(2);
        assertThat(suite.getNumberOfFailures()).isEqualTo(1);
        assertThat(suite.getTestCases()).extracting(c -> c.getName(), c -> c.hasFailure()).containsExactly(
                org.assertj.core.groups.Tuple.tuple("p50:10", true), org.assertj.core.groups.Tuple.tuple("goodput:5", false));
        assertThat(suite.getTestCases().getFirst().getFailureMessage()).startsWith("p50 of example-l0-u100 got worse from run 13 of 17");
        assertThat(suite.getTestCases()).allSatisfy(c -> assertThat(c.getClassName()).isEqualTo("example-l0-u100"));

        // five runs: too few to judge, an error (never a pass), exit 4
        Path few = tmp.resolve("few");
        for (int r = 1; r <= 5; r++) {
            Lab.copyTree(PUBLISHED.resolve("before/points/example-l0-u100-r" + r), few.resolve("example-l0-u100-r" + r));
        }
        Path again = tmp.resolve("few.xml");
        LabCommand.Finished judged = LabCommand.inThisJvm("history", few.toString(), "--fail-on-change", "p99", "--junit", again.toString());
        assertThat(judged.exitCode()).as(judged.output()).isEqualTo(ExitCode.CANNOT_JUDGE);
        org.apache.maven.plugins.surefire.report.ReportTestSuite cannot = new org.apache.maven.plugins.surefire.report.TestSuiteXmlParser(
                new org.apache.maven.plugin.surefire.log.api.NullConsoleLogger()).parse(again.toString()).getFirst();
        assertThat(cannot.getNumberOfErrors()).isEqualTo(1);
        assertThat(cannot.getTestCases().getFirst().hasError()).isTrue();
        assertThat(cannot.getTestCases().getFirst().getFailureMessage()).contains("5 runs; a change needs 3 runs on each side");

        // a file that is not a history's JUnit file is never replaced
        Files.writeString(tmp.resolve("mine.xml"), "<mine/>");
        LabCommand.Finished refused = LabCommand.inThisJvm("history", PUBLISHED.toString(), "--fail-on-change", "p50", "--junit",
                tmp.resolve("mine.xml").toString());
        assertThat(refused.exitCode()).as(refused.output()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(tmp.resolve("mine.xml")).hasContent("<mine/>");
    }
}
