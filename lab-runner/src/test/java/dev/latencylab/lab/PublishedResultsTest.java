package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/** README's results table is the one the committed docs/results/summary.csv gives, figure for figure. */
class PublishedResultsTest {

    private static final String START = "<!-- results-table: ./lab report docs/results --markdown -->\n";
    private static final String END = "<!-- /results-table -->";

    @Test
    void readmeTableMatchesSummaryCsv() throws Exception {
        Path csv = Lab.repo().resolve("docs/results/summary.csv");
        String readme = Files.readString(Lab.repo().resolve("README.md"));
        assertThat(csv).isRegularFile();
        assertThat(readme).contains(START, END);

        String table = readme.substring(readme.indexOf(START) + START.length(), readme.indexOf(END));
        assertThat(table).isEqualTo(ResultsTable.markdown(Summary.readCsv(csv)));
    }
}
