package dev.latencylab.lab.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.load.merge.ResultMerge;
import dev.latencylab.lab.Lab;
import dev.latencylab.lab.cli.LatencyLab;
import dev.latencylab.lab.run.TargetRun;
import dev.latencylab.lab.targets.Target;
import dev.latencylab.lab.flow.ExitCode;

/** The published files: what their data gives (pages, tables, charts), what they record (targets), how split runs merge. */
class PublishedResultsTest {

    /**
     * Every published page, table and chart (the sweeps' summaries, pages and charts, the side-by-side page, the split
     * runs' pages, the capacity searches, the history and README's tables) is what its data alone gives, byte for byte:
     * ./lab rebuild-docs --check, through the command line (in this JVM), on a copy of the repository's docs whose README
     * verdict was edited by hand, names that file alone and exits 1, changing nothing; every other file came out the same.
     */
    @Test
    void everyPublishedFileIsWhatItsDataGivesAndCheckNamesAHandEditedOne(@TempDir Path tmp) throws Exception {
        Path copy = tmp.resolve("repo");
        Lab.copyTree(Lab.repo().resolve("docs"), copy.resolve("docs"));
        String readme = Files.readString(Lab.repo().resolve("README.md"));
        java.util.regex.Matcher figure = java.util.regex.Pattern.compile("[0-9],[0-9]{3}").matcher(readme);
        assertThat(figure.find(readme.indexOf("<!-- verdict: "))).as("a figure in README's verdict").isTrue();
        String edited = readme.substring(0, figure.start()) + "9,999" + readme.substring(figure.end());
        Files.writeString(copy.resolve("README.md"), edited);

        java.io.StringWriter console = new java.io.StringWriter();
        java.io.PrintWriter out = new java.io.PrintWriter(console, true);
        int exit = LatencyLab.commandLine().setOut(out).setErr(out).execute("--repo", copy.toString(), "rebuild-docs", "--check");
        assertThat(console.toString()).isEqualTo("latency-lab: differs from what its data gives: README.md\n"
                + "latency-lab: 1 published files differ; ./lab rebuild-docs writes them again\n");
        assertThat(exit).isEqualTo(ExitCode.FAILED);
        assertThat(copy.resolve("README.md")).as("--check changes nothing").hasContent(edited);
    }

    /** A marker the rebuild cannot read (a name it does not take, no closing line) is refused by name, not left as it was. */
    @Test
    void aMarkerTheRebuildCannotReadIsRefusedByName() {
        String verdict = "./lab report docs/results-tls/default-h1 --verdict";
        assertThat(Published.tables(Lab.repo(), "<!-- tls-h1-verdict: %s -->\n<!-- /tls-h1-verdict -->\n".formatted(verdict), o -> o))
                .as("digits in a name: filled").contains("-->\n- At ");
        assertThatThrownBy(() -> Published.tables(Lab.repo(), "<!-- tls_h1: %s -->\n<!-- /tls_h1 -->\n".formatted(verdict), o -> o))
                .hasMessageStartingWith("marker tls_h1: not one the rebuild reads");
        assertThatThrownBy(() -> Published.tables(Lab.repo(), "<!-- tls-h1: %s -->\nno closing line\n".formatted(verdict), o -> o))
                .hasMessageContaining("close it with <!-- /tls-h1 -->");
    }

    /** The files the rebuild makes are told from the data it reads: a result file is never one of them. */
    @Test
    void theRebuildMakesPagesTablesAndChartsAndReadsTheRest() {
        assertThat(Published.derived("docs/results/summary.csv")).isTrue();
        assertThat(Published.derived("docs/results/charts/p95-l100.svg")).isTrue();
        assertThat(Published.derived("docs/results-injectors/webflux-l100-u20000-r1/result.html")).isTrue();
        assertThat(Published.derived("docs/capacity/mvc-t200-l100/levels.csv")).isTrue();
        assertThat(Published.derived("docs/capacity/hockey-stick.png")).isTrue();
        assertThat(Published.derived("docs/results/points/webflux-l100-u5000-r2/result.json")).isFalse();
        assertThat(Published.derived("docs/results/sweep.json")).isFalse();
        assertThat(Published.derived("docs/capacity/mvc-t200-l100/capacity.json")).as("the search's own record: the rebuild reads it").isFalse();
        assertThat(Published.derived("docs/capacity/attempt-2/mvc-t200-l100/levels.csv")).as("an earlier attempt, kept as it was").isFalse();
    }

    /**
     * Every published result file names the target it loaded, as its point, its search or its folder does: a lab
     * target's id stands for its settings; a service of the user's keeps its URL.
     */
    @Test
    void publishedResultFilesNameTheirTarget() throws Exception {
        List<Path> files;
        try (Stream<Path> all = Files.walk(Lab.repo().resolve("docs"))) {
            files = all.filter(f -> f.getFileName().toString().equals(ResultFile.NAME)).sorted().toList();
        }
        assertThat(files).hasSizeGreaterThan(150);
        for (Path f : files) {
            Result.TargetSettings target = ResultFile.read(f).target();
            assertThat(target).as(f.toString()).isNotNull();
            // the settings its id stands for, and the JDK where it ran on another than the build's (--jdk)
            Map<String, String> settings = new LinkedHashMap<>(target.properties());
            settings.remove(TargetRun.JDK_PROPERTY);
            if (target.module().equals(Target.SERVICE_MODULE)) {
                // a service of the user's (the example service): named as the user named it, none of the lab's ids, its URL kept
                assertThat(Target.known(target.id())).as(f.toString()).isEmpty();
                assertThat(settings).as(f.toString()).containsKey("url");
            }
            else {
                assertThat(new Result.TargetSettings(target.id(), target.module(), settings)).as(f.toString())
                        .isEqualTo(Target.parse(target.id()).settings());
            }
            Path point = Files.isRegularFile(f.resolveSibling("point.json")) ? f.resolveSibling("point.json") : f.getParent().resolveSibling("point.json");
            if (Files.isRegularFile(point)) {
                assertThat(Files.readString(point)).as(point.toString()).contains("\"target\" : \"" + target.id() + "\"");
            }
        }
    }

    /**
     * Each published split run's result.json (the 20,000-user runs, the open sweep's points on two injectors) is what
     * ./lab merge makes of its injectors' files, byte for byte.
     */
    @Test
    void publishedSplitRunsAreTheMergeOfTheirParts(@TempDir Path tmp) throws Exception {
        List<Path> runs;
        try (Stream<Path> closed = Files.walk(Lab.repo().resolve("docs/results-injectors"));
                Stream<Path> open = Files.walk(Lab.repo().resolve("docs/results-injectors-open"))) {
            runs = Stream.concat(closed, open).filter(d -> Files.isDirectory(d.resolve("injector-0"))).sorted().toList();
        }
        assertThat(runs).hasSize(4 + 4);
        for (Path run : runs) {
            List<Path> parts = List.of(run.resolve("injector-0/result.json"), run.resolve("injector-1/result.json"));
            Path again = tmp.resolve(run.getParent().getFileName() + "-" + run.getFileName() + ".json");
            ResultFile.write(ResultMerge.merge(parts, run), again);
            assertThat(again).as(run.toString()).hasSameTextualContentAs(run.resolve(ResultFile.NAME));
            Result merged = ResultFile.read(again);
            assertThat(merged.requests().total()).isEqualTo(parts.stream().mapToLong(p -> ResultFile.read(p).requests().total()).sum());
        }
    }
}
