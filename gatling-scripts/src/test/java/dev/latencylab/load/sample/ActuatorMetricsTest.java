package dev.latencylab.load.sample;

import dev.latencylab.load.result.Json;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Spring Boot's /actuator/metrics JSON as the sampler reads it: a gauge's VALUE, a timer's COUNT and TOTAL_TIME (none
 * asked of a measurement it lacks), and each gauge under the key the Prometheus text gives it, so that both are read
 * alike: the connection pools of r2dbc-pool, Apache HttpClient 5 and Reactor Netty among them (their names in the JSON
 * are the ones DownstreamIT and DatabaseContractTests read from the real targets).
 */
class ActuatorMetricsTest {

    @Test
    void eachGaugeIsTheMeasurementItNames() {
        var gauge = Json.MAPPER.readTree("""
                {"name":"jvm.threads.live","description":"live threads","baseUnit":"threads",
                 "measurements":[{"statistic":"VALUE","value":23.0}],"availableTags":[]}""");
        assertThat(ActuatorMetrics.value(gauge, "VALUE")).contains(23.0);
        var timer = Json.MAPPER.readTree("""
                {"name":"http.server.requests","measurements":[{"statistic":"COUNT","value":12.0},
                 {"statistic":"TOTAL_TIME","value":0.3},{"statistic":"MAX","value":0.1}]}""");
        assertThat(ActuatorMetrics.value(timer, "VALUE")).isEmpty();
        assertThat(ActuatorMetrics.value(timer, "COUNT")).contains(12.0);
        assertThat(ActuatorMetrics.value(timer, "TOTAL_TIME")).contains(0.3);
    }

