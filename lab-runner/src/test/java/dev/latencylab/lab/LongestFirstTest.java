package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

class LongestFirstTest {

    @Test
    void theLongestGoToTheFrontTwiceThenTheBackAndTheRestInTheMiddle() {
        List<String> found = List.of("ReadersIT", "SweepIT", "CompareIT", "DependencyTargetsIT", "LabCommandLineIT", "OwnServiceIT");
        assertThat(LongestFirst.order(found)).containsExactly("DependencyTargetsIT", "LabCommandLineIT", "OwnServiceIT", "ReadersIT", "CompareIT",
                "SweepIT");
        assertThat(LongestFirst.order(List.of("ReadersIT", "CompareIT"))).as("none of them named: as found").containsExactly("ReadersIT", "CompareIT");
    }

    @Test
    void everyClassItNamesIsAnIntegrationTestOfThisModule() throws IOException {
        try (Stream<Path> sources = Files.walk(Lab.repo().resolve("lab-runner/src/test/java"))) {
            List<String> tests = sources.map(p -> p.getFileName().toString()).filter(n -> n.endsWith("IT.java"))
                    .map(n -> n.substring(0, n.length() - ".java".length())).toList();
            assertThat(tests).containsAll(LongestFirst.LONGEST);
        }
    }
}
