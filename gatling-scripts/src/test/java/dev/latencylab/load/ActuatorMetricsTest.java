package dev.latencylab.load;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Spring Boot's /actuator/metrics JSON as the sampler reads it: a gauge's VALUE, none from a metric that has no VALUE
 * (a timer), and each gauge under the key the Prometheus text gives it, so that both are read alike.
 */
class ActuatorMetricsTest {

    @Test
    void aGaugesValueIsItsValueMeasurement() {
        var gauge = Json.MAPPER.readTree("""
                {"name":"jvm.threads.live","description":"live threads","baseUnit":"threads",
                 "measurements":[{"statistic":"VALUE","value":23.0}],"availableTags":[]}""");
        assertThat(ActuatorMetrics.value(gauge)).contains(23.0);
        var timer = Json.MAPPER.readTree("""
                {"name":"http.server.requests","measurements":[{"statistic":"COUNT","value":12.0},
                 {"statistic":"TOTAL_TIME","value":0.3},{"statistic":"MAX","value":0.1}]}""");
        assertThat(ActuatorMetrics.value(timer)).isEmpty();
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
                """;
        var parsed = Sampler.parsePrometheus(text, "name=\"http-nio-8080\"");
        for (String key : java.util.List.of("jvm_threads_live_threads", "tomcat_threads_busy_threads", "jvm_memory_used_bytes{area=\"heap\"}",
                "hikaricp_connections_active")) {
            assertThat(parsed).containsKey(key);
            assertThat(ActuatorMetrics.gauges(8080)).extracting(ActuatorMetrics.Gauge::key).contains(key);
        }
        assertThat(ActuatorMetrics.gauges(8080)).filteredOn(g -> g.metric().equals("tomcat.threads.busy"))
                .extracting(ActuatorMetrics.Gauge::tag).containsExactly("name:http-nio-8080");
    }
}
