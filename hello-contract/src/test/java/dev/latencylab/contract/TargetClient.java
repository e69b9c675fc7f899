package dev.latencylab.contract;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import com.jayway.jsonpath.JsonPath;

/** A plain HTTP client for tests against a running target (real server, real loopback socket). */
public record TargetClient(String baseUrl) {

    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    public static TargetClient onPort(int port) {
        return new TargetClient("http://127.0.0.1:" + port);
    }

    public record Response(int status, String contentType, String body, Duration elapsed) {
    }

    public Response get(String path) {
        return send(path).join();
    }

    /** Sends n requests at once, each on its own connection; answers sorted by elapsed time, fastest first. */
    public List<Response> concurrently(int n, String path) {
        List<CompletableFuture<Response>> calls = IntStream.range(0, n).mapToObj(i -> send(path)).toList();
        return calls.stream().map(CompletableFuture::join).sorted(Comparator.comparing(Response::elapsed)).toList();
    }

    /** The first measurement of an actuator metric, read from the running server. */
    public double metric(String name) {
        Response r = get("/actuator/metrics/" + name);
        if (r.status() != 200) {
            throw new IllegalStateException("metric " + name + ": HTTP " + r.status() + " " + r.body());
        }
        return ((Number) JsonPath.read(r.body(), "$.measurements[0].value")).doubleValue();
    }

    private CompletableFuture<Response> send(String path) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(30)).build();
        long start = System.nanoTime();
        return HTTP.sendAsync(request, HttpResponse.BodyHandlers.ofString()).thenApply(r -> new Response(r.statusCode(),
                r.headers().firstValue("Content-Type").orElse(""), r.body(), Duration.ofNanos(System.nanoTime() - start)));
    }
}
