package dev.latencylab.load.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A launch file as the build writes it (its main, in this JVM) and as ./lab and the runner read it. */
class LaunchFileTest {

    @TempDir
    Path tmp;

    @Test
    void theBuildWritesThisJvmsJavaAndClasspathThenTheOptionsAndTheyAreReadBack() throws IOException {
        Path file = tmp.resolve("target/gatling-launch.txt");
        LaunchFile.main(new String[] {file.toString(), "-Xmx4G", "--add-opens=java.base/java.lang=ALL-UNNAMED"});
        LaunchFile.Launch launch = LaunchFile.read(file);
        assertThat(launch.java()).isEqualTo(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        assertThat(Path.of(launch.java())).isExecutable();
        assertThat(launch.classpath()).isEqualTo(System.getProperty("java.class.path"));
        assertThat(launch.jvmOptions()).containsExactly("-Xmx4G", "--add-opens=java.base/java.lang=ALL-UNNAMED");
        assertThat(Files.readAllLines(file)).hasSize(4);
    }

    @Test
    void aFileCutShortSaysToBuildAgain() throws IOException {
        Path file = tmp.resolve("lab-launch.txt");
        Files.write(file, List.of("/usr/bin/java"));
        assertThatThrownBy(() -> LaunchFile.read(file)).isInstanceOf(IOException.class)
                .hasMessage(file + " holds no java and classpath lines: build again (./mvnw -DskipTests package)");
    }
}
