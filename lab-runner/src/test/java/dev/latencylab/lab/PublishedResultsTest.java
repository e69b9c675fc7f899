package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README's results table is the one the committed docs/results/summary.csv gives, figure for figure; its capacity
 * table the one the committed searches under docs/capacity give, rebuilt from their result files.
 */
class PublishedResultsTest {

    private static final String START = "<!-- results-table: ./lab report docs/results --markdown -->\n";
    private static final String END = "<!-- /results-table -->";
    private static final String CAPACITY_START = "<!-- capacity-table: ./lab capacity --report docs/capacity/*-l100 -->\n";
    private static final String CAPACITY_END = "<!-- /capacity-table -->";

    @Test
    void readmeTableMatchesSummaryCsv() throws Exception {
        Path csv = Lab.repo().resolve("docs/results/summary.csv");
        String readme = Files.readString(Lab.repo().resolve("README.md"));
        assertThat(csv).isRegularFile();
        assertThat(readme).contains(START, END);

        String table = readme.substring(readme.indexOf(START) + START.length(), readme.indexOf(END));
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
        try (Stream<Path> files = Files.walk(published)) {
            for (Path f : files.toList()) {
                Path copy = tmp.resolve(published.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(copy);
                }
                else {
                    Files.copy(f, copy);
                }
            }
        }
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
}
