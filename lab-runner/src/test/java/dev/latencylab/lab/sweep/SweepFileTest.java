package dev.latencylab.lab.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.lab.Lab;
import dev.latencylab.lab.layout.SweepFolder;

/** sweep.json as a typed record: every published one reads, and the plan's named parts are written flat, as before. */
class SweepFileTest {

    private static List<Path> published() throws Exception {
        try (Stream<Path> all = Files.walk(Lab.repo().resolve("docs"))) {
            return all.filter(f -> f.getFileName().toString().equals("sweep.json")).sorted().toList();
        }
    }

    /**
     * Each published sweep.json reads into the typed file; written again, one with every field of this version is byte
     * for byte what it was (the plan's parts keep each field's name and place), and an older one gains only the fields
     * added since, with the defaults its sweep stands for.
     */
    @Test
    void everyPublishedSweepFileReadsAndWritesBackAsItWas(@TempDir Path tmp) throws Exception {
        List<Path> files = published();
        assertThat(files).hasSizeGreaterThanOrEqualTo(11);
        int identical = 0;
        for (Path f : files) {
            SweepFile read = SweepFile.read(new SweepFolder(f.getParent()));
            assertThat(read.plan().points()).as(f.toString()).isNotEmpty();
            assertThat(read.machine().cpuProbe().mibPerSecond()).as(f.toString()).isPositive();
            SweepFolder again = new SweepFolder(tmp.resolve(f.getParent().getFileName() + "-" + identical + "-" + files.indexOf(f)));
            Files.createDirectories(again.dir());
            read.write(again);
            String before = Files.readString(f).strip();
            String after = Files.readString(again.planFile()).strip();
            if (before.contains("\"jvmEvents\"")) {
                assertThat(after).as(f.toString()).isEqualTo(before);
                identical++;
            }
            else {
                assertThat(after).as(f + ": from before JVM events, they are on from here").contains("\"injectors\" : ", "\"jvmEvents\" : true");
                assertThat(SweepFile.read(again).plan().changeFrom(read.plan())).isNull();
            }
        }
        assertThat(identical).as("sweeps with every field of this version").isGreaterThanOrEqualTo(3);
    }

    @Test
    void aSweepFileThisVersionCannotReadSaysWhich(@TempDir Path tmp) throws Exception {
        SweepFolder folder = new SweepFolder(tmp);
        Files.writeString(folder.planFile(), "{\"targets\": \"webflux\"}");
        assertThatThrownBy(() -> SweepFile.read(folder)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(folder.planFile().toString()).hasMessageContaining("is not a sweep this version reads");
    }
}
