package dev.latencylab.mvc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.latencylab.contract.HelloContractTests;
import dev.latencylab.contract.TargetClient;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class MvcContractTest extends HelloContractTests {

    @Autowired
    Environment environment;

    @Autowired
    org.springframework.context.ApplicationContext context;

    /** Nothing set: Spring Boot's default pool, the 200 of the mvc target id. */
    @Test
    void thePoolIsSpringBootsDefault() {
        assertThat(RunningPool.maxThreads(context)).isEqualTo(200);
    }

    @Override
    protected TargetClient target() {
        return TargetClient.of(environment);
    }

    /** The blocking model: a sleeping thread cannot notice that its client left, and waits to the end. */
    @Test
    void aClientThatLeavesStillHoldsItsThreadForTheWholeLatency() {
        TargetClient target = target();
        double waited = target.metric("hello.waited");
        double cancelled = target.metric("hello.cancelled");
        long start = System.nanoTime();

        target.abandon("/hello/1500", Duration.ofMillis(300));

        target.awaitMetric("hello.waited", waited + 1);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("the thread slept the whole latency").isGreaterThanOrEqualTo(Duration.ofMillis(1500));
        assertThat(target.metric("hello.cancelled")).isEqualTo(cancelled);
    }

    /**
     * A request line without a protocol, or with a garbled one, is HTTP/0.9 to Tomcat, which has no status line: the
     * answer is the problem's body alone (README says so; Reactor Netty answers such a line 400 with an empty body).
     */
    @ParameterizedTest
    @ValueSource(strings = {"GARBAGE LINE\r\n\r\n", "GET /hello/10 HTTP/1.1 extra\r\nHost: a\r\n\r\n"})
    void aRequestLineTomcatReadsAsHttp09IsAnsweredWithTheProblemAlone(String request) throws IOException {
        URI uri = URI.create(target().baseUrl());
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat(answer).doesNotStartWith("HTTP/").startsWith("{").contains("\"status\":400");
        }
    }
}
