package dev.latencylab.webflux;

import java.time.Duration;

import dev.latencylab.contract.Database;
import dev.latencylab.contract.DependencyException;
import dev.latencylab.contract.Hello;
import dev.latencylab.contract.Latency;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * Real I/O the non-blocking way: no thread waits, but the request still holds one of r2dbc-pool's connections while
 * PostgreSQL sleeps, so the pool (10 by default) bounds how many wait at once, as it does for MVC.
 */
@RestController
public class DatabaseController {

    private final DatabaseClient db;
    private final long maxLatencyMs;
    private final Duration acquireTimeout;

    /**
     * @param acquireRetry r2dbc-pool tries again after an acquire that timed out (Boot's default: once), so a request
     *                     waits up to max-acquire-time × (1 + acquire-retry) before its 503: that is the timeout stated
     */
    DatabaseController(DatabaseClient db, @Value("${" + Hello.MAX_LATENCY_PROPERTY + ":" + Hello.DEFAULT_MAX_LATENCY_MS + "}") long maxLatencyMs,
            @Value("${spring.r2dbc.pool.max-acquire-time}") Duration maxAcquireTime, @Value("${spring.r2dbc.pool.acquire-retry:1}") int acquireRetry) {
        this.db = db;
        this.maxLatencyMs = maxLatencyMs;
        this.acquireTimeout = maxAcquireTime.multipliedBy(1L + acquireRetry);
    }

    @GetMapping("/db/{latency}")
    Mono<String> db(@PathVariable String latency) {
        Duration wait = Latency.parse(latency, maxLatencyMs);
        return db.sql(Database.SLEEP_SQL).bind(Database.SECONDS, Database.seconds(wait)).fetch().all().then()
                .thenReturn(Hello.BODY)
                // no connection within max-acquire-time, or a pooled connection broke: the database is down or the pool stayed busy
                .onErrorMap(DataAccessResourceFailureException.class, e -> DependencyException.unavailable(Database.DEPENDENCY, acquireTimeout,
                        "no working connection from the pool (spring.r2dbc.pool.max-acquire-time x (1 + acquire-retry)): "
                                + e.getMostSpecificCause().getMessage(),
                        e));
    }
}
