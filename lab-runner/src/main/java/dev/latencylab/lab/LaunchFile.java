package dev.latencylab.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Written by the build (package phase, on the JDK the toolchain selected): the java executable and the classpath
 * that {@code ./lab} starts the runner with, so that a call needs no Maven run once the build is fresh. The runner
 * is then the {@code ./lab} process itself: a signal to it reaches the runner, and its exit code is the runner's.
 */
public final class LaunchFile {

    private LaunchFile() {
    }

    /** @param args the file to write: line 1 the java executable, line 2 the classpath */
    public static void main(String[] args) throws IOException {
        Path file = Path.of(args[0]);
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.write(file, List.of(TargetProcess.javaExecutable(), System.getProperty("java.class.path")));
    }
}
