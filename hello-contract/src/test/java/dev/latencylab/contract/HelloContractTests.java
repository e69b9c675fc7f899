package dev.latencylab.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The HTTP contract, run against each target by a subclass in that target's module, so both answer the same
 * requests with the same status and body shape.
 */
public abstract class HelloContractTests {

    /** The running target, default settings. */
    protected abstract TargetClient target();

    @Test
    void latencyIsHonored() {
        TargetClient.Response r = target().get("/hello/150");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body()).isEqualTo(Hello.BODY);
        assertThat(r.elapsed()).isGreaterThanOrEqualTo(Duration.ofMillis(150));
    }

    @Test
    void noLatencyDoesNotWait() {
        double waitedBefore = target().metric("hello.waited");
        for (String path : new String[] {"/hello", "/hello/0"}) {
            TargetClient.Response r = target().get(path);
            assertThat(r.status()).as(path).isEqualTo(200);
            assertThat(r.body()).as(path).isEqualTo(Hello.BODY);
        }
        assertThat(target().metric("hello.waited")).as("requests that waited").isEqualTo(waitedBefore);
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "60001", "abc", "1.5", "1e3", "99999999999999999999"})
    void badLatencyIsAProblem(String latency) {
        double waitedBefore = target().metric("hello.waited");
        TargetClient.Response r = target().get("/hello/" + latency);

        assertThat(r.status()).isEqualTo(400);
        assertThat(r.contentType()).startsWith("application/problem+json");
        Map<String, Object> problem = JsonPath.read(r.body(), "$");
        assertThat(problem).containsOnlyKeys("title", "status", "detail", "instance", "parameter", "value", "allowed");
        assertThat(problem).containsEntry("status", 400)
                .containsEntry("title", "Invalid request parameter")
                .containsEntry("parameter", "latency")
                .containsEntry("value", latency)
                .containsEntry("instance", "/hello/" + latency)
                .containsEntry("allowed", "a whole number of milliseconds from 0 to 60000 (cap: latency.max-ms)");
        assertThat((String) problem.get("detail")).startsWith("latency '" + latency + "' is ");
        // A rejected request never sleeps, not even a huge one.
        assertThat(target().metric("hello.waited")).as("requests that waited").isEqualTo(waitedBefore);
    }

    /** Requests the server cannot read are problems too, not an HTML page or a 200 (RFC 9112, section 3.2). */
    @ParameterizedTest
    @ValueSource(strings = {
            "GET /hello HTTP/1.1\r\nConnection: close\r\n\r\n",
            "GET /hello HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n",
            "GET /hello/..%2f HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"})
    void malformedRequestIsAProblem(String request) {
        TargetClient.Response r = target().raw(request);
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.contentType()).startsWith("application/problem+json");
        Map<String, Object> problem = JsonPath.read(r.body(), "$");
        assertThat(problem).containsEntry("status", 400).containsKey("detail");
    }

    @Test
    void http10WithoutHostIsServed() {
        TargetClient.Response r = target().raw("GET /hello HTTP/1.0\r\n\r\n");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body()).isEqualTo(Hello.BODY);
    }

    @Test
    void unknownPathAndMethodAreProblems() {
        TargetClient.Response notFound = target().raw("GET /nope HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
        assertThat(notFound.status()).isEqualTo(404);
        assertThat(notFound.contentType()).startsWith("application/problem+json");
        TargetClient.Response post = target().raw("POST /hello/5 HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        assertThat(post.status()).isEqualTo(405);
        assertThat(post.contentType()).startsWith("application/problem+json");
    }
}
