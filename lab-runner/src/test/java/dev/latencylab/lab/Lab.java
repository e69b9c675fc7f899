package dev.latencylab.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.latencylab.lab.run.FreePorts;
import dev.latencylab.lab.run.TargetProcess;

/** What the integration tests share: the repository, free ports, real targets, plain HTTP. */
public final class Lab {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private Lab() {
    }

    /** The repository root (failsafe passes it; the jars of both targets were built before this module). */
    public static Path repo() {
        return Path.of(System.getProperty("latency-lab.repo", "..")).toAbsolutePath().normalize();
    }

    /** A port that is free, and whose actuator port (+1000) is free too. */
    public static int freePort() {
        return FreePorts.port();
    }

    public static TargetProcess start(String module, int port, Map<String, String> properties, Map<String, String> env, Path log) {
        return TargetProcess.start(repo(), module, port, properties, env, List.of(), log, Duration.ofSeconds(90));
    }

    /** Copies a folder and everything under it (a published sweep, to change or rebuild it in a test's folder). */
    public static void copyTree(Path from, Path to) throws IOException {
        try (var files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                }
                else {
                    Files.copy(f, target);
                }
            }
        }
    }

    /** The java that starts targets (this JVM's) and a module's jar, as TargetProcess finds them. */
    public static String java() {
        return dev.latencylab.load.launch.LaunchFile.javaExecutable();
    }

    public static Path jar(String module) {
        return TargetProcess.jar(repo(), module);
    }

    /** Polls url/actuator/health for at most 90 s; returns the body of the first 200. */
    public static String awaitHealth(String managementUrl) throws InterruptedException {
        HttpResponse<String> r = pollHealth(managementUrl, 200, Duration.ofSeconds(90));
        if (r == null || r.statusCode() != 200) {
            throw new IllegalStateException("no health at " + managementUrl + " within 90 s");
        }
        return r.body();
    }

    /**
     * Polls url/actuator/health until it answers the status, for at most 60 s: health follows a dependency's state by a
     * moment, and one request lost on a busy machine must not decide a test. Returns the last status seen, 0 when none
     * answered.
     */
    public static int awaitHealthStatus(String managementUrl, int status) throws InterruptedException {
        HttpResponse<String> r = pollHealth(managementUrl, status, Duration.ofSeconds(60));
        return r == null ? 0 : r.statusCode();
    }

    /**
     * How long one health request may take: with its database gone, a target's health waits for a connection as long
     * as its pool lets a request wait (3 s for HikariCP here, up to 6 s for r2dbc-pool), which a shorter timeout never
     * sees end (CI's flake: no answer in 30 s of 2-s requests).
     */
    private static final Duration HEALTH_ANSWER = Duration.ofSeconds(15);

    private static HttpResponse<String> pollHealth(String managementUrl, int status, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        HttpResponse<String> last = null;
        while (System.nanoTime() < deadline) {
            try {
                last = HTTP.send(HttpRequest.newBuilder(URI.create(managementUrl + "/actuator/health"))
                        .timeout(HEALTH_ANSWER).build(), HttpResponse.BodyHandlers.ofString());
                if (last.statusCode() == status) {
                    return last;
                }
            }
            catch (IOException notYet) {
                // not listening yet, or this request was lost: ask again
            }
            Thread.sleep(250);
        }
        return last;
    }

    public static HttpResponse<String> get(String url) {
        return get(url, Duration.ofSeconds(30));
    }

    /** A GET that fails (UncheckedIOException) when no answer came within timeout. */
    public static HttpResponse<String> get(String url, Duration timeout) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(timeout).build(),
                    HttpResponse.BodyHandlers.ofString());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static final Pattern VALUE = Pattern.compile("\"value\"\\s*:\\s*(-?[0-9.eE+]+)");

    /** A metric of the running target, read from its actuator; Tomcat's of the request connector. */
    public static double metric(TargetProcess target, String name) {
        return metric(target.metricsUrl(), URI.create(target.baseUrl()).getPort(), name);
    }

    /** A metric of the target's, of the samples with one tag (e.g. "state:leased"). */
    public static double metric(TargetProcess target, String name, String tag) {
        return read(target.metricsUrl() + "/actuator/metrics/" + name + "?tag=" + tag, name, Duration.ofSeconds(30));
    }

    /**
     * A metric polled while something is under way: its answer is awaited only for within (a metrics read takes
     * milliseconds; CI once waited 30 s for one that never came), and tag may be null.
     */
    public static double poll(TargetProcess target, String name, String tag, Duration within) {
        return read(target.metricsUrl() + "/actuator/metrics/" + name + (tag == null ? "" : "?tag=" + tag), name, within);
    }

    /** A metric read from the actuator at metricsUrl, of a target whose requests connector listens on port. */
    public static double metric(String metricsUrl, int port, String name) {
        String tag = name.startsWith("tomcat.") ? "?tag=name:http-nio-" + port : "";
        return read(metricsUrl + "/actuator/metrics/" + name + tag, name, Duration.ofSeconds(30));
    }

    private static double read(String url, String name, Duration within) {
        HttpResponse<String> r = get(url, within);
        Matcher m = VALUE.matcher(r.body());
        if (r.statusCode() != 200 || !m.find()) {
            throw new IllegalStateException(name + ": HTTP " + r.statusCode() + " " + r.body());
        }
        return Double.parseDouble(m.group(1));
    }
}
