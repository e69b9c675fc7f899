package dev.latencylab.load.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

/**
 * A request the lab sends itself, against a real server on loopback: a whole answer as it came, a body past the cap
 * cut there and said so, a body that never ends stopped at the deadline, and a status read without its body.
 */
class BoundedAnswerTest {

    private HttpServer server;
    private final CountDownLatch released = new CountDownLatch(1);
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/small", e -> {
            byte[] body = "{\"status\":\"UP\"}".getBytes();
            e.sendResponseHeaders(200, body.length);
            try (OutputStream out = e.getResponseBody()) {
                out.write(body);
            }
        });
        server.createContext("/flood", e -> {
            e.sendResponseHeaders(200, 0);
            byte[] block = "x".repeat(1 << 20).getBytes();
            try (OutputStream out = e.getResponseBody()) {
                for (int i = 0; i < 9; i++) {
                    out.write(block);
                }
            }
        });
        server.createContext("/endless", e -> {
            e.sendResponseHeaders(503, 0); // chunked, and its last chunk never comes
            OutputStream out = e.getResponseBody();
            out.write("# HELP".getBytes());
            out.flush();
            try {
                released.await();
            }
            catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
            e.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        released.countDown();
        server.stop(0);
    }

    private HttpRequest get(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:%d%s".formatted(server.getAddress().getPort(), path)))
                .timeout(Duration.ofSeconds(5)).build();
    }

    @Test
    void aWholeAnswerAsItCameAndABodyPastTheCapCutThere() throws Exception {
        assertThat(BoundedAnswer.get(http, get("/small"), Duration.ofSeconds(10))).isEqualTo(new BoundedAnswer(200, "{\"status\":\"UP\"}", false));
        BoundedAnswer flood = BoundedAnswer.get(http, get("/flood"), Duration.ofSeconds(30));
        assertThat(flood.truncated()).isTrue();
        assertThat(flood.body()).hasSize(BoundedAnswer.MAX_BODY_BYTES);
    }

    @Test
    void aBodyThatNeverEndsStopsAtTheDeadlineAndAStatusIsReadWithoutIt() throws Exception {
        assertThat(BoundedAnswer.status(http, get("/endless"), Duration.ofSeconds(10))).as("the body is not waited for").isEqualTo(503);
        assertThat(BoundedAnswer.get(http, get("/endless"), Duration.ofSeconds(10), status -> status < 500).body())
                .as("a body read only where asked").isEmpty();
        assertThatThrownBy(() -> BoundedAnswer.get(http, get("/endless"), Duration.ofSeconds(1))).isInstanceOf(HttpTimeoutException.class)
                .hasMessage("GET %s: no whole answer within 1 s", get("/endless").uri());
    }
}
