package dev.latencylab.load.sample;

import dev.latencylab.load.model.PoolKind;
import dev.latencylab.load.result.Result;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * A server's pools as the sampler reads them from its metrics (the names of Micrometer's Prometheus text, as a Spring
 * Boot service publishes them): a pool full when requests wait for it, where it publishes waits, its hold time from
 * its own timer's growth on the plateau, its bound size / hold, the pool that decided when several are full, Tomcat on
 * virtual threads as no pool, and what a service has but does not publish.
 */
class ServicePoolsTest {

    private static final String CONNECTOR = "name=\"http-nio-8080\"";

    private static Result.Pools pools(List<String> texts, int plateauFrom) {
        return pools(texts, plateauFrom, false);
    }

    private static Result.Pools pools(List<String> texts, int plateauFrom, boolean http2) {
        ServicePools pools = new ServicePools();
        for (int i = 0; i < texts.size(); i++) {
            pools.add(i + 1, i + 1 >= plateauFrom ? 40 : 10, Sampler.parsePrometheus(texts.get(i), CONNECTOR));
        }
        return pools.result((second, users) -> users == 40, http2);
    }

    /** The lab's MVC target on virtual threads over HTTP/2: no pool of threads, its streams' gauges (Http2StreamUse). */
    private static String streams(int connections, int executing, int full, long requests, double requestSeconds) {
        return """
                tomcat_threads_config_max_threads{name="http-nio-8080"} -1.0
                tomcat_threads_busy_threads{name="http-nio-8080"} -1.0
                latency_lab_http2_stream_seconds_count %d
                latency_lab_http2_stream_seconds_sum %s
                latency_lab_http2_stream_execution_max 20.0
                latency_lab_http2_connections_executing %d
                latency_lab_http2_streams_executing %d
                latency_lab_http2_connections_full %d
                """.formatted(requests, requestSeconds, connections, executing, full);
    }

    @Test
    void tomcatsStreamsAreAPoolOfWhatTheClientsSpreadLetsRunFullWhenAConnectionRunsItsLimit() {
        Result.Pools pools = pools(List.of(
                streams(3, 40, 0, 0, 0.0), // the ramp: not the plateau's
                streams(12, 184, 8, 185, 194.25), // 8 connections at 20, 24 streams on the 4 others; 185 requests held 1.05 s each
                streams(12, 186, 9, 370, 388.5), // 9 at 20 and 6 on the others
                streams(12, 172, 0, 555, 582.75)), 2, true); // none at its limit: all it has runs

        Result.Pool streams = pools.published().stream().filter(p -> p.name().equals(PoolKind.TOMCAT_STREAMS.label())).findFirst().orElseThrow();
        assertThat(streams.unit()).isEqualTo("streams");
        assertThat(streams.size()).as("what ran, not 20 × 12 connections: the slots of a connection short of streams stay idle")
                .isCloseTo((184 + 186 + 172) / 3.0, offset(1e-9));
        assertThat(streams.holdMs()).as("a stream runs for a request's time in Tomcat").isCloseTo(1050.0, offset(1e-9));
        assertThat(streams.boundPerSecond()).isCloseTo((184 + 186 + 172) / 3.0 / 1.05, offset(1e-9));
        assertThat(streams.fullShare()).as("a connection at its limit at 2 samples of 3").isCloseTo(2.0 / 3, offset(1e-9));
        assertThat(streams.note()).isEqualTo("20 at once on a connection; 5.7 of the 12.0 connections running requests at it, on the average");
        assertThat(pools.decided()).as("virtual threads are no pool: the streams decided").contains(streams);
        assertThat(pools.unseen()).as("published: not unseen").isEmpty();
        assertThat(ServicePools.streamsRunnable(20, 8, 150)).as("gauges read a moment apart: at least the limit on each at it").isEqualTo(160);
    }

    @Test
    void aServiceOnTomcatOverHttp2HasStreamsItDoesNotPublish() {
        List<String> tomcat = List.of(text(3, 3, 0, 100, 10.0, 100, 11.0), text(5, 3, 0, 200, 20.0, 200, 22.0));
        assertThat(pools(tomcat, 1, true).unseen()).extracting(Result.Unseen::pool).contains(PoolKind.TOMCAT_STREAMS.label());
        assertThat(pools(tomcat, 1, false).unseen()).as("over HTTP/1.1 no streams").isEmpty();
    }

