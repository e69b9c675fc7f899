package dev.latencylab.contract;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import com.jayway.jsonpath.JsonPath;

import org.springframework.core.env.Environment;

/** A plain HTTP client for tests against a running target (real server, real loopback socket). */
public record TargetClient(String baseUrl, String managementUrl) {

    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    public static TargetClient onPorts(int port, int managementPort) {
        return new TargetClient("http://127.0.0.1:" + port, "http://127.0.0.1:" + managementPort);
    }

    /** The server a @SpringBootTest started on random ports. */
    public static TargetClient of(Environment environment) {
        return onPorts(environment.getRequiredProperty("local.server.port", Integer.class),
                environment.getRequiredProperty("local.management.port", Integer.class));
    }

    public record Response(int status, String contentType, String body, Duration elapsed) {
    }

    public Response get(String path) {
        return send(baseUrl + path).join();
    }

    /** Sends n requests at once, each on its own connection; answers sorted by elapsed time, fastest first. */
    public List<Response> concurrently(int n, String path) {
        List<CompletableFuture<Response>> calls = IntStream.range(0, n).mapToObj(i -> send(baseUrl + path)).toList();
        return calls.stream().map(CompletableFuture::join).sorted(Comparator.comparing(Response::elapsed)).toList();
    }

    /** The first measurement of an actuator metric, read from the running server's management port. */
    public double metric(String name) {
        Response r = send(managementUrl + "/actuator/metrics/" + name).join();
        if (r.status() != 200) {
            throw new IllegalStateException("metric " + name + ": HTTP " + r.status() + " " + r.body());
        }
        return ((Number) JsonPath.read(r.body(), "$.measurements[0].value")).doubleValue();
    }

    /** Waits (at most 30 s) until the metric reaches the value, and returns it; fails with the last value read. */
    public double awaitMetric(String name, double value) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        double now = metric(name);
        while (now != value && System.nanoTime() < deadline) {
            try {
                Thread.sleep(50);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            now = metric(name);
        }
        if (now != value) {
            throw new AssertionError("metric " + name + " stayed at " + now + ", expected " + value);
        }
        return now;
    }

    /**
     * A Tomcat metric of the request connector alone: the actuator's own port has a connector of its own, with the
     * same metric names.
     */
    public double tomcatMetric(String name) {
        return metric(name + "?tag=name:http-nio-" + URI.create(baseUrl).getPort());
    }

    /**
     * Sends bytes as they are (what an HTTP client library would refuse to send: no Host, two Hosts) on a socket of
     * its own, and reads the answer until the server closes.
     */
    public Response raw(String request) {
        URI uri = URI.create(baseUrl);
        long start = System.nanoTime();
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            int split = answer.indexOf("\r\n\r\n");
            String head = split < 0 ? answer : answer.substring(0, split);
            String contentType = head.lines().filter(l -> l.toLowerCase().startsWith("content-type:"))
                    .map(l -> l.substring(13).trim()).findFirst().orElse("");
            int status = Integer.parseInt(head.split(" ", 3)[1]);
            return new Response(status, contentType, split < 0 ? "" : answer.substring(split + 4), Duration.ofNanos(System.nanoTime() - start));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends GET path, then leaves after the given time without reading the answer, as a client that gives up. */
    public void abandon(String path, Duration after) {
        URI uri = URI.create(baseUrl);
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: " + uri.getHost() + "\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            Thread.sleep(after);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private CompletableFuture<Response> send(String url) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build();
        long start = System.nanoTime();
        return HTTP.sendAsync(request, HttpResponse.BodyHandlers.ofString()).thenApply(r -> new Response(r.statusCode(),
                r.headers().firstValue("Content-Type").orElse(""), r.body(), Duration.ofNanos(System.nanoTime() - start)));
    }
}