    @Test
    void eachGaugeIsKeyedAsThePrometheusTextKeysIt() {
        String text = """
                # TYPE jvm_threads_live_threads gauge
                jvm_threads_live_threads 23.0
                # TYPE tomcat_threads_busy_threads gauge
                tomcat_threads_busy_threads{name="http-nio-8080"} 4.0
                # TYPE jvm_memory_used_bytes gauge
                jvm_memory_used_bytes{area="heap",id="G1 Eden Space"} 1000.0
                # TYPE hikaricp_connections_active gauge
                hikaricp_connections_active{pool="HikariPool-1"} 2.0
                hikaricp_connections_usage_seconds_count{pool="HikariPool-1"} 3
                hikaricp_connections_usage_seconds_sum{pool="HikariPool-1"} 0.157
                jdbc_connections_max{name="dataSource"} 10.0
                tomcat_global_request_seconds_count{name="http-nio-8080"} 2
                tomcat_global_request_seconds_sum{name="http-nio-8080"} 0.35
                tomcat_sessions_active_current_sessions 0.0
                tomcat_threads_config_max_threads{name="http-nio-8080"} 50.0
                tomcat_threads_config_max_threads{name="http-nio-9080"} 200.0
                r2dbc_pool_max_allocated_connections{name="connectionFactory"} 10.0
                r2dbc_pool_acquired_connections{name="connectionFactory"} 3.0
                r2dbc_pool_pending_connections{name="connectionFactory"} 0.0
                httpcomponents_httpclient_pool_route_max_default{httpclient="downstream"} 5.0
                httpcomponents_httpclient_pool_total_connections{httpclient="downstream",state="leased"} 5.0
                httpcomponents_httpclient_pool_total_connections{httpclient="downstream",state="available"} 0.0
                httpcomponents_httpclient_pool_total_pending{httpclient="downstream"} 7.0
                reactor_netty_connection_provider_max_connections{id="1",name="downstream",remote_address="127.0.0.1:8092"} 16.0
                reactor_netty_connection_provider_active_connections{id="1",name="downstream",remote_address="127.0.0.1:8092"} 16.0
                reactor_netty_connection_provider_pending_connections{id="1",name="downstream",remote_address="127.0.0.1:8092"} 4.0
                """;
        var parsed = Sampler.parsePrometheus(text, "name=\"http-nio-8080\"");
        assertThat(parsed).as("Tomcat's, of the connector under load only").containsEntry("tomcat_threads_config_max_threads", 50.0);
        for (String key : java.util.List.of("jvm_threads_live_threads", "tomcat_threads_busy_threads", "jvm_memory_used_bytes{area=\"heap\"}",
                "hikaricp_connections_active", "hikaricp_connections_usage_seconds_count", "hikaricp_connections_usage_seconds_sum",
                "jdbc_connections_max", "tomcat_global_request_seconds_count", "tomcat_global_request_seconds_sum",
                "tomcat_sessions_active_current_sessions", "tomcat_threads_config_max_threads",
                // the connection pools of r2dbc-pool, Apache HttpClient 5 and Reactor Netty: read from the JSON too
                "r2dbc_pool_max_allocated_connections", "r2dbc_pool_acquired_connections", "r2dbc_pool_pending_connections",
                "httpcomponents_httpclient_pool_route_max_default", "httpcomponents_httpclient_pool_total_connections{state=\"leased\"}",
                "httpcomponents_httpclient_pool_total_pending", "reactor_netty_connection_provider_max_connections",
                "reactor_netty_connection_provider_active_connections", "reactor_netty_connection_provider_pending_connections")) {
            assertThat(parsed).containsKey(key);
            assertThat(ActuatorMetrics.gauges("http-nio-8080")).extracting(ActuatorMetrics.Gauge::key).contains(key);
        }
        assertThat(ActuatorMetrics.gauges("http-nio-8080")).filteredOn(g -> g.metric().equals("tomcat.threads.busy"))
                .extracting(ActuatorMetrics.Gauge::tag).containsExactly("name:http-nio-8080");
        assertThat(ActuatorMetrics.gauges("http-nio-8080")).filteredOn(g -> g.metric().equals("httpcomponents.httpclient.pool.total.connections"))
                .as("the leased alone, as the Prometheus text keeps them apart").extracting(ActuatorMetrics.Gauge::tag).containsExactly("state:leased");
        assertThat(parsed).as("leased, not leased and available summed").containsEntry("httpcomponents_httpclient_pool_total_connections{state=\"leased\"}",
                5.0);
    }

    /**
     * Reactor Netty's HTTP/2 client publishes its connections in use twice, for its TCP pool and for the HTTP/2 pool over
     * it: from Spring Boot's JSON (a real server on loopback answering as a WebFlux target did), the TCP pool's alone.
     */
    @Test
    void reactorNettysConnectionsInUseAreItsTcpPoolsAloneBesideAnHttp2Pool() throws Exception {
        String metric = "reactor.netty.connection.provider.active.connections";
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/actuator/metrics", e -> {
            String path = e.getRequestURI().getPath();
            String query = e.getRequestURI().getQuery();
            String body = path.equals("/actuator/metrics") ? "{\"names\":[\"" + metric + "\"]}"
                    : "{\"name\":\"" + metric + "\",\"measurements\":[{\"statistic\":\"VALUE\",\"value\":"
                            + (query == null ? "19.0" : query.equals("tag=name:downstream") ? "16.0" : "3.0")
                            + "}],\"availableTags\":[{\"tag\":\"name\",\"values\":[\"downstream\",\"http2.downstream\"]}]}";
            byte[] bytes = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            e.sendResponseHeaders(200, bytes.length);
            try (java.io.OutputStream out = e.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
        try {
            ActuatorMetrics metrics = ActuatorMetrics.at(java.net.http.HttpClient.newHttpClient(),
                    "http://127.0.0.1:" + server.getAddress().getPort(), "http-nio-8080").orElseThrow();
            assertThat(metrics.read()).containsEntry(Sampler.ConnectionPool.REACTOR_NETTY.active, 16.0);
        }
        finally {
            server.stop(0);
        }
    }
}
