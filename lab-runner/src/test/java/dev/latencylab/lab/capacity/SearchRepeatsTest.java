package dev.latencylab.lab.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.lab.Lab;

/**
 * ./lab capacity --repeats without a process: each search in its own folder (base-r1, base-r2, ...), a named one
 * never beside an earlier one, the searches' capacities said together, and a signal ending the repeats. Each search
 * here is a published one, read back.
 */
class SearchRepeatsTest {

    private static final Capacity.Search PUBLISHED = Capacity.read(Lab.repo().resolve("docs/capacity-repeats/mvc-t200-l100-r1"));

    private final StringWriter out = new StringWriter();

    @Test
    void eachSearchHasItsFolderAndTheirCapacitiesAreSaidTogether(@TempDir Path tmp) {
        List<Path> folders = new ArrayList<>();
        List<Capacity.Search> found = SearchRepeats.run(tmp, "mvc", true, 3, new PrintWriter(out, true), dir -> {
            folders.add(dir);
            return PUBLISHED;
        });
        assertThat(found).hasSize(3);
        assertThat(folders).containsExactly(tmp.resolve("mvc-r1"), tmp.resolve("mvc-r2"), tmp.resolve("mvc-r3")).allMatch(Files::isDirectory);
        assertThat(out.toString()).contains("search 1 of 3", "search 3 of 3",
                "capacities of the 3 searches: 1,000, 1,000, 1,000 req/s; compare them with others: ./lab compare " + tmp.resolve("mvc"));

        assertThatThrownBy(() -> SearchRepeats.check(tmp, "mvc", 2)).hasMessageContaining("--name mvc: " + tmp + " already holds repeats of that name")
                .hasMessageContaining("mvc-r1, mvc-r2, mvc-r3");
        assertThatThrownBy(() -> SearchRepeats.run(tmp, "mvc-r1", true, 1, new PrintWriter(out, true), dir -> PUBLISHED))
                .as("a named search is never resumed").hasMessageContaining("give another --name (a search is never resumed)");
        assertThatThrownBy(() -> SearchRepeats.check(tmp, "other", 0)).hasMessage("--repeats 0: give 1 to 100 searches");
        assertThatThrownBy(() -> SearchRepeats.check(tmp, "other", 101)).hasMessage("--repeats 101: give 1 to 100 searches");
    }

    @Test
    void aSearchASignalEndedIsTheLast(@TempDir Path tmp) {
        Capacity.Search interrupted = new Capacity.Search(PUBLISHED.settings(), PUBLISHED.bounds(), PUBLISHED.answer(), PUBLISHED.rounds(),
                PUBLISHED.levels(), PUBLISHED.machine(), PUBLISHED.created(), true, null);
        List<Capacity.Search> found = SearchRepeats.run(tmp, "mvc", false, 3, new PrintWriter(out, true), dir -> interrupted);
        assertThat(found).containsExactly(interrupted);
        assertThat(out.toString()).contains("search 1 of 3").doesNotContain("search 2 of 3", "capacities of");
    }
}
