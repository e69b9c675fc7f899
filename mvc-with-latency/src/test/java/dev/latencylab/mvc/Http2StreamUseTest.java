package dev.latencylab.mvc;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import dev.latencylab.contract.TargetClient;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;

/**
 * Tomcat's HTTP/2 streams as a pool the lab reads: six requests at once on one HTTP/2 connection (h2c, the JDK's
 * client multiplexing them) with 2 let run at a time; the gauges show 2 running on 1 connection, that connection at
 * its limit, and the limit; the others waited in Tomcat, so six 300-ms requests took three rounds.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"server.http2.enabled=true", "spring.threads.virtual.enabled=true", Http2Streams.MAX_EXECUTION + "=2"})
class Http2StreamUseTest {

    @Autowired
    Environment environment;

    @Test
    void aConnectionRunsItsLimitAtOnceAndTheGaugesSaySo() {
        TargetClient target = TargetClient.of(environment);
        HttpClient h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        // the first request upgrades the connection to h2c; the next ones are streams on it
        HttpResponse<String> first = h2.sendAsync(get(target, "/hello"), HttpResponse.BodyHandlers.ofString()).join();
        assertThat(first.version()).isEqualTo(HttpClient.Version.HTTP_2);
        List<CompletableFuture<HttpResponse<String>>> six = IntStream.range(0, 6)
                .mapToObj(i -> h2.sendAsync(get(target, "/hello/300"), HttpResponse.BodyHandlers.ofString())).toList();

        assertThat(target.awaitMetric("latency.lab.http2.streams.executing", 2)).isEqualTo(2);
        assertThat(target.metric("latency.lab.http2.connections.executing")).isEqualTo(1);
        assertThat(target.metric("latency.lab.http2.connections.full")).isEqualTo(1);
        assertThat(target.metric("latency.lab.http2.stream.execution.max")).isEqualTo(2);
        six.forEach(r -> assertThat(r.join().statusCode()).isEqualTo(200));
        assertThat(six).allSatisfy(r -> assertThat(r.join().version()).isEqualTo(HttpClient.Version.HTTP_2));
        assertThat(target.awaitMetric("latency.lab.http2.connections.executing", 0)).as("none kept once done").isZero();
        assertThat(target.metric("hello.waiting.peak")).as("never more than the limit slept at once").isEqualTo(2);
        assertThat(target.metric("latency.lab.http2.stream")).as("the first and the six timed").isEqualTo(7);
    }

    private static HttpRequest get(TargetClient target, String path) {
        return HttpRequest.newBuilder(URI.create(target.baseUrl() + path)).build();
    }
}
