package dev.latencylab.mvc;

import java.time.Duration;

import dev.latencylab.contract.Database;
import dev.latencylab.contract.DependencyException;
import dev.latencylab.contract.Hello;
import dev.latencylab.contract.Latency;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * Real I/O the blocking way: the request thread holds one of HikariCP's connections while PostgreSQL sleeps, so the
 * pool (10 by default), not the thread count, bounds how many wait at once.
 */
@RestController
public class DatabaseController {

    private final JdbcClient jdbc;
    private final long maxLatencyMs;
    private final Duration connectionTimeout;

    DatabaseController(JdbcClient jdbc, @Value("${" + Hello.MAX_LATENCY_PROPERTY + ":" + Hello.DEFAULT_MAX_LATENCY_MS + "}") long maxLatencyMs,
            @Value("${spring.datasource.hikari.connection-timeout}") long connectionTimeoutMs) {
        this.jdbc = jdbc;
        this.maxLatencyMs = maxLatencyMs;
        this.connectionTimeout = Duration.ofMillis(connectionTimeoutMs);
    }

    @GetMapping("/db/{latency}")
    String db(@PathVariable String latency) {
        Duration wait = Latency.parse(latency, maxLatencyMs);
        try {
            jdbc.sql(Database.SLEEP_SQL).param(Database.SECONDS, Database.seconds(wait)).query((row, i) -> i).list();
        }
        catch (CannotGetJdbcConnectionException e) {
            // HikariCP waited connection-timeout for a connection: the database is down, or the pool stayed busy
            throw new DependencyException(DependencyException.Kind.UNAVAILABLE, Database.DEPENDENCY, connectionTimeout,
                    "no connection from the pool (spring.datasource.hikari.connection-timeout)", e);
        }
        catch (DataAccessResourceFailureException e) {
            // a pooled connection broke (the database stopped or restarted); HikariCP drops it, the next request opens another
            throw DependencyException.atOnce(Database.DEPENDENCY, connectionTimeout,
                    "the connection failed (" + e.getMostSpecificCause().getMessage() + ")", e);
        }
        return Hello.BODY;
    }
}
