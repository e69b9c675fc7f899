package dev.latencylab.lab.compose;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.latencylab.lab.Lab;

/**
 * The container engine of ComposeContainersIT: podman's Docker-compatible service on a socket of the test's own, which
 * docker-compose drives through DOCKER_HOST, and podman's own command line beside it. Every command's output is kept in
 * a log file of the test's folder.
 */
final class Podman implements AutoCloseable {

    /** Where each command's console goes, numbered in order. */
    private final Path logs;
    private final Map<String, String> environment = new LinkedHashMap<>();
    private final Process service;
    private final AtomicInteger commands = new AtomicInteger();

    private Podman(Path logs, Process service, Map<String, String> environment) {
        this.logs = logs;
        this.service = service;
        this.environment.putAll(environment);
    }

    /** What a command printed and how it ended (its log holds the command line above the output). */
    record Finished(int exitCode, String output, Path log) {
    }

    /** Starts podman's service on a socket in {@code logs} (CONTAINERS_CONF: this test's settings, /etc left alone). */
    static Podman start(Path logs) throws IOException, InterruptedException {
        for (String tool : List.of("podman", "docker-compose", "debootstrap")) {
            assertThat(onPath(tool)).as("%s is not installed: apt-get install podman runc docker-compose debootstrap (.ci/run does)", tool)
                    .isTrue();
        }
        Path config = Lab.repo().resolve("lab-runner/src/test/resources/compose/containers.conf");
        Path socket = logs.resolve("podman.sock");
        Map<String, String> environment = Map.of("CONTAINERS_CONF", config.toString(), "DOCKER_HOST", "unix://" + socket);
        ProcessBuilder builder = new ProcessBuilder("podman", "system", "service", "--time=0", "unix://" + socket)
                .redirectErrorStream(true).redirectOutput(logs.resolve("podman-service.log").toFile());
        builder.environment().putAll(environment);
        Podman podman = new Podman(logs, builder.start(), environment);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!Files.exists(socket) && podman.service.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertThat(Files.exists(socket)).as("podman's service listens on %s (%s)", socket, logs.resolve("podman-service.log")).isTrue();
        return podman;
    }

    private static boolean onPath(String tool) {
        return List.of(System.getenv().getOrDefault("PATH", "").split(":")).stream()
                .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, tool)));
    }

    /** The variables every command gets (the engine's socket and settings), and those added with {@link #set}. */
    Map<String, String> environment() {
        return Map.copyOf(environment);
    }

    void set(Map<String, String> variables) {
        environment.putAll(variables);
    }

    /** Runs a command with the engine's environment plus {@code variables}, to its end within {@code bound}. */
    Finished run(Duration bound, Map<String, String> variables, List<String> command) {
        Started started = start(variables, command);
        return started.await(bound);
    }

    Finished podman(String... args) {
        List<String> command = new ArrayList<>(List.of("podman"));
        command.addAll(List.of(args));
        return run(Duration.ofMinutes(2), Map.of(), command);
    }

    /** A command under way. */
    final class Started {
        private final Process process;
        private final Path log;
        private final List<String> command;

        private Started(Process process, Path log, List<String> command) {
            this.process = process;
            this.log = log;
            this.command = command;
        }

        boolean isAlive() {
            return process.isAlive();
        }

        Finished await(Duration bound) {
            try {
                if (!process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                    throw new AssertionError("%s did not end within %s: %s".formatted(command, bound, log));
                }
                String console = Files.readString(log, StandardCharsets.UTF_8);
                return new Finished(process.exitValue(), console.substring(console.indexOf('\n') + 1), log);
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    Started start(Map<String, String> variables, List<String> command) {
        Path log = logs.resolve("command-%02d-%s.log".formatted(commands.incrementAndGet(), Path.of(command.get(0)).getFileName()));
        ProcessBuilder builder = new ProcessBuilder(command).directory(Lab.repo().toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        builder.environment().putAll(variables);
        try {
            Files.writeString(log, String.join(" ", command) + System.lineSeparator());
            builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            return new Started(builder.start(), log, command);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws InterruptedException {
        service.destroy();
        if (!service.waitFor(30, TimeUnit.SECONDS)) {
            service.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }
}
