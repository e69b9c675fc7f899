package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.load.Result;
import dev.latencylab.load.ResultFile;
import dev.latencylab.load.ResultMerge;

/**
 * README's results tables are the ones the committed summary.csv files of docs/results, docs/results-db,
 * docs/results-http and docs/results-db-maxconn give, figure for figure; its capacity table the one the committed searches under docs/capacity
 * give, rebuilt from their result files.
 */
class PublishedResultsTest {

    private static final String CAPACITY_START = "<!-- capacity-table: ./lab capacity --report docs/capacity/*-l100 -->\n";
    private static final String CAPACITY_END = "<!-- /capacity-table -->";

    /** Each published sweep's table sits in README between its markers: the command that prints it, and its end. */
    @ParameterizedTest
    @CsvSource({"results, results-table", "results-db, db-results-table", "results-http, http-results-table",
            "results-db-maxconn, db-maxconn-results-table"})
    void readmeTableMatchesItsSummaryCsv(String folder, String marker) throws Exception {
        assertReadmeTableIs("docs/" + folder + "/summary.csv", "<!-- %s: ./lab report docs/%s --markdown -->\n".formatted(marker, folder),
                "<!-- /%s -->".formatted(marker));
    }

    private static void assertReadmeTableIs(String summary, String start, String end) throws Exception {
        Path csv = Lab.repo().resolve(summary);
        String readme = Files.readString(Lab.repo().resolve("README.md"));
        assertThat(csv).isRegularFile();
        assertThat(readme).contains(start, end);

        String table = readme.substring(readme.indexOf(start) + start.length(), readme.indexOf(end));
        assertThat(table).isEqualTo(ResultsTable.markdown(Summary.readCsv(csv)));
    }

    @Test
    void readmeCapacityTableIsTheOneTheCommittedSearchesGiveFromTheirResultFiles(@TempDir Path tmp) throws Exception {
        Path published = Lab.repo().resolve("docs/capacity");
        List<Path> searches;
        try (Stream<Path> dirs = Files.list(published)) {
            searches = dirs.filter(d -> Files.isRegularFile(d.resolve(Capacity.FILE)) && d.getFileName().toString().endsWith("-l100"))
                    .sorted().toList();
        }
        assertThat(searches).as("one search per default target").hasSize(Sweep.Preset.TARGETS.size());
        Lab.copyTree(published, tmp);
        List<Capacity.Record> rebuilt = searches.stream().map(d -> Capacity.rebuild(tmp.resolve(d.getFileName().toString()))).toList();
        for (Path d : searches) {
            assertThat(tmp.resolve(d.getFileName().toString()).resolve(Capacity.FILE)).as("the committed capacity.json is what its result files give")
                    .hasSameTextualContentAs(d.resolve(Capacity.FILE));
        }
        String readme = Files.readString(Lab.repo().resolve("README.md"));
        assertThat(readme).contains(CAPACITY_START, CAPACITY_END);
        String table = readme.substring(readme.indexOf(CAPACITY_START) + CAPACITY_START.length(), readme.indexOf(CAPACITY_END));
        assertThat(table).isEqualTo(Capacity.markdown(rebuilt));
    }

    /** Every published result file names the target it loaded, as its point, its search or its folder does. */
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
            assertThat(target).as(f.toString()).isEqualTo(Target.parse(target.id()).settings());
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

    /** Each published split run's page is the one ./lab report builds from its files today. */
    @Test
    void publishedSplitRunsPagesAreRebuiltFromTheirFiles(@TempDir Path tmp) throws Exception {
        try (Stream<Path> dirs = Files.list(Lab.repo().resolve("docs/results-injectors"))) {
            for (Path run : dirs.filter(Files::isDirectory).sorted().toList()) {
                Path copy = tmp.resolve(run.getFileName());
                for (String f : List.of("result.json", "injector-0/result.json", "injector-1/result.json")) {
                    Files.createDirectories(copy.resolve(f).getParent());
                    Files.copy(run.resolve(f), copy.resolve(f));
                }
                RunPage.write(copy.resolve(ResultFile.NAME));
                assertThat(RunPage.of(copy.resolve(ResultFile.NAME))).as(run.toString())
                        .hasSameTextualContentAs(RunPage.of(run.resolve(ResultFile.NAME)));
            }
        }
    }
}
