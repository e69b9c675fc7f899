package dev.latencylab.lab.targets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import dev.latencylab.load.tls.Protocol;

/** Target ids: what each starts, loads and bounds the model with. */
class TargetTest {

    @Test
    void everyIdFormTheDocsListParsesAsItsExample() {
        for (TargetIds.IdForm form : TargetIds.IDS) {
            Target t = Target.parse(form.example());
            assertThat(t.id()).as(form.form()).isEqualTo(form.example());
            assertThat(form.form().split(", ")).as("the example is of its form: " + form.form())
                    .anyMatch(f -> form.example().matches(f.replaceAll("\\[([^]]*)]", "($1)?").replaceAll("<[a-z_]+>", "[a-z0-9-]+")));
            assertThat(form.starts()).as(form.example() + " starts " + t.module())
                    .containsAnyOf("<base>", t.module().equals(Target.MVC_MODULE) ? "Spring MVC" : "WebFlux");
        }
        assertThat(TargetIds.IDS.stream().map(TargetIds.IdForm::example).map(Target::parse).map(Target::poolThreads))
                .as("mvc-t400 400, mvc-virtual none, uncapped none, pinned none (on no JDK yet), webflux none, block none, db-p50 50, "
                        + "pg20 20, jdbc425 10 (on no JDK yet), http 5, http-p2-h2c 2 x 100 streams, mvc-virtual-http-h2c 100 streams, "
                        + "webflux-h2 none, mvc-virtual-h2-s100 none (its streams: from its gauges)")
                .containsExactly(400, 0, 0, 0, 0, 0, 50, 20, 10, 5, 200, 100, 0, 0);
    }

    @Test
    void anyTargetOverTlsKeepsWhatBoundsItAndAsksForHttp2OnH2Alone() {
        Target h2 = Target.parse("mvc-t20-db-p5-h2");
        assertThat(h2.protocol()).isEqualTo(Protocol.H2);
        assertThat(h2.poolThreads()).as("the connection pool, as without -h2").isEqualTo(5);
        assertThat(h2.path(100)).isEqualTo("db/100");
        assertThat(h2.needsDatabase()).isTrue();
        assertThat(h2.properties()).containsEntry(Target.HTTP2, "true").containsEntry("spring.datasource.hikari.maximum-pool-size", "5");
        Target tls = Target.parse("mvc-tls");
        assertThat(tls.id()).as("mvc is mvc-t200, over TLS too").isEqualTo("mvc-t200-tls");
        assertThat(tls.protocol()).isEqualTo(Protocol.H1_TLS);
        assertThat(tls.properties()).doesNotContainKey(Target.HTTP2);
        assertThat(Target.parse("webflux").protocol()).isEqualTo(Protocol.H1);
        assertThat(Target.parse("mvc-virtual-pinned-c1-h2").onJdk(21).poolThreads()).as("pinned on JDK 21, over h2 as well").isEqualTo(1);
        assertThatThrownBy(() -> Target.parse("webflux-tls-h2")).hasMessage("target webflux-tls-h2: one protocol, -tls or -h2, not both");
        assertThatThrownBy(() -> Target.parse("tomcat-h2")).hasMessageStartingWith("unknown target 'tomcat'");
        Target streams = Target.parse("mvc-virtual-h2-s100");
        assertThat(streams.id()).isEqualTo("mvc-virtual-h2-s100");
        assertThat(streams.protocol()).isEqualTo(Protocol.H2);
        assertThat(streams.properties()).containsEntry(Target.HTTP2, "true").containsEntry(Target.HTTP2_STREAM_EXECUTION, "100");
        assertThat(Target.parse("mvc-t200-h2").properties()).as("Tomcat's own unless given").doesNotContainKey(Target.HTTP2_STREAM_EXECUTION);
        assertThatThrownBy(() -> Target.parse("webflux-h2-s100")).hasMessageContaining("for mvc-...-h2 targets only");
        assertThatThrownBy(() -> Target.parse("mvc-virtual-tls-s100")).hasMessageContaining("for mvc-...-h2 targets only");
        assertThatThrownBy(() -> Target.parse("mvc-virtual-h2-s101")).hasMessage("target mvc-virtual-h2-s101: give 1 to 100 streams "
                + "(a client opens at most 100 on a connection)");
        assertThatThrownBy(() -> Target.parse("mvc-virtual-h2-s0")).hasMessageContaining("give 1 to 100 streams");
    }

