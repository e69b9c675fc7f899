package dev.latencylab.load;

import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import tools.jackson.databind.JsonNode;

/**
 * Spring Boot's own /actuator/metrics JSON, for a service whose actuator has no Prometheus registry (many have none):
 * the gauges the sampler reads, one request each, under the names the Prometheus text gives them, so that the rest of
 * the sampler reads both alike. Only the gauges the service lists are asked for.
 */
final class ActuatorMetrics {

    /** A gauge: the sampler's key (its Prometheus name), the metric's name here, and the tag that picks it (or null). */
    record Gauge(String key, String metric, String tag) {
    }

    /** The gauges of {@link Sampler#sample} and of the result's last values that Spring Boot's JSON also has. */
    static List<Gauge> gauges(int serverPort) {
        return List.of(new Gauge("process_cpu_usage", "process.cpu.usage", null),
                new Gauge("jvm_threads_live_threads", "jvm.threads.live", null),
                new Gauge("jvm_threads_peak_threads", "jvm.threads.peak", null),
                new Gauge("tomcat_threads_busy_threads", "tomcat.threads.busy", "name:http-nio-" + serverPort),
                new Gauge("jvm_memory_used_bytes{area=\"heap\"}", "jvm.memory.used", "area:heap"),
                new Gauge("process_files_open_files", "process.files.open", null),
                new Gauge("process_files_max_files", "process.files.max", null),
                new Gauge("hikaricp_connections_max", "hikaricp.connections.max", null),
                new Gauge("hikaricp_connections_active", "hikaricp.connections.active", null),
                new Gauge("hikaricp_connections_pending", "hikaricp.connections.pending", null));
    }

    private final HttpClient http;
    private final String metricsUrl;
    /** The gauges this service lists, asked for at each sample. */
    private final List<Gauge> listed;

    private ActuatorMetrics(HttpClient http, String metricsUrl, List<Gauge> listed) {
        this.http = http;
        this.metricsUrl = metricsUrl;
        this.listed = listed;
    }

    /** The service's /actuator/metrics, when it answers with its list of metric names. */
    static Optional<ActuatorMetrics> at(HttpClient http, String metricsUrl, int serverPort) {
        return names(http, metricsUrl).map(names -> new ActuatorMetrics(http, metricsUrl,
                gauges(serverPort).stream().filter(g -> names.contains(g.metric())).toList()));
    }

    /** The metric names /actuator/metrics lists; empty when it does not answer so. */
    static Optional<Set<String>> names(HttpClient http, String metricsUrl) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(metricsUrl + "/actuator/metrics"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            JsonNode names = r.statusCode() == 200 ? Json.MAPPER.readTree(r.body()).path("names") : null;
            if (names == null || !names.isArray()) {
                return Optional.empty();
            }
            Set<String> found = new HashSet<>();
            names.forEach(n -> found.add(n.asString()));
            return Optional.of(found);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
        catch (Exception e) {
            return Optional.empty(); // nothing there, or not JSON
        }
    }

    /** How many gauges a sample asks for. */
    int gaugeCount() {
        return listed.size();
    }

    /**
     * One sample: each listed gauge's value (its VALUE measurement), keyed as the Prometheus text keys it. A gauge that
     * did not answer in time is left out; the service refusing connections is thrown, as a scrape's refusal is.
     */
    Map<String, Double> read() throws ConnectException, InterruptedException {
        Map<String, Double> values = new HashMap<>();
        for (Gauge g : listed) {
            String url = metricsUrl + "/actuator/metrics/" + g.metric() + (g.tag() == null ? "" : "?tag=" + g.tag());
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    value(Json.MAPPER.readTree(r.body())).ifPresent(v -> values.put(g.key(), v));
                }
            }
            catch (ConnectException | InterruptedException e) {
                throw e;
            }
            catch (Exception e) {
                // late, or not the JSON expected: this gauge is missing from this sample
            }
        }
        return values;
    }

    /** The VALUE measurement of one metric's JSON (Spring Boot's shape: measurements of statistic and value). */
    static Optional<Double> value(JsonNode metric) {
        for (JsonNode m : metric.path("measurements")) {
            if ("VALUE".equals(m.path("statistic").asString()) && m.path("value").isNumber()) {
                return Optional.of(m.path("value").asDouble());
            }
        }
        return Optional.empty();
    }
}
