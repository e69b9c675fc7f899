package dev.latencylab.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.latencylab.lab.run.FreePorts;
import dev.latencylab.load.launch.LaunchFile;
import dev.latencylab.lab.run.TargetProcess;

/**
 * The example service (example-service/, not one of the lab's targets) started by hand, as a user starts theirs:
 * java -jar with their arguments, its database its own; stopped by PID after the test.
 */
final class ExampleServiceJar implements AutoCloseable {

    static final String MODULE = "example-service";

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private final Process process;
    final int port;

    private ExampleServiceJar(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    static Path jar() {
        return TargetProcess.jar(Lab.repo(), MODULE);
    }

    /** java -jar example-service.jar --server.port=PORT [args], once its health answers (at most 120 s). */
    static ExampleServiceJar start(Path log, String... args) throws InterruptedException {
        return start(List.of(), log, args);
    }

    /** The same, behind a prefix command (e.g. a CPU's taskset). */
    static ExampleServiceJar start(List<String> prefix, Path log, String... args) throws InterruptedException {
        int port = FreePorts.port();
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of(LaunchFile.javaExecutable(), "-jar", jar().toString(), "--server.port=" + port));
        command.addAll(List.of(args));
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ExampleServiceJar started = new ExampleServiceJar(process, port);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline && process.isAlive()) {
            try {
                if (HTTP.send(HttpRequest.newBuilder(URI.create(started.url("/actuator/health"))).timeout(Duration.ofSeconds(10)).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return started;
                }
            }
            catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        started.close();
        throw new IllegalStateException("the example service did not become healthy; see " + log);
    }

    String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    long pid() {
        return process.pid();
    }

    /** SIGTERM (it stops its own PostgreSQL after itself), then SIGKILL after 30 s. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