    @Test
    void aPinnedTargetsCarriersAreItsPoolBeforeJdk24Only() {
        Target one = Target.parse("mvc-virtual-pinned-c1");
        assertThat(one.path(100)).isEqualTo("pinned/100");
        assertThat(one.poolThreads()).as("no JDK named yet: no pool").isZero();
        assertThat(one.onJdk(21).poolThreads()).as("JDK 21 pins: the one carrier").isEqualTo(1);
        assertThat(one.onJdk(23).poolThreads()).isEqualTo(1);
        assertThat(one.onJdk(24)).as("JEP 491: a wait inside synchronized releases its carrier").isEqualTo(one);
        assertThat(one.jvmOptions()).containsExactly("-Djdk.virtualThreadScheduler.parallelism=1");
        assertThat(one.settings().properties()).as("result.json records the carriers set")
                .containsEntry("jdk.virtualThreadScheduler.parallelism", "1").containsEntry("spring.threads.virtual.enabled", "true");
        assertThat(one.properties()).as("a JVM option, not a Spring property").doesNotContainKey("jdk.virtualThreadScheduler.parallelism");

        Target byDefault = Target.parse("mvc-virtual-pinned");
        assertThat(byDefault.onJdk(21).poolThreads()).as("the JVM's default: the cores").isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(byDefault.jvmOptions()).isEmpty();
        assertThat(byDefault.settings().properties()).doesNotContainKey("jdk.virtualThreadScheduler.parallelism");
        assertThat(Target.poolOf("mvc-virtual-pinned-c1", 1)).isEqualTo("1 carrier thread, pinned");
        assertThat(Target.poolOf("mvc-virtual-pinned", 2)).isEqualTo("2 carrier threads, pinned");
        assertThat(Target.poolOf("mvc-t200", 200)).isEqualTo("a pool of 200");
        assertThatThrownBy(() -> Target.parse("mvc-virtual-pinned-c0")).hasMessageContaining("at least 1 carrier");
        assertThatThrownBy(() -> Target.parse("mvc-virtual-pinned-db")).hasMessageContaining("-db builds on");
        assertThatThrownBy(() -> Target.parse("webflux-pinned")).hasMessageContaining("unknown target");
    }

    /**
     * -jdbc425: the same db target on PostgreSQL's JDBC driver 42.5.6, first on its class path; on virtual threads
     * before JDK 24 its queries pin their carriers, so T is the fewer of carriers and connections; on platform threads
     * nothing changes in the model.
     */
    @Test
    void anOldJdbcDriverOnVirtualThreadsIsBoundByItsCarriersBeforeJdk24() {
        Target old = Target.parse("mvc-virtual-db-jdbc425");
        assertThat(old.path(100)).isEqualTo("db/100");
        assertThat(old.properties()).containsEntry(Target.JDBC_DRIVER, "42.5.6").containsEntry("spring.datasource.hikari.maximum-pool-size", "10");
        assertThat(old.classpathFirst(java.nio.file.Path.of("/repo"))).containsExactly(
                java.nio.file.Path.of("/repo/mvc-with-latency/target/drivers/postgresql-42.5.6.jar"));
        int carriers = Runtime.getRuntime().availableProcessors();
        assertThat(old.poolThreads()).as("no JDK named yet: the connections").isEqualTo(10);
        assertThat(old.onJdk(21).poolThreads()).isEqualTo(Math.min(carriers, 10));
        assertThat(old.onJdk(25).poolThreads()).isEqualTo(10);
        assertThat(Target.poolOf("mvc-virtual-db-jdbc425", 2)).isEqualTo("2 carrier threads, pinned");
        assertThat(Target.poolOf("mvc-virtual-db-jdbc425", 10)).as("its connection pool's size: not the carriers").isEqualTo("a pool of 10");

        Target platform = Target.parse("mvc-t200-db-p20-jdbc425");
        assertThat(platform.pinning()).as("a platform thread has no carrier to pin").isNull();
        assertThat(platform.onJdk(21).poolThreads()).isEqualTo(20);
        assertThat(Target.parse("mvc-virtual-db").classpathFirst(java.nio.file.Path.of("/repo"))).isEmpty();
        assertThatThrownBy(() -> Target.parse("webflux-db-jdbc425")).hasMessageContaining("-jdbc425 is a JDBC driver");
        assertThatThrownBy(() -> Target.parse("mvc-virtual-http-jdbc425")).hasMessageContaining("-jdbc425 is a JDBC driver");
    }

