package dev.latencylab.lab;

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
 * The runner's packages in layers (CONTRIBUTING.md): each uses only the packages below it, so that no two need each
 * other. Read from the sources: every name of another runner package they spell, in an import or in the code.
 */
class PackageLayersTest {

    /** Bottom first; packages on one line may not use each other either. */
    private static final List<List<String>> LAYERS = List.of(List.of("targets", "layout", "machine", "format"), List.of("run"),
            List.of("summary"), List.of("sweep", "capacity", "footprint"), List.of("compare"), List.of("page"), List.of("docs"), List.of("cli"));

    private static final Pattern USE = Pattern.compile("dev\\.latencylab\\.lab\\.(\\w+)\\.");

    @Test
    void eachPackageUsesOnlyThoseBelowIt() throws IOException {
        Path main = Lab.repo().resolve("lab-runner/src/main/java/dev/latencylab/lab");
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

    /**
     * Of the simulation's packages the runner reads what the result file, the launch files, the settings, the model and
     * the merge are (gatling-scripts' LoadLayersTest keeps them below sampling and recording), and one probe of sampling:
     * where a service's metrics are. Nothing of what records a run inside Gatling's JVM.
     */
    @Test
    void theRunnerReadsOnlyWhatTheSimulationShares() throws IOException {
        List<String> shared = List.of("result", "launch", "settings", "model", "merge");
        Pattern load = Pattern.compile("dev\\.latencylab\\.load\\.(\\w+)\\.(\\w+)");
        List<String> wrong = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Lab.repo().resolve("lab-runner/src/main"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java") || f.toString().endsWith(".jte")).toList()) {
                Matcher m = load.matcher(Files.readString(file));
                while (m.find()) {
                    if (!shared.contains(m.group(1)) && !(m.group(1).equals("sample") && m.group(2).equals("MetricsEndpoint"))) {
                        wrong.add(file.getFileName() + " uses " + m.group(1) + "." + m.group(2));
                    }
                }
            }
        }
        assertThat(wrong).as("the runner's uses of the simulation's own packages").isEmpty();
    }
}
