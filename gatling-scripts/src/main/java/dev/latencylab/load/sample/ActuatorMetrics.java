package dev.latencylab.load.sample;

import dev.latencylab.load.metrics.BoundedAnswer;
import dev.latencylab.load.metrics.MetricsEndpoint;
import dev.latencylab.load.result.Json;

import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import tools.jackson.databind.JsonNode;

/**
 * Spring Boot's own /actuator/metrics JSON, for a service whose actuator has no Prometheus registry (many have none):
 * the gauges the sampler reads, one request each, under the names the Prometheus text gives them, so that the rest of
 * the sampler reads both alike. Only the gauges the service lists are asked for.
 */
final class ActuatorMetrics {

    /**
     * A gauge: the sampler's key (its Prometheus name), the metric's name here, the tag that picks it (or null), and the
     * measurement read (VALUE for a gauge; a timer's COUNT and TOTAL_TIME, in seconds, as its _count and _sum).
     */
    record Gauge(String key, String metric, String tag, String statistic) {

        Gauge(String key, String metric, String tag) {
            this(key, metric, tag, "VALUE");
        }

        /** The URL part that asks for it: gauges of one metric and tag share one request. */
        String query() {
            return metric + (tag == null ? "" : "?tag=" + tag);
        }
    }

    /** The gauges of {@link Sampler#sample}, of the result's last values and of the pools that Spring Boot's JSON also has. */
    static List<Gauge> gauges(String tomcatConnector) {
        String connector = "name:" + tomcatConnector;
        return List.of(new Gauge("process_cpu_usage", "process.cpu.usage", null),
                new Gauge("jvm_threads_live_threads", "jvm.threads.live", null),
                new Gauge("jvm_threads_peak_threads", "jvm.threads.peak", null),
                new Gauge("tomcat_threads_busy_threads", "tomcat.threads.busy", connector),
                new Gauge("tomcat_threads_config_max_threads", "tomcat.threads.config.max", connector),
                new Gauge("tomcat_global_request_seconds_count", "tomcat.global.request", connector, "COUNT"),
                new Gauge("tomcat_global_request_seconds_sum", "tomcat.global.request", connector, "TOTAL_TIME"),
                new Gauge(ServicePools.TOMCAT_SESSIONS, "tomcat.sessions.active.current", null),
                new Gauge("tomcat_connections_config_max_connections", "tomcat.connections.config.max", connector),
                new Gauge("tomcat_connections_current_connections", "tomcat.connections.current", connector),
                new Gauge("jetty_threads_config_max", "jetty.threads.config.max", null),
                new Gauge("jetty_threads_busy", "jetty.threads.busy", null),
                new Gauge("jetty_threads_jobs", "jetty.threads.jobs", null),
                new Gauge("jvm_memory_used_bytes{area=\"heap\"}", "jvm.memory.used", "area:heap"),
                new Gauge("process_files_open_files", "process.files.open", null),
                new Gauge("process_files_max_files", "process.files.max", null),
                new Gauge("hikaricp_connections_max", "hikaricp.connections.max", null),
                new Gauge("hikaricp_connections_active", "hikaricp.connections.active", null),
                new Gauge("hikaricp_connections_pending", "hikaricp.connections.pending", null),
                new Gauge("hikaricp_connections_usage_seconds_count", "hikaricp.connections.usage", null, "COUNT"),
                new Gauge("hikaricp_connections_usage_seconds_sum", "hikaricp.connections.usage", null, "TOTAL_TIME"),
                new Gauge(ServicePools.DATASOURCE_MAX, "jdbc.connections.max", null),
                new Gauge(Sampler.ConnectionPool.R2DBC.max, "r2dbc.pool.max.allocated", null),
                new Gauge(Sampler.ConnectionPool.R2DBC.active, "r2dbc.pool.acquired", null),
                new Gauge(Sampler.ConnectionPool.R2DBC.pending, "r2dbc.pool.pending", null),
                new Gauge(Sampler.ConnectionPool.HTTPCLIENT5.max, "httpcomponents.httpclient.pool.route.max.default", null),
                new Gauge(Sampler.ConnectionPool.HTTPCLIENT5.active, "httpcomponents.httpclient.pool.total.connections", "state:leased"),
                new Gauge(Sampler.ConnectionPool.HTTPCLIENT5.pending, "httpcomponents.httpclient.pool.total.pending", null),
                new Gauge(Sampler.ConnectionPool.REACTOR_NETTY.max, "reactor.netty.connection.provider.max.connections", null),
                new Gauge(Sampler.ConnectionPool.REACTOR_NETTY.active, REACTOR_NETTY_ACTIVE, null),
                new Gauge(Sampler.ConnectionPool.REACTOR_NETTY.pending, "reactor.netty.connection.provider.pending.connections", null));
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
    static Optional<ActuatorMetrics> at(HttpClient http, String metricsUrl, String tomcatConnector) {
        return MetricsEndpoint.names(http, metricsUrl).map(names -> {
            List<Gauge> listed = new java.util.ArrayList<>(gauges(tomcatConnector).stream().filter(g -> names.contains(g.metric())).toList());
            if (names.contains("executor.active")) {
                tagValues(http, metricsUrl, "executor.active", "name").forEach(name -> listed.addAll(executorGauges(name)));
            }
            if (names.contains(REACTOR_NETTY_ACTIVE)) {
                // its TCP pools' connections in use, each asked by name: an HTTP/2 pool's, listed beside them, counts no connections
                List<String> all = tagValues(http, metricsUrl, REACTOR_NETTY_ACTIVE, "name");
                List<String> tcp = all.stream().filter(n -> !n.startsWith(Sampler.HTTP2_POOL_PREFIX)).toList();
                if (!tcp.isEmpty() && tcp.size() < all.size()) {
                    listed.removeIf(g -> g.key().equals(Sampler.ConnectionPool.REACTOR_NETTY.active));
                    tcp.forEach(n -> listed.add(new Gauge(Sampler.ConnectionPool.REACTOR_NETTY.active, REACTOR_NETTY_ACTIVE, nameTag(n))));
                }
            }
            return new ActuatorMetrics(http, metricsUrl, listed);
        });
    }

    /** The gauges of one executor, keyed as the Prometheus text keys them (ServicePools#executorKey). */
    static List<Gauge> executorGauges(String executor) {
        String tag = nameTag(executor);
        return List.of(new Gauge(ServicePools.executorKey(ServicePools.EXECUTOR_ACTIVE, executor), "executor.active", tag),
                new Gauge(ServicePools.executorKey(ServicePools.EXECUTOR_QUEUED, executor), "executor.queued", tag),
                new Gauge(ServicePools.executorKey(ServicePools.EXECUTOR_CORE, executor), "executor.pool.core", tag),
                new Gauge(ServicePools.executorKey(ServicePools.EXECUTOR_MAX, executor), "executor.pool.max", tag),
                new Gauge(ServicePools.executorKey(ServicePools.EXECUTOR_REMAINING, executor), "executor.queue.remaining", tag));
    }

    /** A query's tag of one executor or pool by its name tag, as /actuator/metrics takes it. */
    private static String nameTag(String name) {
        return "name:" + java.net.URLEncoder.encode(name, java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Reactor Netty's connections in use, a gauge of each of its pools. */
    static final String REACTOR_NETTY_ACTIVE = "reactor.netty.connection.provider.active.connections";

    /** The values of a metric's tag, e.g. the executors Micrometer publishes; none when it does not answer so. */
    static List<String> tagValues(HttpClient http, String metricsUrl, String metric, String name) {
        List<String> found = new java.util.ArrayList<>();
        MetricsEndpoint.document(http, metricsUrl + "/actuator/metrics/" + metric).ifPresent(document -> {
            for (JsonNode tag : document.path("availableTags")) {
                if (name.equals(tag.path("tag").asString())) {
                    tag.path("values").forEach(v -> found.add(v.asString()));
                }
            }
        });
        return found;
    }

    /** How many requests a sample makes: one per metric and tag. */
    int gaugeCount() {
        return (int) listed.stream().map(Gauge::query).distinct().count();
    }

    /**
     * One sample: each listed gauge's value (its measurement), keyed as the Prometheus text keys it. A metric that did
     * not answer in time is left out; the service refusing connections is thrown, as a scrape's refusal is.
     */
    Map<String, Double> read() throws ConnectException, InterruptedException {
        Map<String, Double> values = new HashMap<>();
        Map<String, List<Gauge>> byQuery = new java.util.LinkedHashMap<>();
        listed.forEach(g -> byQuery.computeIfAbsent(g.query(), q -> new java.util.ArrayList<>()).add(g));
        for (Map.Entry<String, List<Gauge>> e : byQuery.entrySet()) {
            try {
                BoundedAnswer r = BoundedAnswer.get(http, HttpRequest.newBuilder(URI.create(metricsUrl + "/actuator/metrics/" + e.getKey()))
                        .timeout(Duration.ofSeconds(2)).build(), Duration.ofSeconds(2));
                if (r.status() == 200) {
                    JsonNode metric = Json.MAPPER.readTree(r.body());
                    // a key asked in several queries (each of Reactor Netty's TCP pools) is their sum, as in the Prometheus text
                    e.getValue().forEach(g -> value(metric, g.statistic()).ifPresent(v -> values.merge(g.key(), v, Double::sum)));
                }
            }
            catch (ConnectException | InterruptedException ex) {
                throw ex;
            }
            catch (Exception ex) {
                // late, or not the JSON expected: this metric is missing from this sample
            }
        }
        return values;
    }

    /** One measurement of one metric's JSON (Spring Boot's shape: measurements of statistic and value). */
    static Optional<Double> value(JsonNode metric, String statistic) {
        for (JsonNode m : metric.path("measurements")) {
            if (statistic.equals(m.path("statistic").asString()) && m.path("value").isNumber()) {
                return Optional.of(m.path("value").asDouble());
            }
        }
        return Optional.empty();
    }
}
