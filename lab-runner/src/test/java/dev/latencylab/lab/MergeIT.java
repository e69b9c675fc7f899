package dev.latencylab.lab;

import static dev.latencylab.lab.LabCommand.assertNoStackTrace;
import static org.assertj.core.api.Assertions.assertThat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;
import dev.latencylab.load.result.HistogramCodec;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.lab.flow.ExitCode;

/**
 * ./lab merge refuses a part that does not add up (its counts, KO reasons, schema and histogram, each checked against
 * the others), in one line naming what is wrong, nothing written; and two merges to one file leave one's files, the
 * other refused.
 */
class MergeIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Path SPLIT_RUN = Lab.repo().resolve("docs/results-injectors/webflux-l100-u20000-r1");

    @TempDir
    Path tmp;

    private Path console(String name) {
        return tmp.resolve(name + ".console");
    }

    /** One published injector file, edited as the trial edited it: each edit refused by name, nothing written. */
    static Stream<Arguments> tamperedParts() {
        return Stream.of(
                Arguments.of("a histogram with another count", (Consumer<ObjectNode>) r -> {
                    // a digit of the counts' array, changed so that it still decodes (found by trying): the values it holds change
                    String data = r.get("histogram").get("data").asString();
                    ((ObjectNode) r.get("histogram")).put("data", decodableEdit(data));
                }, "histogram holds"),
                Arguments.of("a negative ok", (Consumer<ObjectNode>) r -> ((ObjectNode) r.get("requests")).put("ok", -288_909),
                        "requests.ok is -288,909; a count cannot be negative"),
                Arguments.of("a raised total", (Consumer<ObjectNode>) r -> ((ObjectNode) r.get("requests")).put("total", 301_000),
                        "requests: ok 288,909 + ko 11,091 is not total 301,000"),
                Arguments.of("KO reasons that do not sum to KO", (Consumer<ObjectNode>) r -> {
                    ObjectNode reasons = (ObjectNode) r.get("requests").get("koByReason");
                    String first = reasons.propertyNames().iterator().next();
                    reasons.put(first, reasons.get(first).asLong() + 5);
                }, "requests.koByReason sums to 11,096, not ko 11,091"),
                Arguments.of("an unknown schema", (Consumer<ObjectNode>) r -> r.put("schema", "latency-lab/result/9"),
                        "schema is latency-lab/result/9; this version reads latency-lab/result/1"),
                Arguments.of("another histogram encoding", (Consumer<ObjectNode>) r -> ((ObjectNode) r.get("histogram")).put("encoding", "HdrHistogram V2"),
                        "histogram: encoding \"HdrHistogram V2\""),
                Arguments.of("a histogram that does not decode",
                        (Consumer<ObjectNode>) r -> ((ObjectNode) r.get("histogram")).put("data", "bm90IGEgaGlzdG9ncmFt"),
                        "histogram.data does not decode as an HdrHistogram"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tamperedParts")
    void aPartThatDoesNotAddUpIsRefusedByNameAndNothingIsWritten(String what, Consumer<ObjectNode> edit, String expected) throws IOException {
        Path part = tmp.resolve("injector-0.json");
        ObjectNode r = (ObjectNode) JSON.readTree(SPLIT_RUN.resolve("injector-0/result.json").toFile());
        edit.accept(r);
        JSON.writeValue(part.toFile(), r);
        Path out = tmp.resolve("merged");

        LabCommand.Finished merge = LabCommand.inThisJvm("merge", part.toString(),
                SPLIT_RUN.resolve("injector-1/result.json").toString(), "--out", out.toString());

        assertThat(merge.exitCode()).as(merge.output()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(merge.output()).startsWith("latency-lab: " + part + ": ").contains(expected);
        assertThat(merge.output().lines().count()).as("one line").isEqualTo(1);
        assertNoStackTrace(merge.output());
        try (Stream<Path> files = Files.list(tmp)) {
            assertThat(files.map(f -> f.getFileName().toString())).as("nothing written").containsExactly("injector-0.json");
        }
    }

    @Test
    void twoMergesToOneFileLeaveOneRunsFilesAndTheOtherRefuses() throws Exception {
        Path out = tmp.resolve("merged");
        List<LabCommand> merges = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            merges.add(LabCommand.start(console("merge-" + i), "merge", SPLIT_RUN.resolve("injector-0").toString(),
                    SPLIT_RUN.resolve("injector-1").toString(), "--out", out.toString()));
        }
        List<Integer> exits = new ArrayList<>();
        for (LabCommand m : merges) {
            exits.add(m.await(Duration.ofMinutes(2)));
        }
        assertThat(exits).as(merges.get(0).output() + merges.get(1).output()).containsExactlyInAnyOrder(ExitCode.OK, ExitCode.BAD_INPUT);
        LabCommand refused = merges.get(exits.indexOf(ExitCode.BAD_INPUT));
        // refused at its write (the other linked the name first) or, had it started later, at its check before merging
        assertThat(refused.output()).contains("(merge never overwrites)").doesNotContain("Run page:");
        Path file = out.resolve("result.json");
        assertThat(ResultFile.read(file).requests().total()).isEqualTo(600_000);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).as("readable as every other file").isEqualTo("rw-r--r--");
        try (Stream<Path> files = Files.list(out)) {
            assertThat(files.map(f -> f.getFileName().toString())).as("no partial file")
                    .containsExactlyInAnyOrder("result.json", "result.html", "result-per-second.png");
        }
        LabCommand.Finished asFile = LabCommand.inThisJvm("merge", SPLIT_RUN.resolve("injector-0").toString(),
                SPLIT_RUN.resolve("injector-1").toString(), "--out", tmp.resolve("merged.json").toString());
        assertThat(asFile.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(asFile.output()).contains("give the merged run's folder; its result.json is written there");
    }

    /** A change that still decodes, to a histogram of another count (the first that does, from the middle on). */
    private static String decodableEdit(String data) {
        for (int i = data.length() / 2; i < data.length() - 4; i++) {
            String edited = data.substring(0, i) + (data.charAt(i) == 'Q' ? 'R' : 'Q') + data.substring(i + 1);
            try {
                if (HistogramCodec.decode(edited).getTotalCount() != HistogramCodec.decode(data).getTotalCount()) {
                    return edited;
                }
            }
            catch (RuntimeException doesNotDecode) {
                // try the next character
            }
        }
        throw new IllegalStateException("no one-character edit of the histogram decodes");
    }
}
