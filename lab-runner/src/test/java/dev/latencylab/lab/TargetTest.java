package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Target ids: what each starts, loads and bounds the model with. */
class TargetTest {

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
    }

    @Test
    void aDbTargetOnAnotherPathOrWithoutConnectionsIsRefused() {
        assertThatThrownBy(() -> Target.parse("webflux-block-parallel-db")).hasMessageContaining("-db builds on");
        assertThatThrownBy(() -> Target.parse("mvc-virtual-uncapped-db")).hasMessageContaining("-db builds on");
        assertThatThrownBy(() -> Target.parse("webflux-db-p0")).hasMessageContaining("at least 1 connection");
        assertThatThrownBy(() -> Target.parse("nope-db")).hasMessageContaining("unknown target 'nope'");
    }
}
