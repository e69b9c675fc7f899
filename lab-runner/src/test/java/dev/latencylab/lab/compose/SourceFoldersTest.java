package dev.latencylab.lab.compose;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import dev.latencylab.lab.Lab;

/**
 * Every source folder reaches a commit and the image build: .gitignore and .dockerignore leave out every folder named
 * target (build output) at any depth, so a package named target would lose its new files to git and all of them to
 * docker build (it did once: dev.latencylab.lab.target, now targets).
 */
class SourceFoldersTest {

    @Test
    void noSourceFolderHasANameTheIgnoreFilesLeaveOut() throws IOException {
        assertThat(Files.readString(Lab.repo().resolve(".gitignore")).lines()).contains("target/");
        assertThat(Files.readString(Lab.repo().resolve(".dockerignore")).lines()).contains("**/target/");
        List<Path> sources = new ArrayList<>();
        try (Stream<Path> modules = Files.list(Lab.repo())) {
            modules.map(m -> m.resolve("src")).filter(Files::isDirectory).forEach(sources::add);
        }
        assertThat(sources).as("the modules' source folders").hasSizeGreaterThanOrEqualTo(5);
        for (Path src : sources) {
            try (Stream<Path> dirs = Files.walk(src)) {
                assertThat(dirs.filter(Files::isDirectory).filter(d -> d.getFileName().toString().equals("target")).toList())
                        .as("folders under %s named target", src).isEmpty();
            }
        }
    }
}