    @Test
    void aDbTargetLoadsDbAndItsBoundIsTheSmallerPool() {
        Target mvc = Target.parse("mvc-t200-db");
        assertThat(mvc.path(100)).isEqualTo("db/100");
        assertThat(mvc.needsDatabase()).isTrue();
        assertThat(mvc.poolThreads()).as("min(200 threads, HikariCP's 10)").isEqualTo(10);
        assertThat(mvc.properties()).containsEntry("server.tomcat.threads.max", "200")
                .containsEntry("spring.datasource.hikari.maximum-pool-size", "10").containsEntry("management.health.db.enabled", "true");
        assertThat(mvc.databaseProperties(5555)).containsEntry("spring.datasource.url", "jdbc:postgresql://127.0.0.1:5555/postgres");

        assertThat(Target.parse("mvc-t4-db-p50").poolThreads()).as("min(4 threads, 50 connections)").isEqualTo(4);
        assertThat(Target.parse("mvc-virtual-db-p2").poolThreads()).as("no thread pool: the connections").isEqualTo(2);

        Target webflux = Target.parse("webflux-db-p50");
        assertThat(webflux.poolThreads()).isEqualTo(50);
        assertThat(webflux.properties()).containsEntry("spring.r2dbc.pool.max-size", "50").containsEntry("management.health.r2dbc.enabled", "true");
        assertThat(webflux.databaseProperties(5555)).containsEntry("spring.r2dbc.url", "r2dbc:postgresql://127.0.0.1:5555/postgres");
        assertThat(Target.parse("webflux").needsDatabase()).isFalse();
        assertThat(webflux.databaseMaxConnections()).as("the server's default").isZero();
    }

    @Test
    void aDbTargetsPostgresqlMaxConnectionsBoundsTheModelBelowItsPool() {
        Target limited = Target.parse("mvc-virtual-db-p50-pg20");
        assertThat(limited.databaseMaxConnections()).isEqualTo(20);
        assertThat(limited.poolThreads()).as("min(50 connections, max_connections 20)").isEqualTo(20);
        assertThat(limited.properties()).containsEntry("spring.datasource.hikari.maximum-pool-size", "50");
        assertThat(Target.parse("webflux-db-pg30").poolThreads()).as("r2dbc-pool's 10 is below 30").isEqualTo(10);
        assertThat(Target.parse("mvc-t8-db-p50-pg20").poolThreads()).as("8 threads").isEqualTo(8);
        assertThatThrownBy(() -> Target.parse("webflux-db-p50-pg4")).hasMessageContaining("at least 5");
        assertThatThrownBy(() -> Target.parse("webflux-http-p50-pg20")).hasMessageContaining("only for -db targets");
    }

    @Test
    void anHttpTargetLoadsHttpAndItsBoundIsTheClientsPool() {
        Target mvc = Target.parse("mvc-t200-http");
        assertThat(mvc.path(100)).isEqualTo("http/100");
        assertThat(mvc.needsDownstream()).isTrue();
        assertThat(mvc.needsDatabase()).isFalse();
        assertThat(mvc.poolThreads()).as("HttpClient 5's default of 5 per host").isEqualTo(5);
        assertThat(mvc.properties()).as("the library's default, not set").doesNotContainKey("downstream.max-connections")
                .containsEntry("management.health.downstream.enabled", "true");
        assertThat(Target.parse("mvc-virtual-http-p40").poolThreads()).isEqualTo(40);
        assertThat(Target.parse("mvc-virtual-http-p40").properties()).containsEntry("downstream.max-connections", "40");
        assertThat(Target.parse("mvc-t4-http-p40").poolThreads()).as("min(4 threads, 40 connections)").isEqualTo(4);
        assertThat(Target.parse("webflux-http").poolThreads()).as("Reactor Netty's 2 x max(cores, 8)")
                .isEqualTo(2 * Math.max(Runtime.getRuntime().availableProcessors(), 8));
        assertThat(Target.downstreamProperties("http://127.0.0.1:5555")).containsEntry("downstream.url", "http://127.0.0.1:5555");
        assertThat(Target.parse("webflux-db").needsDownstream()).isFalse();
    }

