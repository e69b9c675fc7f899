package dev.latencylab.load.sample;

import dev.latencylab.load.result.Json;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Spring Boot's /actuator/metrics JSON as the sampler reads it: a gauge's VALUE, a timer's COUNT and TOTAL_TIME (none
 * asked of a measurement it lacks), and each gauge under the key the Prometheus text gives it, so that both are read
 * alike.
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
                """;
        var parsed = Sampler.parsePrometheus(text, "name=\"http-nio-8080\"");
        assertThat(parsed).as("Tomcat's, of the connector under load only").containsEntry("tomcat_threads_config_max_threads", 50.0);
        for (String key : java.util.List.of("jvm_threads_live_threads", "tomcat_threads_busy_threads", "jvm_memory_used_bytes{area=\"heap\"}",
                "hikaricp_connections_active", "hikaricp_connections_usage_seconds_count", "hikaricp_connections_usage_seconds_sum",
                "jdbc_connections_max", "tomcat_global_request_seconds_count", "tomcat_global_request_seconds_sum",
                "tomcat_sessions_active_current_sessions", "tomcat_threads_config_max_threads")) {
            assertThat(parsed).containsKey(key);
            assertThat(ActuatorMetrics.gauges("http-nio-8080")).extracting(ActuatorMetrics.Gauge::key).contains(key);
        }
        assertThat(ActuatorMetrics.gauges("http-nio-8080")).filteredOn(g -> g.metric().equals("tomcat.threads.busy"))
                .extracting(ActuatorMetrics.Gauge::tag).containsExactly("name:http-nio-8080");
    }
}