    private static String text(int busy, int active, int pending, long used, double usedSeconds, long requests, double requestSeconds) {
        return """
                tomcat_threads_config_max_threads{name="http-nio-8080"} 50.0
                tomcat_threads_config_max_threads{name="http-nio-9080"} 200.0
                tomcat_threads_busy_threads{name="http-nio-8080"} %d
                tomcat_global_request_seconds_count{name="http-nio-8080"} %d
                tomcat_global_request_seconds_sum{name="http-nio-8080"} %s
                tomcat_sessions_active_current_sessions 0.0
                hikaricp_connections_max{pool="HikariPool-1"} 10.0
                hikaricp_connections_active{pool="HikariPool-1"} %d
                hikaricp_connections_pending{pool="HikariPool-1"} %d
                hikaricp_connections_usage_seconds_count{pool="HikariPool-1"} %d
                hikaricp_connections_usage_seconds_sum{pool="HikariPool-1"} %s
                jdbc_connections_max{name="dataSource"} 10.0
                """.formatted(busy, requests, requestSeconds, active, pending, used, usedSeconds);
    }

    @Test
    void aFullConnectionPoolWithRequestsWaitingDecidesAtItsSizeOverItsHoldTime() {
        Result.Pools pools = pools(List.of(
                text(3, 3, 0, 100, 10.0, 100, 11.0), // before the plateau: its counts are not the plateau's
                text(50, 9, 30, 200, 20.5, 200, 60.0), // one handed back, not yet taken again: 30 waiting, full
                text(50, 10, 31, 300, 31.0, 300, 110.0),
                text(50, 10, 0, 400, 41.5, 400, 160.0)), 2); // all in use, none waiting: the pool kept up

        assertThat(pools.unseen()).isEmpty();
        Result.Pool hikari = pools.published().stream().filter(p -> p.name().equals("HikariCP")).findFirst().orElseThrow();
        assertThat(hikari.size()).isEqualTo(10);
        assertThat(hikari.holdMs()).as("21 s of use over 200 connections held on the plateau").isCloseTo(105.0, offset(1e-9));
        assertThat(hikari.boundPerSecond()).isCloseTo(10 / 0.105, offset(1e-9));
        assertThat(hikari.fullShare()).as("waited for at 2 samples of 3").isCloseTo(2.0 / 3,
                offset(1e-9));
        assertThat(hikari.inUse().samples()).isEqualTo(3);
        assertThat(hikari.pending().max()).isEqualTo(31);
        Result.Pool tomcat = pools.published().stream().filter(p -> p.name().equals("Tomcat's threads")).findFirst().orElseThrow();
        assertThat(tomcat.size()).as("the connector under load's, not the management port's").isEqualTo(50);
        assertThat(tomcat.holdMs()).as("a thread is held for a request's time in Tomcat").isCloseTo(500.0, offset(1e-9));
        assertThat(tomcat.fullShare()).as("no waits published: all busy is full").isEqualTo(1.0);
        assertThat(pools.decided()).as("the threads fill because they wait on the connections, not the reverse").contains(hikari);
    }

    @Test
    void aPlateauOfOneSampleTakesItsHoldTimeFromTheSecondBefore() {
        // an open run's level stopped early, one sample long: the timer's growth since the sample before is that level's
        Result.Pools pools = pools(List.of(text(3, 3, 0, 100, 10.0, 100, 11.0), text(50, 10, 30, 200, 20.5, 200, 60.0)), 2);
        assertThat(pools.decided().orElseThrow().holdMs()).isCloseTo(105.0, offset(1e-9));
        assertThat(pools.decided().orElseThrow().inUse().samples()).as("its use, the level's own sample").isEqualTo(1);
    }

    @Test
    void noPoolFullDecidesNothing() {
        Result.Pools pools = pools(List.of(text(5, 4, 0, 10, 1.0, 10, 1.1), text(6, 5, 0, 60, 6.0, 60, 6.6)), 1);
        assertThat(pools.decided()).isEmpty();
        assertThat(pools.published()).allSatisfy(p -> assertThat(p.fullShare()).isZero());
    }

