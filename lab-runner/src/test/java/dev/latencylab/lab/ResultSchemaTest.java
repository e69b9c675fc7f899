package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.load.Result;
import dev.latencylab.load.ResultFile;

/** Every committed result file (sweep, capacity searches, open run, split runs and their parts) is what docs/result.schema.json describes, and reads into the typed Result unchanged. */
class ResultSchemaTest {

    @TempDir
    Path tmp;

    /** The sweep's points, the capacity searches' ladders and the open run, the split runs' merged files and parts, the open split sweep's. */
    private static List<Path> published() throws Exception {
        try (Stream<Path> points = Files.walk(Lab.repo().resolve("docs/results/points"));
                Stream<Path> capacity = Files.walk(Lab.repo().resolve("docs/capacity"));
                Stream<Path> injectors = Files.walk(Lab.repo().resolve("docs/results-injectors"));
                Stream<Path> openInjectors = Files.walk(Lab.repo().resolve("docs/results-injectors-open"))) {
            return Stream.of(points, capacity, injectors, openInjectors).flatMap(s -> s).filter(f -> f.getFileName().toString().equals(ResultFile.NAME))
                    .sorted().toList();
        }
    }

    @Test
    void everyPublishedResultFileValidates() throws Exception {
        List<Path> files = published();
        assertThat(files).hasSizeGreaterThanOrEqualTo(25 + 13 + 12 + 8 + 8);
        for (Path f : files) {
            assertThat(ResultSchema.problems(f)).as(f.toString()).isEmpty();
        }
    }

    @Test
    void theTypedResultReadsAndWritesTheSameFields() throws Exception {
        for (Path f : published()) {
            Result r = ResultFile.read(f);
            Path again = tmp.resolve("again.json");
            ResultFile.write(r, again);
            assertThat(ResultSchema.problems(again)).as(f.toString()).isEmpty();
            assertThat(ResultFile.read(again).responseTimeMs()).isEqualTo(r.responseTimeMs());
            assertThat(ResultFile.read(again).requests()).isEqualTo(r.requests());
        }
    }

    @Test
    void aFileWithAFieldTheSchemaDoesNotKnowFails() throws Exception {
        Path f = published().get(0);
        Path changed = tmp.resolve("changed.json");
        Files.writeString(changed, Files.readString(f).replaceFirst("\"missedSamples\"", "\"missedSample\""));
        assertThat(ResultSchema.problems(changed)).anySatisfy(p -> assertThat(p).contains("missedSample"));
    }
}
