package dev.latencylab.load.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** Prometheus text as the sampler keeps it, and the connection pool a loaded path waits on. */
class PrometheusTextTest {

    @Test
    void prometheusGaugesAreSummedPerNameKeepingHeapAndTheLoadedConnector() {
        String text = """
                # HELP jvm_threads_live_threads x
                jvm_threads_live_threads 216.0
                jvm_memory_used_bytes{area="heap",id="G1 Eden Space"} 100.0
                jvm_memory_used_bytes{area="heap",id="G1 Old Gen"} 50.0
                jvm_memory_used_bytes{area="nonheap",id="Metaspace"} 7.0
                tomcat_threads_busy_threads{name="http-nio-8091"} 200.0
                tomcat_threads_busy_threads{name="http-nio-9091"} 1.0
                process_cpu_usage 0.5
                httpcomponents_httpclient_pool_total_connections{httpclient="downstream",state="available"} 3.0
                httpcomponents_httpclient_pool_total_connections{httpclient="downstream",state="leased"} 5.0
                httpcomponents_httpclient_pool_route_max_default{httpclient="downstream"} 5.0
                """;
        Map<String, Double> m = Sampler.parsePrometheus(text, "name=\"http-nio-8091\"");
        assertThat(m).containsEntry("jvm_threads_live_threads", 216.0)
                .containsEntry("jvm_memory_used_bytes{area=\"heap\"}", 150.0)
                .containsEntry("tomcat_threads_busy_threads", 200.0)
                .containsEntry("process_cpu_usage", 0.5)
                .containsEntry("httpcomponents_httpclient_pool_total_connections{state=\"leased\"}", 5.0);
        assertThat(Sampler.ConnectionPool.in(m, "/http/100")).as("the pool is HttpClient's").hasValue(Sampler.ConnectionPool.HTTPCLIENT5);
        assertThat(Sampler.ConnectionPool.gauge(m, "/http/100", p -> p.active)).as("leased, not leased + available").isEqualTo(5.0);
        assertThat(Sampler.ConnectionPool.in(m, "/hello/100")).as("/hello waits on no pool").isEmpty();
    }

    /** WebFlux publishes its r2dbc-pool (idle, 10) beside Reactor Netty's on /http: the path decides which one counts. */
    @Test
    void thePoolCountedIsTheOneTheLoadedPathWaitsOn() {
        String text = """
                r2dbc_pool_max_allocated_connections{name="connectionFactory"} 10.0
                r2dbc_pool_acquired_connections{name="connectionFactory"} 0.0
                reactor_netty_connection_provider_max_connections{id="1",name="downstream",remote_address="127.0.0.1:8093"} 16.0
                reactor_netty_connection_provider_active_connections{id="1",name="downstream",remote_address="127.0.0.1:8093"} 16.0
                reactor_netty_connection_provider_active_connections{id="1",name="http2.downstream",remote_address="127.0.0.1:8093"} 3.0
                reactor_netty_connection_provider_active_streams{id="1",name="http2.downstream",remote_address="127.0.0.1:8093"} 57.0
                """;
        Map<String, Double> m = Sampler.parsePrometheus(text, "name=\"http-nio-8092\"");
        assertThat(Sampler.ConnectionPool.in(m, "/http/100")).hasValue(Sampler.ConnectionPool.REACTOR_NETTY);
        assertThat(Sampler.ConnectionPool.gauge(m, "/http/100", p -> p.max)).isEqualTo(16.0);
        assertThat(Sampler.ConnectionPool.gauge(m, "/http/100", p -> p.active)).as("the TCP pool's, not its HTTP/2 pool's beside it")
                .isEqualTo(16.0);
        assertThat(Sampler.ConnectionPool.in(m, "/db/100")).hasValue(Sampler.ConnectionPool.R2DBC);
    }
}
