package dev.latencylab.load.sample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Where a server's metrics can be read: Prometheus text, else Spring Boot's /actuator/metrics JSON (ActuatorMetrics). */
public final class MetricsEndpoint {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private MetricsEndpoint() {
    }

    /**
     * Why the server's metrics cannot be read at metricsUrl, once before the run: neither Prometheus text nor Spring
     * Boot's /actuator/metrics JSON; null when one is there. A service without an actuator is not a server that went
     * down: its run goes on without server-side metrics, instead of recording every sample as refused.
     */
    public static String unseen(String metricsUrl) {
        String prometheus = prometheusUnseen(metricsUrl);
        if (prometheus == null || ActuatorMetrics.names(HTTP, metricsUrl).isPresent()) {
            return null;
        }
        return prometheus + ", nor Spring Boot's JSON at " + metricsUrl + "/actuator/metrics";
    }

    /** Why the server's Prometheus text is not at metricsUrl; null when it is. */
    public static String prometheusUnseen(String metricsUrl) {
        String url = metricsUrl + "/actuator/prometheus";
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                return "%s answers HTTP %d".formatted(url, r.statusCode());
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
}
