package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.load.Result;
import dev.latencylab.load.ResultFile;

/**
 * The db and http targets through ./lab run: the lab starts what they depend on, a real PostgreSQL (zonky's, no
 * install) or a downstream service (the WebFlux jar), and the connection pool is the bound.
 */
class DependencyTargetsIT {

    @TempDir
    Path tmp;

    private Result run(String target, String... more) {
        String[] args = {"run", "--target", target, "--port", String.valueOf(Lab.freePort()), "--warmup-seconds", "1",
                "-Dsim.users=30", "-Dsim.repeat=2", "-Dsim.ramp.seconds=1", "-Dsim.think.min.ms=20", "-Dsim.think.max.ms=60"};
        LabCommand.Finished run = LabCommand.run(tmp.resolve(target + ".console"), args);
        assertThat(run.exitCode()).as(run.output()).isZero();
        Path file = Path.of(run.output().lines().filter(l -> l.startsWith("Result file: ")).findFirst().orElseThrow()
                .substring("Result file: ".length()));
        assertThat(ResultSchema.problems(file)).isEmpty();
        return ResultFile.read(file);
    }

    @Test
    void webfluxDbWaitsInAFreshPostgres() {
        Result r = run("webflux-db");
        assertThat(r.parameters().path()).isEqualTo("/db/100");
        assertThat(r.requests().ko()).isZero();
        assertThat(r.requests().total()).isEqualTo(60);
        assertThat(r.responseTimeMs().p50()).isGreaterThanOrEqualTo(100);
        assertThat(r.model().poolBoundPerSecond()).as("r2dbc-pool's 10 connections / 100 ms").isEqualTo(100);
        assertThat(r.server().connectionPool().library()).isEqualTo("r2dbc-pool");
        assertThat(r.server().connectionPool().maxConnections()).isEqualTo(10);
    }

    /** Virtual threads do not lift a pool of 2: 30 users share 2 connections, so most of them queue for one. */
    @Test
    void virtualThreadsWaitForTwoConnections() {
        Result r = run("mvc-virtual-db-p2");
        assertThat(r.requests().ko()).isZero();
        assertThat(r.model().poolBoundPerSecond()).as("2 connections / 100 ms").isEqualTo(20);
        // 60 requests within about 1.3 s on 2 connections of 100 ms (20 per second, 3 s of work): the later ones wait more
        // than a second, below the 3 s a request waits for a connection before its 503; a pool that did not bound
        // them would answer all near 100 ms
        assertThat(r.responseTimeMs().p95()).isGreaterThanOrEqualTo(400);
        // and the pool says so: both connections in use, requests waiting for one
        Result.ConnectionPool pool = r.server().connectionPool();
        assertThat(pool.library()).isEqualTo("HikariCP");
        assertThat(pool.maxConnections()).isEqualTo(2);
        assertThat(pool.active().max()).isEqualTo(2);
        assertThat(pool.pending().max()).isGreaterThan(0);
    }

    /** HttpClient 5's default of 5 connections per host bounds MVC's calls on virtual threads too. */
    @Test
    void virtualThreadsCallADownstreamTheLabStarts() {
        Result r = run("mvc-virtual-http");
        assertThat(r.parameters().path()).isEqualTo("/http/100");
        assertThat(r.requests().ko()).isZero();
        assertThat(r.requests().total()).isEqualTo(60);
        assertThat(r.responseTimeMs().p50()).isGreaterThanOrEqualTo(100);
        assertThat(r.model().poolBoundPerSecond()).as("5 connections / 100 ms").isEqualTo(50);
        Result.ConnectionPool pool = r.server().connectionPool();
        assertThat(pool.library()).isEqualTo("Apache HttpClient 5");
        assertThat(pool.maxConnections()).isEqualTo(5);
        assertThat(pool.active().max()).as("never more calls at once than the pool has connections").isBetween(1.0, 5.0);
    }
}
