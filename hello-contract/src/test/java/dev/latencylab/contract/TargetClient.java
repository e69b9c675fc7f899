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

    /**
     * A Tomcat metric of the request connector alone: the actuator's own port has a connector of its own, with the
     * same metric names.
     */
    public double tomcatMetric(String name) {
        return metric(name + "?tag=name:http-nio-" + URI.create(baseUrl).getPort());
    }

    private CompletableFuture<Response> send(String url) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build();
        long start = System.nanoTime();
        return HTTP.sendAsync(request, HttpResponse.BodyHandlers.ofString()).thenApply(r -> new Response(r.statusCode(),
                r.headers().firstValue("Content-Type").orElse(""), r.body(), Duration.ofNanos(System.nanoTime() - start)));
    }
}
