package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.JsonNode;

import dev.latencylab.load.result.Json;
import dev.latencylab.load.result.ResultFile;

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

    /**
     * Every published result file read into the typed Result and written again keeps every field it had, with its
     * value, in its order (a record regrouped into named parts must not move or rename one); a file with every field
     * this version writes comes back byte for byte. Older files gain the fields added since, as null.
     */
    @Test
    void theTypedResultReadsAndWritesTheSameFields() throws Exception {
        List<Path> files;
        try (Stream<Path> all = Files.walk(Lab.repo().resolve("docs"))) {
            files = all.filter(f -> f.getFileName().toString().equals(ResultFile.NAME)).sorted().toList();
        }
        int identical = 0;
        for (Path f : files) {
            Path again = tmp.resolve("again.json");
            ResultFile.write(ResultFile.read(f), again);
            assertThat(ResultSchema.problems(again)).as(f.toString()).isEmpty();
            assertThat(kept(Json.MAPPER.readTree(f.toFile()), Json.MAPPER.readTree(again.toFile()), "")).as(f.toString()).isNull();
            identical += java.util.Arrays.equals(Files.readAllBytes(f), Files.readAllBytes(again)) ? 1 : 0;
        }
        assertThat(files).hasSizeGreaterThan(250);
        assertThat(identical).as("files written with every field of this version").isGreaterThan(100);
    }

    /** Where written drops, changes or reorders a field of original (fields written adds aside); null when it does not. */
    private static String kept(JsonNode original, JsonNode written, String at) {
        if (!original.isObject()) {
            if (original.isArray() && written.isArray() && original.size() == written.size()) {
                for (int i = 0; i < original.size(); i++) {
                    String wrong = kept(original.get(i), written.get(i), at + "[" + i + "]");
                    if (wrong != null) {
                        return wrong;
                    }
                }
                return null;
            }
            return original.equals(written) ? null : at + ": " + original + " became " + written;
        }
        if (!written.isObject()) {
            return at + " is no longer an object";
        }
        List<String> order = new java.util.ArrayList<>(written.propertyNames());
        int last = -1;
        for (String name : original.propertyNames()) {
            int position = order.indexOf(name);
            if (position < 0 && original.get(name).isNull()) {
                continue; // a field written only when it has a value
            }
            if (position < 0) {
                return at + "." + name + " is gone";
            }
            if (position < last) {
                return at + "." + name + " moved";
            }
            last = position;
            String wrong = kept(original.get(name), written.get(name), at + "." + name);
            if (wrong != null) {
                return wrong;
            }
        }
        return null;
    }

    @Test
    void aFileWithAFieldTheSchemaDoesNotKnowFails() throws Exception {
        Path f = published().get(0);
        Path changed = tmp.resolve("changed.json");
        Files.writeString(changed, Files.readString(f).replaceFirst("\"missedSamples\"", "\"missedSample\""));
        assertThat(ResultSchema.problems(changed)).anySatisfy(p -> assertThat(p).contains("missedSample"));
    }
}