    @Test
    void aFullThreadPoolDecidesWhenNoConnectionPoolIsFull() {
        Result.Pools pools = pools(List.of(text(50, 4, 0, 10, 1.0, 100, 20.0), text(50, 5, 0, 60, 6.0, 200, 40.0)), 1);
        assertThat(pools.decided()).map(Result.Pool::name).contains("Tomcat's threads");
        assertThat(pools.decided()).map(Result.Pool::boundPerSecond).hasValueSatisfying(b -> assertThat(b).isCloseTo(250.0,
                offset(1e-9)));
    }

    @Test
    void withoutAPlateauTheWholeRunIsRead() {
        Result.Pools pools = pools(List.of(text(5, 4, 0, 10, 1.0, 10, 1.1), text(6, 5, 0, 60, 6.0, 60, 6.6)), 99);
        assertThat(pools.published()).allSatisfy(p -> assertThat(p.inUse().samples()).isEqualTo(2));
        assertThat(pools.published().stream().filter(p -> p.name().equals("HikariCP")).findFirst().orElseThrow().holdMs()).isCloseTo(100.0,
                offset(1e-9));
    }

    @Test
    void whatAServiceHasButDoesNotPublishIsSaidWithTheSettingThatPublishesIt() {
        // Spring Boot's defaults: Tomcat's sessions but not its threads; a DataSource whose pool Micrometer did not bind
        Result.Pools pools = pools(List.of("""
                tomcat_sessions_active_current_sessions 0.0
                jdbc_connections_max{name="dataSource"} 10.0
                jdbc_connections_active{name="dataSource"} 2.0
                """), 1);
        assertThat(pools.published()).isEmpty();
        assertThat(pools.unseen()).extracting(Result.Unseen::pool).containsExactly("Tomcat's threads", "the DataSource's connections (10)");
        assertThat(pools.unseen().get(0).why()).contains("server.tomcat.mbeanregistry.enabled=true");
        assertThat(pools(List.of("jvm_threads_live_threads 23.0\n"), 1)).as("no pool at all: nothing to say").isNull();
    }

    /**
     * Tomcat's connection cap, all open, and its threads not all busy: the cap decided (a connection before a thread);
     * it publishes no hold time (a client holds a connection as long as it keeps it), so no bound from its metrics.
     */
    @Test
    void tomcatsConnectionCapAllOpenDecidesBeforeItsThreads() {
        String capped = """
                tomcat_threads_config_max_threads{name="http-nio-8080"} 200.0
                tomcat_threads_busy_threads{name="http-nio-8080"} 40.0
                tomcat_connections_config_max_connections{name="http-nio-8080"} 100.0
                tomcat_connections_current_connections{name="http-nio-8080"} 100.0
                tomcat_connections_config_max_connections{name="http-nio-9080"} 8192.0
                """;
        Result.Pools pools = pools(List.of(capped, capped), 1);
        assertThat(pools.published()).extracting(Result.Pool::name, Result.Pool::size).containsExactly(
                org.assertj.core.groups.Tuple.tuple("Tomcat's threads", 200.0), org.assertj.core.groups.Tuple.tuple("Tomcat's connections", 100.0));
        assertThat(pools.decided()).map(Result.Pool::name).contains("Tomcat's connections");
        assertThat(pools.decided().orElseThrow().boundPerSecond()).isNull();
        assertThat(PoolKind.heldByClients("Tomcat's connections")).isTrue();
        assertThat(PoolKind.heldByClients("HikariCP")).isFalse();
    }

    /** Jetty's threads (Micrometer's Jetty binder): full where jobs are queued for them, as a pool with waits is. */
    @Test
    void jettysThreadsAreFullWhereJobsWaitForThem() {
        String queued = """
                jetty_threads_config_max 20.0
                jetty_threads_busy 19.0
                jetty_threads_jobs 7.0
                """;
        String keepingUp = queued.replace("jetty_threads_jobs 7.0", "jetty_threads_jobs 0.0").replace("busy 19.0", "busy 20.0");
        assertThat(pools(List.of(queued, queued), 1).decided()).map(Result.Pool::name).contains("Jetty's threads");
        assertThat(pools(List.of(keepingUp, keepingUp), 1).decided()).as("all busy, none waiting: keeping up").isEmpty();
    }

