package dev.latencylab.load.metrics;

import dev.latencylab.load.result.Json;
import dev.latencylab.load.tls.TlsTrust;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import tools.jackson.databind.JsonNode;

/**
 * Where a server's metrics can be read: Prometheus text, else Spring Boot's /actuator/metrics JSON. The runner asks it
 * where a user's service publishes them; the simulation's preflight and sampler read them from there.
 */
public final class MetricsEndpoint {

    /** The client of the last trust asked for, kept: a client holds a thread of its own. */
    private static volatile Map.Entry<TlsTrust, HttpClient> client;

    /**
     * The client of the checks made once before a run (this one's, the preflight's): HTTP/1.1, 5 s to connect,
     * trusting what the load trusts (this JVM's gatling.ssl.* properties).
     */
    public static HttpClient http() {
        TlsTrust trust = TlsTrust.ofThisJvm();
        Map.Entry<TlsTrust, HttpClient> kept = client;
        if (kept == null || !kept.getKey().equals(trust)) {
            kept = Map.entry(trust, trust.httpClient(Duration.ofSeconds(5)));
            client = kept;
        }
        return kept.getValue();
    }

    private MetricsEndpoint() {
    }

    /**
     * Why the server's metrics cannot be read at metricsUrl, once before the run: neither Prometheus text nor Spring
     * Boot's /actuator/metrics JSON; null when one is there. A service without an actuator is not a server that went
     * down: its run goes on without server-side metrics, instead of recording every sample as refused.
     */
    public static String unseen(String metricsUrl) {
        String prometheus = prometheusUnseen(metricsUrl);
        if (prometheus == null || names(http(), metricsUrl).isPresent()) {
            return null;
        }
        return prometheus + ", nor Spring Boot's JSON at " + metricsUrl + "/actuator/metrics";
    }

    /** Why the server's Prometheus text is not at metricsUrl; null when it is. */
    public static String prometheusUnseen(String metricsUrl) {
        String url = metricsUrl + "/actuator/prometheus";
        try {
            BoundedAnswer r = BoundedAnswer.get(http(), HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                    Duration.ofSeconds(10));
            if (r.status() != 200) {
                return "%s answers HTTP %d".formatted(url, r.status());
            }
            return r.body().contains("# TYPE ") ? null : url + " answers, but not with Prometheus text";
        }
        catch (java.net.ConnectException e) {
            return "nothing listens at " + url;
        }
        catch (IOException | IllegalArgumentException e) {
            return "%s cannot be read (%s)".formatted(url, e.getMessage());
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return url + ": interrupted";
        }
    }

    /** The metric names Spring Boot's /actuator/metrics lists; empty when it does not answer so. */
    public static Optional<Set<String>> names(HttpClient http, String metricsUrl) {
        return document(http, metricsUrl + "/actuator/metrics").map(d -> d.path("names")).filter(JsonNode::isArray).map(names -> {
            Set<String> found = new HashSet<>();
            names.forEach(n -> found.add(n.asString()));
            return found;
        });
    }

    /** The JSON an actuator URL answers with (200); empty when it does not answer so, in time, or with JSON. */
    public static Optional<JsonNode> document(HttpClient http, String url) {
        try {
            BoundedAnswer r = BoundedAnswer.get(http, HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                    Duration.ofSeconds(10));
            return r.status() == 200 && !r.truncated() ? Optional.of(Json.MAPPER.readTree(r.body())) : Optional.empty();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
        catch (Exception e) {
            return Optional.empty(); // nothing there, or not JSON
        }
    }
}
