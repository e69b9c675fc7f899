package dev.latencylab.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The simulation's packages in layers (CONTRIBUTING.md): the result file, the settings, the model and the merge, which
 * the runner reads too, below what records and samples inside Gatling's JVM; each uses only the packages below it.
 * Read from the sources: every name of another package they spell, in an import or in the code.
 */
class LoadLayersTest {

    /** Bottom first; packages on one line may not use each other either. */
    static final List<List<String>> LAYERS = List.of(List.of("result", "launch"), List.of("settings"), List.of("model"),
            List.of("merge", "sample"), List.of("preflight"), List.of("record"));

    private static final Pattern USE = Pattern.compile("dev\\.latencylab\\.load\\.(\\w+)\\.");

    @Test
    void eachPackageUsesOnlyThoseBelowIt() throws IOException {
        Path main = Path.of("src/main/java/dev/latencylab/load");
        List<String> wrong = new ArrayList<>();
        List<String> packages;
        try (Stream<Path> dirs = Files.list(main)) {
            packages = dirs.filter(Files::isDirectory).map(d -> d.getFileName().toString()).sorted().toList();
        }
        assertThat(packages).as("every package has its layer").containsExactlyInAnyOrderElementsOf(LAYERS.stream().flatMap(List::stream).toList());
        for (String p : packages) {
            try (Stream<Path> files = Files.list(main.resolve(p))) {
                for (Path file : files.toList()) {
                    Matcher m = USE.matcher(Files.readString(file));
                    while (m.find()) {
                        String used = m.group(1);
                        if (!used.equals(p) && layer(used) >= layer(p)) {
                            wrong.add("%s/%s uses %s".formatted(p, file.getFileName(), used));
                        }
                    }
                }
            }
        }
        assertThat(wrong).as("uses of a package in the same layer or above").isEmpty();
    }

    private static int layer(String p) {
        for (int i = 0; i < LAYERS.size(); i++) {
            if (LAYERS.get(i).contains(p)) {
                return i;
            }
        }
        throw new AssertionError("no layer for package " + p);
    }
}