    /**
     * Executors, one per name: Spring Boot's task executor (8 core threads, at most Integer.MAX_VALUE, a queue without
     * bound) runs its 8 core threads and never more, so 8 bound it; one with a bounded queue grows to its maximum. An
     * executor with tasks queued is full, and decides before the request threads that wait on it.
     */
    @Test
    void anExecutorIsBoundByTheThreadsItRunsAndFullWhereTasksAreQueued() {
        String boot = """
                tomcat_threads_config_max_threads{name="http-nio-8080"} 50.0
                tomcat_threads_busy_threads{name="http-nio-8080"} 50.0
                executor_active_threads{name="applicationTaskExecutor"} 8.0
                executor_queued_tasks{name="applicationTaskExecutor"} 30.0
                executor_pool_core_threads{name="applicationTaskExecutor"} 8.0
                executor_pool_max_threads{name="applicationTaskExecutor"} 2.147483647E9
                executor_queue_remaining_tasks{name="applicationTaskExecutor"} 2.147483617E9
                executor_active_threads{name="reports"} 3.0
                executor_queued_tasks{name="reports"} 0.0
                executor_pool_core_threads{name="reports"} 2.0
                executor_pool_max_threads{name="reports"} 4.0
                executor_queue_remaining_tasks{name="reports"} 10.0
                """;
        Result.Pools pools = pools(List.of(boot, boot), 1);
        assertThat(pools.published()).extracting(Result.Pool::name, Result.Pool::size).containsExactly(
                org.assertj.core.groups.Tuple.tuple("Tomcat's threads", 50.0), org.assertj.core.groups.Tuple.tuple("executor applicationTaskExecutor", 8.0),
                org.assertj.core.groups.Tuple.tuple("executor reports", 4.0));
        assertThat(pools.decided()).map(Result.Pool::name).as("tasks queued: before the request threads waiting on them")
                .contains("executor applicationTaskExecutor");
        assertThat(ServicePools.executorThreads(8.0, 2.147483647E9, 2.147483647E9, 0.0)).isEqualTo(8.0);
        assertThat(ServicePools.executorThreads(2.0, 4.0, 10.0, 0.0)).isEqualTo(4.0);
        assertThat(ServicePools.executorThreads(2.0, null, null, null)).isNull();
    }

    /** --pool's names: the lab's where it reads the pool (case, spaces and signs aside), else as given. */
    @Test
    void aGivenPoolIsNamedAsTheLabNamesItsPools() {
        assertThat(PoolKind.given("tomcat-threads", 200)).isEqualTo(new Result.GivenPool("Tomcat's threads", "threads", 200));
        assertThat(PoolKind.given("Tomcat's threads", 200)).isEqualTo(new Result.GivenPool("Tomcat's threads", "threads", 200));
        assertThat(PoolKind.given("HIKARICP", 10)).isEqualTo(new Result.GivenPool("HikariCP", "connections", 10));
        assertThat(PoolKind.given(" executor ", 16)).isEqualTo(new Result.GivenPool("executor", null, 16));

        Result.Pools published = pools(List.of(text(5, 4, 0, 10, 1.0, 10, 1.1)), 1);
        Result.Pools withGiven = new Result.Pools(published.published(), published.unseen(), List.of(PoolKind.given("hikaricp", 20),
                PoolKind.given("executor", 16)));
        assertThat(withGiven.givenUnpublished()).as("HikariCP's size is its metrics', whatever was given")
                .containsExactly(new Result.GivenPool("executor", null, 16));
    }

    @Test
    void tomcatOnVirtualThreadsIsNoPool() {
        Result.Pools pools = pools(List.of("""
                tomcat_threads_config_max_threads{name="http-nio-8080"} -1.0
                tomcat_threads_busy_threads{name="http-nio-8080"} -1.0
                """), 1);
        Result.Pool tomcat = pools.published().get(0);
        assertThat(tomcat.size()).isNull();
        assertThat(tomcat.boundPerSecond()).isNull();
        assertThat(tomcat.note()).contains("virtual threads");
        assertThat(pools.decided()).isEmpty();
    }
}
