package dev.latencylab.lab.targets;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.json.JsonMapper;

import dev.latencylab.lab.Lab;
import dev.latencylab.lab.run.TargetProcess;

/**
 * Both targets' /http against a real downstream service (the WebFlux jar in a process of its own), each through its
 * stack's pooled client with 2 connections: served, blocking visible when 4 requests share 2 connections, a pool that
 * stays busy, a downstream that does not answer and one that is stopped each a fast problem naming it and the timeout,
 * and served again once the downstream is back. Who waits is read from the pool's own gauges, polled, not from clocks;
 * times are lower bounds, and upper bounds only as "no request hangs".
 */
class DownstreamIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final Duration POLL = Duration.ofSeconds(2);

    @TempDir
    Path logs;

    /** A finished GET: its status, body and how long it took. */
    private record Timed(int status, String body, long ms) {
    }

    private static Timed timedGet(String url) {
        long t0 = System.nanoTime();
        HttpResponse<String> r = Lab.get(url);
        return new Timed(r.statusCode(), r.body(), (System.nanoTime() - t0) / 1_000_000);
    }

    /** n GETs of url at once, on threads of pool: their answers to come. */
    private static List<Future<Timed>> start(ExecutorService pool, int n, String url) {
        List<Future<Timed>> futures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            futures.add(pool.submit(() -> timedGet(url)));
        }
        return futures;
    }

    private static List<Timed> answers(List<Future<Timed>> futures) throws Exception {
        List<Timed> done = new ArrayList<>();
        for (Future<Timed> f : futures) {
            done.add(f.get(30, TimeUnit.SECONDS));
        }
        done.sort(Comparator.comparingLong(Timed::ms));
        return done;
    }

    /**
     * Polls a gauge until it reads at least value (true), or until the requests are all answered (false). A read with no
     * answer within 2 s is asked again: CI once waited 30 s for one and failed a run the pool had served correctly.
     */
    private static boolean awaitGauge(Supplier<Double> gauge, double value, List<Future<Timed>> requests) {
        while (requests.stream().anyMatch(f -> !f.isDone())) {
            try {
                if (gauge.get() >= value) {
                    return true;
                }
            }
            catch (UncheckedIOException lost) {
                // no answer in time: ask again while the requests last
            }
            TargetProcess.sleep(20);
        }
        return false;
    }

    /** 4 requests on 2 connections until the pool says two of them wait (true), at most three rounds. */
    private static boolean twoWaitInOneOfThreeRounds(ExecutorService clients, String url, Supplier<Double> pending) throws Exception {
        for (int round = 0; round < 3; round++) {
            List<Future<Timed>> four = start(clients, 4, url);
            boolean seen = awaitGauge(pending, 2, four);
            assertThat(answers(four)).allSatisfy(t -> assertThat(t.status()).isEqualTo(200));
            if (seen) {
                return true;
            }
        }
        return false;
    }

    @ParameterizedTest
    @ValueSource(strings = {Target.MVC_MODULE, Target.WEBFLUX_MODULE})
    void aPoolOfTwoConnectionsToARealDownstream(String module) throws Exception {
        int downstreamPort = Lab.freePort();
        TargetProcess downstream = Lab.start(Target.WEBFLUX_MODULE, downstreamPort, Map.of(), Map.of(), logs.resolve("downstream.log"));
        try (TargetProcess target = Lab.start(module, Lab.freePort(), Map.of("downstream.url", downstream.baseUrl(),
                "downstream.max-connections", "2", "downstream.acquire-timeout", "1s", "downstream.response-timeout", "3s",
                "management.health.downstream.enabled", "true"), Map.of(), logs.resolve(module + ".log"))) {
            String url = target.baseUrl() + "/http/";

            Timed ok = timedGet(url + "100");
            assertThat(ok.status()).as(ok.body()).isEqualTo(200);
            assertThat(ok.body()).isEqualTo("Welcome to reactive world ~");
            assertThat(ok.ms()).isGreaterThanOrEqualTo(100);
            HttpResponse<String> bad = Lab.get(url + "-1");
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(JSON.readTree(bad.body()).get("detail")).as("the same rejection as /hello")
                    .isEqualTo(JSON.readTree(Lab.get(target.baseUrl() + "/hello/-1").body()).get("detail"));
            boolean mvc = module.equals(Target.MVC_MODULE);
            String poolMax = mvc ? "httpcomponents.httpclient.pool.route.max.default" : "reactor.netty.connection.provider.max.connections";
            String pending = mvc ? "httpcomponents.httpclient.pool.total.pending" : "reactor.netty.connection.provider.pending.connections";
            Supplier<Double> leased = mvc ? () -> Lab.poll(target, "httpcomponents.httpclient.pool.total.connections", "state:leased", POLL)
                    : () -> Lab.poll(target, "reactor.netty.connection.provider.active.connections", null, POLL);
            assertThat(Lab.metric(target, poolMax)).as("the pool's size, read back").isEqualTo(2);
            assertThat(Lab.awaitHealthStatus(target.metricsUrl(), 200)).isEqualTo(200);

            ExecutorService clients = Executors.newFixedThreadPool(4);
            try {
                // 4 requests on 2 connections, virtual threads, event loop or not: two of them wait for one, as the pool
                // itself says while they wait (its gauge polled until they are all answered), and all are served
                assertThat(twoWaitInOneOfThreeRounds(clients, url + "600", () -> Lab.poll(target, pending, null, POLL)))
                        .as("two requests waiting for a connection, said by " + pending).isTrue();

                // two requests hold both connections for 2.5 s; two more, started once the pool says both are taken, wait
                // for one for 1 s and get a 503 naming the pool's timeout
                List<Future<Timed>> holders = start(clients, 2, url + "2500");
                assertThat(awaitGauge(leased, 2, holders)).as("both connections taken, said by the pool's gauge").isTrue();
                List<Timed> refused = answers(start(clients, 2, url + "100"));
                List<Timed> served = answers(holders);
                assertThat(served).extracting(Timed::status).containsExactly(200, 200);
                assertThat(refused).allSatisfy(t -> assertThat(t.status()).as(t.body()).isEqualTo(503)).allSatisfy(t -> assertThat(t.body())
                        .contains("\"dependency\":\"downstream\"").contains("downstream.acquire-timeout"));
                // refused when their 1 s wait ran out, not served once a holder let go: no request hangs
                assertThat(refused).allSatisfy(t -> assertThat(t.ms()).as("waited for its 1 s").isGreaterThanOrEqualTo(1000)
                        .isLessThan(served.get(0).ms()));
            }
            finally {
                clients.shutdownNow();
            }

            // connected, but the answer takes longer than the response timeout (3 s): a 504
            Timed slow = timedGet(url + "5000");
            assertThat(slow.status()).as(slow.body()).isEqualTo(504);
            assertThat(slow.body()).contains("\"dependency\":\"downstream\"").contains("downstream.response-timeout");
            assertThat(slow.ms()).isGreaterThanOrEqualTo(3000).isLessThan(5000);

            // the downstream stopped: a fast 503, and the target's health says so
            downstream.close();
            Timed down = timedGet(url + "100");
            assertThat(down.status()).as(down.body()).isEqualTo(503);
            assertThat(down.body()).contains("\"dependency\":\"downstream\"");
            assertThat(down.ms()).as("no request hangs").isLessThan(5000);
            // a refused connection comes at once: the problem says so, and claims no timeout that ran out
            assertThat(down.body()).contains("the connection was refused (nothing listens there), at once (without waiting for the")
                    .doesNotContain(" ms (downstream.connect-timeout) within");
            assertThat(Lab.awaitHealthStatus(target.metricsUrl(), 503)).isEqualTo(503);

            // back on the same port: served again, no restart of the target
            downstream = Lab.start(Target.WEBFLUX_MODULE, downstreamPort, Map.of(), Map.of(), logs.resolve("downstream-again.log"));
            Timed again = timedGet(url + "100");
            assertThat(again.status()).as(again.body()).isEqualTo(200);
            assertThat(Lab.awaitHealthStatus(target.metricsUrl(), 200)).isEqualTo(200);
        }
        finally {
            downstream.close();
        }
    }
}
