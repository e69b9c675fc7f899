package dev.latencylab.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The /db contract, run against each target by a subclass against a real PostgreSQL (zonky's embedded server, started
 * once per class), with a pool of {@link #POOL} connections, so that the pool's bound shows in a few requests.
 */
public abstract class DatabaseContractTests {

    /** The pool size each subclass gives its stack's pool. */
    protected static final int POOL = 2;

    /** What each subclass gives its stack's wait for a connection, in ms. */
    protected static final long ACQUIRE_TIMEOUT_MS = 2000;

    /** How long after the database is back a target may take to serve again (the pool's reconnect backoff, slack). */
    private static final long RECOVERY_MS = 15_000;

    private static EmbeddedPostgres postgres;
    private static int port;

    /** The running target, its pool set to POOL and its acquire timeout to ACQUIRE_TIMEOUT_MS. */
    protected abstract TargetClient target();

    /** The actuator metric that gives the pool's maximum size (HikariCP's or r2dbc-pool's). */
    protected abstract String poolMaxMetric();

    /** The port of the database, started on first use. */
    protected static synchronized int postgresPort() {
        if (postgres == null) {
            postgres = start(0);
            port = postgres.getPort();
        }
        return port;
    }

    private static EmbeddedPostgres start(int onPort) {
        try {
            return onPort == 0 ? EmbeddedPostgres.builder().start() : EmbeddedPostgres.builder().setPort(onPort).start();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterAll
    static synchronized void stopPostgres() throws IOException {
        if (postgres != null) {
            postgres.close();
            postgres = null;
        }
    }

    @Test
    void theWaitHappensInTheDatabase() {
        TargetClient.Response r = target().get("/db/150");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).isEqualTo(Hello.BODY);
        assertThat(r.elapsed()).isGreaterThanOrEqualTo(Duration.ofMillis(150));
    }

    @Test
    void thePoolSizeIsReadBackInTheMetrics() {
        assertThat(target().get("/db/0").status()).isEqualTo(200);
        assertThat(target().metric(poolMaxMetric())).isEqualTo(POOL);
    }

    @Test
    void badLatencyIsTheSameProblemAsOnHello() {
        TargetClient.Response r = target().get("/db/abc");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.contentType()).startsWith("application/problem+json");
        Map<String, Object> problem = JsonPath.read(r.body(), "$");
        assertThat(problem).containsEntry("parameter", "latency").containsEntry("instance", "/db/abc");
    }

    /** 2P requests of latency L on P connections: the second half waits for the first, so ends no earlier than ~2L. */
    @Test
    void aPoolOfPServesTwicePRequestsInTwoRounds() {
        long latencyMs = 600;
        target().get("/db/0"); // the pool's connections open before the clock matters
        List<TargetClient.Response> answers = target().concurrently(2 * POOL, "/db/" + latencyMs);
        assertThat(answers).allSatisfy(a -> assertThat(a.status()).as(a.body()).isEqualTo(200));
        // a small allowance for timer granularity; a pool that did not block would end all of them near L
        Duration secondRound = Duration.ofMillis(2 * latencyMs - 50);
        assertThat(answers.subList(POOL, 2 * POOL)).allSatisfy(a -> assertThat(a.elapsed()).isGreaterThanOrEqualTo(secondRound));
    }

    /** The database stops: a fast, clear 503 that names it and the timeout; when it is back, served without a restart. */
    @Test
    void aStoppedDatabaseIsAFastProblemAndItsReturnIsServed() throws IOException {
        assertThat(target().get("/db/0").status()).isEqualTo(200);
        int onPort = postgresPort();
        synchronized (DatabaseContractTests.class) {
            postgres.close();
            postgres = null;
        }

        try {
            // the pool's connection broke, or no new one opens: either way a 503 naming the database, in time
            for (int i = 0; i < 2; i++) {
                TargetClient.Response down = target().get("/db/10");
                assertThat(down.status()).as(down.body()).isEqualTo(503);
                assertThat(down.contentType()).startsWith("application/problem+json");
                Map<String, Object> problem = JsonPath.read(down.body(), "$");
                assertThat(problem).containsEntry("dependency", Database.DEPENDENCY).containsEntry("status", 503)
                        .containsEntry("instance", "/db/10");
                assertThat(((Number) problem.get("timeoutMs")).longValue()).isEqualTo(ACQUIRE_TIMEOUT_MS);
                if (down.elapsed().toMillis() < ACQUIRE_TIMEOUT_MS / 2) {
                    // it came before its timeout could run out: it must not claim one did
                    assertThat((String) problem.get("detail")).as("a fast 503").contains(", at once (without waiting for the")
                            .doesNotContain(" ms within ").doesNotMatch(".* within [0-9]+ ms$");
                }
                assertThat(down.elapsed()).as("no longer than the acquire timeout, and some slack")
                        .isLessThan(Duration.ofMillis(ACQUIRE_TIMEOUT_MS + 3000));
            }
        }
        finally {
            synchronized (DatabaseContractTests.class) {
                postgres = start(onPort);
            }
        }
        // HikariCP retries opening connections with a growing backoff, so the first request after the database is
        // back may still time out (seen in CI): each request must end in time, and one within a bound must be served
        long deadline = System.nanoTime() + Duration.ofMillis(RECOVERY_MS).toNanos();
        TargetClient.Response back = target().get("/db/10");
        while (back.status() != 200 && System.nanoTime() < deadline) {
            assertThat(back.status()).as(back.body()).isEqualTo(503);
            assertThat(back.elapsed()).isLessThan(Duration.ofMillis(ACQUIRE_TIMEOUT_MS + 3000));
            back = target().get("/db/10");
        }
        assertThat(back.status()).as("served again within %d ms of the database's return: %s", RECOVERY_MS, back.body())
                .isEqualTo(200);
    }
}
