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
}
