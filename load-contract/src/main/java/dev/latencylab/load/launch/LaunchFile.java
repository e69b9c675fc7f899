package dev.latencylab.load.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Written by the build (package phase, on the JDK the toolchain selected): the java executable, the classpath and the
 * JVM options a program is started with, so that a start needs no Maven run once the build is fresh. {@code ./lab}
 * starts the runner from lab-runner's (target/lab-launch.txt), the runner starts the simulation's Gatling JVM from
 * gatling-scripts' (target/gatling-launch.txt); on JDK 25 each with an {@link AotCache} the build adds.
 */
public final class LaunchFile {

    /** What a launch file holds. */
    public record Launch(String java, String classpath, List<String> jvmOptions) {
    }

    private LaunchFile() {
    }

    /** @param args the file to write, then the JVM options: line 1 the java executable, line 2 the classpath, then an option a line */
    public static void main(String[] args) throws IOException {
        Path file = Path.of(args[0]);
        Files.createDirectories(file.toAbsolutePath().getParent());
        List<String> lines = new ArrayList<>(List.of(javaExecutable(), System.getProperty("java.class.path")));
        lines.addAll(List.of(args).subList(1, args.length));
        Files.write(file, lines);
    }

    /** The java of the JVM this runs in: the build's toolchain JDK, which the runner and the targets run on too. */
    public static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The launch as {@link #main} writes it: java, classpath, then an option a line. */
    public static void write(Path file, Launch launch) throws IOException {
        List<String> lines = new ArrayList<>(List.of(launch.java(), launch.classpath()));
        lines.addAll(launch.jvmOptions());
        Files.write(file, lines);
    }

    public static Launch read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        if (lines.size() < 2) {
            throw new IOException(file + " holds no java and classpath lines: build again (./mvnw -DskipTests package)");
        }
        return new Launch(lines.get(0), lines.get(1), List.copyOf(lines.subList(2, lines.size())));
    }
}