    @Test
    void aDbTargetOnAnotherPathOrWithoutConnectionsIsRefused() {
        assertThatThrownBy(() -> Target.parse("webflux-block-parallel-db")).hasMessageContaining("-db builds on");
        assertThatThrownBy(() -> Target.parse("mvc-virtual-uncapped-db")).hasMessageContaining("-db builds on");
        assertThatThrownBy(() -> Target.parse("webflux-db-p0")).hasMessageContaining("at least 1 connection");
        assertThatThrownBy(() -> Target.parse("nope-db")).hasMessageContaining("unknown target 'nope'");
        assertThatThrownBy(() -> Target.parse("webflux-block-elastic-http")).hasMessageContaining("-http builds on");
        assertThatThrownBy(() -> Target.parse("mvc-virtual-http-p0")).hasMessageContaining("at least 1 connection");
    }

    /**
     * -h2c: WebFlux calls its downstream over HTTP/2, each pooled connection carrying the downstream's streams at once:
     * the model's pool is connections × streams; the downstream the lab starts speaks it; MVC's client and db targets
     * refuse it.
     */
    @Test
    void anHttpTargetOverHttp2CountsItsConnectionsTimesTheDownstreamsStreams() {
        Target two = Target.parse("webflux-http-p2-h2c");
        assertThat(two.id()).isEqualTo("webflux-http-p2-h2c");
        assertThat(two.poolThreads()).as("2 connections x the downstream's streams").isEqualTo(2 * DependencyTargets.DOWNSTREAM_STREAMS);
        assertThat(two.properties()).containsEntry("downstream.http2", "true").containsEntry("downstream.max-connections", "2");
        assertThat(two.downstreamOverHttp2()).isTrue();
        assertThat(two.downstreamServerProperties()).containsEntry(Target.HTTP2, "true")
                .containsEntry("latency-lab.http2.max-concurrent-streams", String.valueOf(DependencyTargets.DOWNSTREAM_STREAMS));
        assertThat(Target.parse("webflux-http-p2").downstreamServerProperties()).isEmpty();
        assertThat(Target.parse("webflux-http-h2c").poolThreads()).isEqualTo(Target.parse("webflux-http").poolThreads() * DependencyTargets.DOWNSTREAM_STREAMS);
        assertThatThrownBy(() -> Target.parse("webflux-db-h2c")).hasMessageContaining("for http targets");
    }

    /** MVC over HTTP/2 calls with the JDK's HttpClient: one connection, its streams the pool, its threads where fewer; no -p. */
    @Test
    void mvcOverHttp2CountsTheStreamsOfItsOneConnectionOrItsThreads() {
        Target virtual = Target.parse("mvc-virtual-http-h2c");
        assertThat(virtual.poolThreads()).as("no threads to bound it: the streams").isEqualTo(DependencyTargets.DOWNSTREAM_STREAMS);
        assertThat(virtual.properties()).containsEntry("downstream.http2", "true").doesNotContainKey("downstream.max-connections");
        assertThat(virtual.downstreamServerProperties()).containsEntry(Target.HTTP2, "true");
        assertThat(Target.parse("mvc-t40-http-h2c").poolThreads()).as("40 threads, fewer than the streams").isEqualTo(40);
        assertThat(Target.parse("mvc-t200-http-h2c").poolThreads()).isEqualTo(DependencyTargets.DOWNSTREAM_STREAMS);
        assertThatThrownBy(() -> Target.parse("mvc-virtual-http-p5-h2c")).hasMessageContaining("no pool to size; drop -p<connections>");
    }
}
