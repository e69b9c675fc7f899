package dev.latencylab.load.preflight;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntUnaryOperator;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.latencylab.load.settings.SimulationSettings;

/**
 * The path under test checked once before the load, against a real server on loopback: a 5xx is a server under load
 * (the warm-up runs while the load's JVM starts) or failing, asked again until the load would begin and a while after;
 * a 4xx is the path, refused at once; a 3xx a redirect not followed; a failed TLS handshake names the certificate only
 * where it could be the cause.
 */
class PreflightServerErrorTest {

    private HttpServer server;
    private final AtomicInteger asked = new AtomicInteger();

    /** A server whose n-th answer (from 1) has the status the function gives. */
    private SimulationSettings serving(IntUnaryOperator status) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/x", exchange -> {
            byte[] body = "busy".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status.applyAsInt(asked.incrementAndGet()), body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        Properties p = new Properties();
        p.setProperty("base.url", "http://127.0.0.1:" + server.getAddress().getPort());
        p.setProperty("test.path", "/x");
        return SimulationSettings.from(p);
    }

    @AfterEach
    void stop() {
        if (server != null) { // the handshake's words need no server
            server.stop(0);
        }
    }

    private static void check(SimulationSettings s, Duration patience) {
        Preflight.requireOk(s, s.endpoint().mix().requests().get(0), patience);
    }

    @Test
    void aServerErrorWhileTheWarmUpSaturatesTheTargetIsAskedAgain() throws IOException {
        SimulationSettings s = serving(n -> n <= 3 ? 503 : 200);
        check(s, Duration.ofSeconds(5));
        assertThat(asked).as("three 503s, then its 200").hasValue(4);
    }

    @Test
    void aServerErrorThatLastsRefusesTheRunWithoutBlamingThePath() throws IOException {
        SimulationSettings s = serving(n -> 503);
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> check(s, Duration.ofSeconds(1))).isInstanceOf(Preflight.PreflightException.class)
                .hasMessageContaining("with HTTP 503, a server error, still 1 s after the load would have begun")
                .hasMessageContaining("Check the target").hasMessageNotContaining("test.path").hasMessageEndingWith("busy");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("asked again for its patience").isGreaterThanOrEqualTo(Duration.ofSeconds(1));
        assertThat(asked.get()).isGreaterThan(1);
    }

    @Test
    void aClientErrorIsThePathRefusedAtOnce() throws IOException {
        SimulationSettings s = serving(n -> 404);
        assertThatThrownBy(() -> check(s, Duration.ofSeconds(5))).isInstanceOf(Preflight.PreflightException.class)
                .hasMessageContaining("with HTTP 404, not 2xx").hasMessageContaining("Fix the path (--url, or test.path)");
        assertThat(asked).as("asked once").hasValue(1);
    }

    /** A failed handshake names what to change: the certificate, or, where none was checked or no protocol agreed, not it. */
    @Test
    void aHandshakeThatFailedNamesTheCertificateOnlyWhereItCouldBeIt() {
        String url = "https://127.0.0.1:8443";
        javax.net.ssl.SSLHandshakeException untrusted = new javax.net.ssl.SSLHandshakeException(
                "PKIX path building failed: unable to find valid certification path to requested target");
        javax.net.ssl.SSLHandshakeException old = new javax.net.ssl.SSLHandshakeException(
                "No appropriate protocol (protocol is disabled or cipher suites are inappropriate)");
        assertThat(Preflight.handshakeFailed(url, untrusted, false)).contains("A certificate the load does not trust: give ./lab --ca-cert FILE");
        assertThat(Preflight.handshakeFailed(url, untrusted, true)).as("with --insecure no certificate is checked")
                .contains("Not its certificate (none is checked with --insecure)").doesNotContain("--ca-cert FILE");
        assertThat(Preflight.handshakeFailed(url, old, false)).as("a TLS 1.0 server").contains("agreed on no protocol or cipher")
                .contains("TLS 1.2 or 1.3").doesNotContain("--ca-cert FILE");
    }

    @Test
    void aRedirectIsSaidAsOneNotAsAWrongPath() throws IOException {
        SimulationSettings s = serving(n -> 302);
        assertThatThrownBy(() -> check(s, Duration.ofSeconds(5))).isInstanceOf(Preflight.PreflightException.class)
                .hasMessageContaining("with HTTP 302, a redirect: the load follows none").hasMessageContaining("Give the URL it redirects to")
                .hasMessageNotContaining("Fix");
        assertThat(asked).as("asked once").hasValue(1);
    }
}
