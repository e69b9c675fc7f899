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

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Each module's packages in layers (CONTRIBUTING.md): each uses only the packages below it, so that no two need each
 * other. Read from the sources: every name of another package of the same module they spell, in an import or in the
 * code. Between modules Maven keeps the direction: the runner and the simulation read load-contract, not each other.
 */
class PackageLayersTest {

    /** A module's main sources under one package, and its packages bottom first; packages on one line may not use each other either. */
    record Module(String sources, String prefix, List<List<String>> layers) {
    }

    static final Module RUNNER = new Module("lab-runner/src/main/java/dev/latencylab/lab", "dev.latencylab.lab",
            List.of(List.of("targets", "layout", "machine", "format"), List.of("run"), List.of("summary"),
                    List.of("sweep", "capacity", "footprint"), List.of("compare"), List.of("history"), List.of("page"), List.of("live", "docs"),
                    List.of("flow"),
                    List.of("cli")));
    static final Module CONTRACT = new Module("load-contract/src/main/java/dev/latencylab/load", "dev.latencylab.load",
            List.of(List.of("result", "launch", "live", "tls"), List.of("metrics", "settings"), List.of("model"), List.of("merge")));
    static final Module SIMULATION = new Module("gatling-scripts/src/main/java/dev/latencylab/load", "dev.latencylab.load",
            List.of(List.of("sample", "guard"), List.of("preflight"), List.of("record"), List.of("live")));
    static final List<Module> MODULES = List.of(RUNNER, CONTRACT, SIMULATION);

    @ParameterizedTest
    @FieldSource("MODULES")
    void eachPackageUsesOnlyThoseBelowIt(Module module) throws IOException {
        Path main = Lab.repo().resolve(module.sources());
        Pattern use = Pattern.compile(Pattern.quote(module.prefix()) + "\\.(\\w+)\\.");
        List<String> packages;
        try (Stream<Path> dirs = Files.list(main)) {
            packages = dirs.filter(Files::isDirectory).map(d -> d.getFileName().toString()).sorted().toList();
        }
        assertThat(packages).as("every package has its layer").containsExactlyInAnyOrderElementsOf(module.layers().stream().flatMap(List::stream).toList());
        List<String> wrong = new ArrayList<>();
        for (String p : packages) {
            try (Stream<Path> files = Files.list(main.resolve(p))) {
                for (Path file : files.toList()) {
                    Matcher m = use.matcher(Files.readString(file));
                    while (m.find()) {
                        String used = m.group(1);
                        // a package of another module (the simulation's uses of load-contract): Maven's to keep
                        if (packages.contains(used) && !used.equals(p) && layer(module, used) >= layer(module, p)) {
                            wrong.add("%s/%s uses %s".formatted(p, file.getFileName(), used));
                        }
                    }
                }
            }
        }
        assertThat(wrong).as("uses of a package in the same layer or above").isEmpty();
    }

    private static int layer(Module module, String p) {
        for (int i = 0; i < module.layers().size(); i++) {
            if (module.layers().get(i).contains(p)) {
                return i;
            }
        }
        throw new AssertionError("no layer for package " + p);
    }
}
