package dev.latencylab.lab.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file the lab writes is whole or not there: a write that fails midway leaves the earlier file as it was and no
 * partial file beside it; a page a user names is written only where it is new or the command's own.
 */
class OutputFileTest {

    @TempDir
    Path tmp;

    @Test
    void aWriteThatFailsMidwayLeavesTheEarlierFileAndNothingBesideIt() throws IOException {
        Path file = tmp.resolve("deep/summary.csv");
        OutputFile.text(file, "point,goodput\na,1\n");
        assertThat(Files.readString(file)).isEqualTo("point,goodput\na,1\n");

        assertThatThrownBy(() -> OutputFile.write(file, out -> {
            out.write("point,goodput\nb,".getBytes());
            throw new IOException("disk full");
        })).isInstanceOf(UncheckedIOException.class).hasMessage("cannot write " + file)
                .hasRootCauseMessage("disk full");
        assertThat(Files.readString(file)).as("the earlier file, whole").isEqualTo("point,goodput\na,1\n");
        try (Stream<Path> beside = Files.list(file.getParent())) {
            assertThat(beside).containsExactly(file);
        }
        OutputFile.text(file, "replaced");
        assertThat(Files.readString(file)).isEqualTo("replaced");
    }

    @Test
    void aPageTheUserNamesIsWrittenOnlyWhereItIsNewOrTheCommandsOwn() throws IOException {
        String own = "<!doctype html><!-- compare -->";
        assertThat(OutputFile.ownFile("--out", tmp.resolve("new.html"), ".html", own)).isEqualTo(tmp.resolve("new.html"));
        Path earlier = tmp.resolve("earlier.html");
        Files.writeString(earlier, own + "<p>an earlier comparison</p>");
        assertThat(OutputFile.ownFile("--out", earlier, ".html", own)).isEqualTo(earlier);

        Path notes = tmp.resolve("notes.html");
        Files.writeString(notes, "<html>the user's own page</html>");
        assertThatThrownBy(() -> OutputFile.ownFile("--out", notes, ".html", own)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--out %s exists and is not a page this command wrote: it is not replaced; give a new file", notes);
        Path folder = Files.createDirectory(tmp.resolve("folder.html"));
        assertThatThrownBy(() -> OutputFile.ownFile("--out", folder, ".html", own)).hasMessageContaining("is not a page this command wrote");
        assertThatThrownBy(() -> OutputFile.ownFile("--out", tmp.resolve("result.json"), ".html", own))
                .hasMessage("--out '%s': give a file name ending in .html", tmp.resolve("result.json"));
        assertThatThrownBy(() -> OutputFile.ownFile("--out", tmp.resolve(".html"), ".html", own)).hasMessageContaining("give a file name ending in .html");
    }
}
