package dev.latencylab.load.result;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * The result file as the contract between the simulation and the runner, on a published run's file: written whole
 * and readable by others, never over a file another process wrote, read back as it was; a file that is not one of
 * this version, or whose arithmetic does not hold, refused naming the file and the field.
 */
class ResultFileTest {

    private static final Path PUBLISHED = Path.of("..", "docs", "results", "points", "mvc-t200-l100-u1000-r1", "result.json");

    @TempDir
    Path tmp;

    @Test
    void aResultIsWrittenWholeReadableAndReadBackAsItWas() throws IOException {
        Result published = ResultFile.read(PUBLISHED);
        Path file = tmp.resolve("run/result.json");
        ResultFile.write(published, file);
        assertThat(ResultFile.read(file)).usingRecursiveComparison().isEqualTo(published);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-r--r--");

        Path other = tmp.resolve("injector-0.json");
        Files.writeString(other, "another process's");
        assertThatThrownBy(() -> ResultFile.writeNew(published, other)).isInstanceOf(UncheckedIOException.class)
                .hasCauseInstanceOf(FileAlreadyExistsException.class);
        assertThat(Files.readString(other)).isEqualTo("another process's");
        ResultFile.writeNew(published, tmp.resolve("injector-1.json"));
        try (Stream<Path> files = Files.list(tmp)) {
            assertThat(files.map(f -> f.getFileName().toString())).containsExactlyInAnyOrder("run", "injector-0.json", "injector-1.json");
        }
    }

    @Test
    void aFileThatIsNotAResultOfThisVersionOrDoesNotAddUpIsRefusedNamingTheField() throws IOException {
        assertThat(refused(r -> r.put("samplesPerSecond", 3))).startsWith(tmp.resolve("edited.json") + ": not a result file of this version: ")
                .contains("samplesPerSecond");
        assertThat(refused(r -> ((ObjectNode) r.get("requests")).put("total", "many")))
                .contains("not a result file of this version: requests.total: ");
        assertThat(refused(r -> ((ObjectNode) r.get("requests")).put("ko", 7)))
                .contains("requests: ok 30,000 + ko 7 is not total 30,000");
        Path cut = tmp.resolve("cut.json");
        Files.writeString(cut, Files.readString(PUBLISHED).substring(0, 500));
        assertThatThrownBy(() -> ResultFile.read(cut)).isInstanceOf(ResultFile.BadResultFile.class)
                .hasMessageStartingWith(cut + ": not a result file of this version: ");
    }

    /** The published file edited, written as a user's editor would, and the one line read refuses it with. */
    private String refused(Consumer<ObjectNode> edit) throws IOException {
        ObjectNode tree = (ObjectNode) Json.MAPPER.readTree(PUBLISHED.toFile());
        edit.accept(tree);
        Path file = tmp.resolve("edited.json");
        Json.MAPPER.writeValue(file.toFile(), tree);
        try {
            ResultFile.read(file);
        }
        catch (ResultFile.BadResultFile e) {
            assertThat(e.getMessage()).doesNotContain("\n");
            return e.getMessage();
        }
        throw new AssertionError("read without a complaint: " + file);
    }
}
