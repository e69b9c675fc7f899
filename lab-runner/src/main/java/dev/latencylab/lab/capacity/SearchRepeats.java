package dev.latencylab.lab.capacity;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.latencylab.lab.format.Figures;
import dev.latencylab.lab.layout.ResultsFolders;

/**
 * A capacity search made several times, one after the other (./lab capacity --repeats): each in a folder of its own
 * beside the others, base, or base-r1, base-r2, ... when there are several; ./lab compare takes base as one side.
 */
public final class SearchRepeats {

    /** The most searches one command makes. */
    public static final int MAX = 100;

    private SearchRepeats() {
    }

    /**
     * Refuses, before anything starts, a number of searches out of range, and repeats named base where searches already
     * holds some (a new name each time: repeats are never resumed).
     */
    public static void check(Path searches, String base, int repeats) {
        if (repeats < 1 || repeats > MAX) {
            throw new IllegalArgumentException("--repeats %d: give 1 to %d searches".formatted(repeats, MAX));
        }
        List<Path> made = ResultsFolders.repeats(searches, base);
        if (repeats > 1 && !made.isEmpty()) {
            throw new IllegalArgumentException("--name %s: %s already holds repeats of that name (%s): give another --name".formatted(base,
                    searches, made.stream().map(d -> d.getFileName().toString()).collect(Collectors.joining(", "))));
        }
    }

    /**
     * Makes the searches one after the other, each by search in its new folder (named: --name gave base, a folder that
     * must not exist yet), and says what each found when there were several.
     *
     * @return the searches made; the last one was interrupted when a signal stopped them
     */
    public static List<Capacity.Search> run(Path searches, String base, boolean named, int repeats, PrintWriter out,
            Function<Path, Capacity.Search> search) {
        List<Capacity.Search> found = new ArrayList<>();
        for (int k = 1; k <= repeats; k++) {
            String folder = repeats == 1 ? base : ResultsFolders.repeat(base, k);
            Path dir = named ? ResultsFolders.namedFolder("--name", searches, folder, "give another --name (a search is never resumed)")
                    : ResultsFolders.newFolder(searches, folder);
            if (repeats > 1) {
                out.printf("latency-lab: search %d of %d%n", k, repeats);
            }
            Capacity.Search made = search.apply(dir);
            found.add(made);
            if (made.wasInterrupted()) {
                return found;
            }
        }
        if (repeats > 1) {
            out.printf("latency-lab: capacities of the %d searches: %s %s; compare them with others: ./lab compare %s OTHER%n", repeats,
                    found.stream().map(r -> r.answer().capacityPerSecond() == null ? "none" : Figures.rate(r.answer().capacityPerSecond()))
                            .collect(Collectors.joining(", ")),
                    found.get(0).settings().rateUnit(), searches.resolve(base));
        }
        return found;
    }
}
