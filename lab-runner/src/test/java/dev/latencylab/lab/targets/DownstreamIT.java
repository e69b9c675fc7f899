package dev.latencylab.lab.targets;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.parallel.Isolated;
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
 * and served again once the downstream is back. Times: lower bounds, and upper bounds only as "no request hangs".
 */
// @Isolated: its timeouts are compared with times served; a busy machine stretches one and not the other
@Isolated
class DownstreamIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

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

    private static List<Timed> concurrently(int n, String url) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<Timed>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                futures.add(pool.submit(() -> timedGet(url)));
            }
            List<Timed> done = new ArrayList<>();
            for (Future<Timed> f : futures) {
                done.add(f.get());
            }
            done.sort(Comparator.comparingLong(Timed::ms));
            return done;
        }
        finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {Target.MVC_MODULE, Target.WEBFLUX_MODULE})
    void aPoolOfTwoConnectionsToARealDownstream(String module) throws Exception {
        int downstreamPort = Lab.freePort();
        TargetProcess downstream = Lab.start(Target.WEBFLUX_MODULE, downstreamPort, Map.of(), Map.of(), logs.resolve("downstream.log"));
        try (TargetProcess target = Lab.start(module, Lab.freePort(), Map.of("downstream.url", downstream.baseUrl(),
                "downstream.max-connections", "2", "downstream.acquire-timeout", "1s", "downstream.response-timeout", "2s",
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
            String poolMax = module.equals(Target.MVC_MODULE) ? "httpcomponents.httpclient.pool.route.max.default"
                    : "reactor.netty.connection.provider.max.connections";
            assertThat(Lab.metric(target, poolMax)).as("the pool's size, read back").isEqualTo(2);
            assertThat(Lab.awaitHealthStatus(target.metricsUrl(), 200)).isEqualTo(200);

            // 4 requests on 2 connections: two rounds, virtual threads, event loop or not
            List<Timed> four = concurrently(4, url + "600");
            assertThat(four).allSatisfy(t -> assertThat(t.status()).isEqualTo(200));
            assertThat(four.get(2).ms()).as("the slower half waited for a connection").isGreaterThanOrEqualTo(1150);

            // the pool stays busy for longer than a request waits for it (1 s): the later two get a 503 naming it
            List<Timed> busy = concurrently(4, url + "1500");
            assertThat(busy).extracting(Timed::status).containsExactlyInAnyOrder(200, 200, 503, 503);
            Timed refused = busy.stream().filter(t -> t.status() == 503).findFirst().orElseThrow();
            assertThat(refused.body()).contains("\"dependency\":\"downstream\"").contains("downstream.acquire-timeout");
            // refused when its 1 s wait ran out, before the served ones' 1.5 s answers came (a waiter served instead would
            // have ended after them): compared within this one round, not against a wall-clock bound
            long served = busy.stream().filter(t -> t.status() == 200).mapToLong(Timed::ms).min().orElseThrow();
            assertThat(refused.ms()).as("no request hangs: refused before the first answer, %d ms", served).isLessThan(served);

            // connected, but the answer takes longer than the response timeout (2 s): a 504
            Timed slow = timedGet(url + "5000");
            assertThat(slow.status()).as(slow.body()).isEqualTo(504);
            assertThat(slow.body()).contains("\"dependency\":\"downstream\"").contains("downstream.response-timeout");
            assertThat(slow.ms()).isGreaterThanOrEqualTo(2000).isLessThan(5000);

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
