package dev.latencylab.lab.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.latencylab.load.launch.LaunchFile;

/**
 * A jar of the user's, started by the lab for one run and stopped after it (./lab run --jar): its JVM options and
 * arguments as given, the flight recording every target has, its output in the run's folder. It counts as started
 * when the service's URL answers (any status: the service decides what its path returns), having been free before;
 * a watchdog shell stops it if the runner itself is killed, as the lab's own targets stop themselves.
 */
public final class ServiceJar implements AutoCloseable {

    private static final long POLL_MS = 100;

    /** The most of a jar's output its log keeps: a service that prints in a loop must not fill the disk. */
    static final long MAX_LOG_MB = 64;

    private final Process process;
    private final Process watchdog;
    private final OutputCopy output;
    /** How long it has to end on SIGTERM before it is killed. */
    private final Duration stopTimeout;
    private volatile boolean killed;

    private ServiceJar(Process process, Process watchdog, OutputCopy output, Duration stopTimeout) {
        this.stopTimeout = stopTimeout;
        this.process = process;
        this.watchdog = watchdog;
        this.output = output;
    }

    /**
     * Copies the jar's output into its log up to MAX_LOG_MB, then says so there and reads the rest without keeping it (a
     * pipe left unread would block the service).
     */
    private static final class OutputCopy {
        private final Thread thread;
        private volatile boolean cut;

        OutputCopy(java.io.InputStream from, Path log) {
            thread = Thread.ofPlatform().daemon().name("latency-lab-jar-output").start(() -> copy(from, log));
        }

        private void copy(java.io.InputStream from, Path log) {
            long left = MAX_LOG_MB << 20;
            byte[] buffer = new byte[64 * 1024];
            try (from; java.io.OutputStream to = Files.newOutputStream(log, java.nio.file.StandardOpenOption.APPEND)) {
                for (int n = from.read(buffer); n >= 0; n = from.read(buffer)) {
                    if (left > 0) {
                        to.write(buffer, 0, (int) Math.min(n, left));
                        to.flush();
                        left -= n;
                        if (left <= 0) {
                            cut = true;
                            to.write(("%n[latency-lab: the jar's output passed %d MB; the rest is not kept]%n".formatted(MAX_LOG_MB))
                                    .getBytes(java.nio.charset.StandardCharsets.UTF_8));
                            to.flush();
                        }
                    }
                }
            }
            catch (IOException e) {
                // the jar's output ended, or the log cannot be written: the run goes on without it
            }
        }

        void await() {
            try {
                thread.join(java.time.Duration.ofSeconds(5));
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Starts java [jvmOptions] -jar jar [args] and waits until url answers.
     *
     * @throws TargetProcess.TargetFailedException when the port is taken before, the JVM exits, or url does not answer in time
     */
    public static ServiceJar start(Path jar, List<String> jvmOptions, List<String> args, String url, Path log, Duration timeout,
            Duration stopTimeout) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException("--jar %s: no such file".formatted(jar));
        }
        URI uri = URI.create(url);
        requireFree(uri);
        List<String> command = new ArrayList<>(List.of(LaunchFile.javaExecutable()));
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", jar.toAbsolutePath().toString()));
        command.addAll(args);
        Process process;
        try {
            Files.createDirectories(log.toAbsolutePath().getParent());
            Files.writeString(log, String.join(" ", command) + System.lineSeparator());
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        }
        catch (IOException e) {
            throw new TargetProcess.TargetFailedException("cannot start " + String.join(" ", command) + ": " + e.getMessage());
        }
        ServiceJar started = new ServiceJar(process, watchdog(process.pid()), new OutputCopy(process.getInputStream(), log), stopTimeout);
        try {
            started.awaitAnswer(uri, timeout, log);
        }
        catch (RuntimeException e) {
            started.close();
            throw e;
        }
        return started;
    }

    /** Nothing may answer on the URL's port before the jar starts: the run would measure that other process. */
    private static void requireFree(URI uri) {
        int port = uri.getPort() == -1 ? 80 : uri.getPort();
        try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getByName(uri.getHost()))) {
            probe.setReuseAddress(true);
        }
        catch (IOException e) {
            throw new TargetProcess.TargetFailedException(("port %d is in use before --jar started: stop what listens there, or "
                    + "drop --jar to load it as it is").formatted(port));
        }
    }

    private void awaitAnswer(URI uri, Duration timeout, Path log) {
        // trusting what the load trusts: a handshake refused is no answer
        HttpClient http = dev.latencylab.load.tls.TlsTrust.ofThisJvm().httpClient(Duration.ofSeconds(2));
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new TargetProcess.TargetFailedException("the jar's JVM exited with code %d before %s answered; see %s"
                        .formatted(process.exitValue(), uri, log));
            }
            try {
                dev.latencylab.load.metrics.BoundedAnswer.status(http, HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(2)).build(),
                        Duration.ofSeconds(2));
                return;
            }
            catch (IOException e) {
                // not listening yet
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TargetProcess.TargetFailedException("interrupted while waiting for the jar");
            }
            TargetProcess.sleep(POLL_MS);
        }
        throw new TargetProcess.TargetFailedException("%s did not answer within %d s of the jar's start; see %s".formatted(uri, timeout.toSeconds(), log));
    }

    /** A shell child of this runner that stops the jar's JVM (SIGTERM) once the runner is gone, even killed by SIGKILL. */
    private static Process watchdog(long pid) {
        String script = "while kill -0 \"$0\" 2>/dev/null; do sleep 1; done; kill -TERM \"$1\" 2>/dev/null";
        try {
            return new ProcessBuilder("sh", "-c", script, String.valueOf(ProcessHandle.current().pid()), String.valueOf(pid))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true).start();
        }
        catch (IOException e) {
            throw new UncheckedIOException("could not start the jar's watchdog", e);
        }
    }

    public long pid() {
        return process.pid();
    }

    /** Stops the jar's JVM (SIGTERM, then SIGKILL after its stop timeout), so that its flight recording is written, and its watchdog. */
    @Override
    public void close() {
        watchdog.destroy();
        killed |= TargetProcess.stop(process, stopTimeout);
        output.await();
    }

    /** Whether it ignored SIGTERM and was killed: it wrote no flight recording then. */
    public boolean killed() {
        return killed;
    }

    /** Whether its output passed MAX_LOG_MB: its log keeps the first MAX_LOG_MB only. */
    public boolean outputCut() {
        return output.cut;
    }
}
