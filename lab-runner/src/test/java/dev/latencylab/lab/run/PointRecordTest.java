package dev.latencylab.lab.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import dev.latencylab.load.result.Json;
import dev.latencylab.lab.Lab;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.machine.Machine;
import dev.latencylab.lab.targets.Target;

class PointRecordTest {

    @TempDir
    Path dir;

    /** Every published point.json reads as the type, and the type writes what the file holds (key order aside). */
    @Test
    void everyPublishedPointRecordReadsAndWritesBackTheSameFields() throws Exception {
        List<Path> published;
        try (Stream<Path> files = Files.walk(Lab.repo().resolve("docs"))) {
            published = files.filter(f -> f.getFileName().toString().equals("point.json")).toList();
        }
        assertThat(published).hasSizeGreaterThan(100);
        int i = 0;
        for (Path file : published) {
            PointRecord record = PointRecord.read(new RunFolder(file.getParent()));
            RunFolder copy = new RunFolder(Files.createDirectories(dir.resolve("copy-" + ++i)));
            record.write(copy);
            JsonNode written = Json.MAPPER.readTree(copy.pointRecord().toFile());
            assertThat(written).as(file.toString()).isEqualTo(Json.MAPPER.readTree(file.toFile()));
            assertThat(record.outcome().done()).as(file.toString()).isTrue();
            assertThat(record.start().machine().cpuProbeMibPerSecond()).as(file.toString()).isPositive();
        }
    }

    /** A point that failed before its target was up: no pid, no warm-up; read back as it was written. */
    @Test
    void aPointThatFailedBeforeItsTargetStartedRecordsWhyAndNoStart() throws Exception {
        Point p = Point.open(Target.parse("mvc-t200"), 2400.5, 100, 2);
        Instant at = Instant.parse("2026-11-24T10:00:00.123456789Z");
        PointRecord failed = new PointRecord(p.described(), new PointRecord.Ending(Status.FAILED, "port 8091 is in use"),
                new PointRecord.Start(8091, at, new Machine.Fingerprint(null, "a CPU", 2, null, 1500.0), 2), null,
                new PointRecord.End(null, at.plusSeconds(3), 3, null));
        RunFolder folder = new RunFolder(dir);
        failed.write(folder);
        String text = Files.readString(folder.pointRecord());
        assertThat(text).contains("\"id\" : \"mvc-t200-l100-rate2400.5-r2\"", "\"rate\" : 2400.5", "\"status\" : \"failed\"",
                "\"startedAt\" : \"2026-11-24T10:00:00.123456789Z\"", "\"injectors\" : 2", "\"bootId\" : null").doesNotContain("targetPid");
        PointRecord read = PointRecord.read(folder);
        assertThat(read.point()).isEqualTo(failed.point());
        assertThat(read.outcome()).isEqualTo(failed.outcome());
        assertThat(read.start()).isEqualTo(failed.start());
        assertThat(read.ended()).isEqualTo(failed.ended());
        assertThat(PointRecord.outcome(new RunFolder(dir.resolve("none")))).as("no record: not finished").isNull();
    }
}
