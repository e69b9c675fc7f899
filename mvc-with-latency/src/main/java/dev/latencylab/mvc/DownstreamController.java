package dev.latencylab.mvc;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

import dev.latencylab.contract.DependencyException;
import dev.latencylab.contract.Downstream;
import dev.latencylab.contract.Hello;
import dev.latencylab.contract.Latency;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.httpcomponents.hc5.PoolingHttpClientConnectionManagerMetricsBinder;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.apache.hc.core5.util.Timeout;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientResponseException;

/**
 * Real I/O the blocking way, over HTTP: the request thread holds one of Apache HttpClient 5's pooled connections
 * while the downstream service waits, through Spring's RestClient. The pool (HttpClient's default: 5 connections to
 * one host, 25 in all; downstream.max-connections sets both), not the thread count, bounds how many wait at once.
 * With downstream.http2, the JDK's HttpClient instead (HttpClient 5's classic client speaks HTTP/1.1 alone): one
 * HTTP/2 connection to the host, h2c by upgrade, each call a stream of it; the server's streams at once bound it, and
 * a call past them fails at once ("too many concurrent streams", JDK-8225647) rather than waiting for a stream.
 */
@RestController
public class DownstreamController implements DisposableBean {

    private final Downstream.Settings settings;
    private final long maxLatencyMs;
    /** HttpClient 5's (HTTP/1.1), or null over HTTP/2. */
    private final CloseableHttpClient http;
    /** The JDK's (HTTP/2), or null over HTTP/1.1. */
    private final HttpClient jdk;
    private final RestClient client;

    /** The JDK's HttpClient's words when the connection's streams are all in use (JDK-8225647: it does not wait). */
    static final String STREAMS_FULL = "too many concurrent streams";

    DownstreamController(Downstream.Settings settings, MeterRegistry registry,
            @Value("${" + Hello.MAX_LATENCY_PROPERTY + ":" + Hello.DEFAULT_MAX_LATENCY_MS + "}") long maxLatencyMs,
            @Value("${" + Downstream.HTTP2_PROPERTY + ":false}") boolean http2) {
        this.settings = settings;
        this.maxLatencyMs = maxLatencyMs;
        if (http2 && settings.maxConnections() != null) {
            throw new IllegalArgumentException(Downstream.MAX_CONNECTIONS_PROPERTY + " and " + Downstream.HTTP2_PROPERTY
                    + ": over HTTP/2 this target calls with the JDK's HttpClient, one connection to the host and no pool to size");
        }
        this.jdk = http2 ? HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).connectTimeout(settings.connectTimeout()).build() : null;
        this.http = http2 ? null : pooled(settings, registry);
        this.client = RestClient.builder().requestFactory(http2 ? overJdk(jdk, settings) : new HttpComponentsClientHttpRequestFactory(http))
                .baseUrl(settings.url().toString()).build();
    }

    /** HttpClient 5 on a pool of downstream.max-connections (its default unless set), its gauges in the registry. */
    private static CloseableHttpClient pooled(Downstream.Settings settings, MeterRegistry registry) {
        PoolingHttpClientConnectionManagerBuilder pool = PoolingHttpClientConnectionManagerBuilder.create()
                .setDefaultConnectionConfig(ConnectionConfig.custom().setConnectTimeout(timeout(settings.connectTimeout()))
                        .setSocketTimeout(timeout(settings.responseTimeout())).build());
        if (settings.maxConnections() != null) {
            pool.setMaxConnTotal(settings.maxConnections()).setMaxConnPerRoute(settings.maxConnections());
        }
        PoolingHttpClientConnectionManager connections = pool.build();
        // httpcomponents.httpclient.pool.*: the pool's size, leased and available connections, requests waiting for one
        new PoolingHttpClientConnectionManagerMetricsBinder(connections, Downstream.DEPENDENCY).bindTo(registry);
        return HttpClients.custom().setConnectionManager(connections)
                .setDefaultRequestConfig(RequestConfig.custom().setConnectionRequestTimeout(timeout(settings.acquireTimeout()))
                        .setResponseTimeout(timeout(settings.responseTimeout())).build())
                .build();
    }

    /** The JDK's client as RestClient's, its answer waited for up to downstream.response-timeout. */
    private static JdkClientHttpRequestFactory overJdk(HttpClient jdk, Downstream.Settings settings) {
        JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory(jdk);
        factory.setReadTimeout(settings.responseTimeout());
        return factory;
    }

    private static Timeout timeout(Duration d) {
        return Timeout.ofMilliseconds(d.toMillis());
    }

    @GetMapping("/http/{latency}")
    String http(@PathVariable String latency) {
        Duration wait = Latency.parse(latency, maxLatencyMs);
        try {
            return client.get().uri(Downstream.path(wait)).retrieve().body(String.class);
        }
        catch (ResourceAccessException e) {
            throw failure(e);
        }
        catch (RestClientResponseException e) {
            throw settings.badAnswer(e.getStatusCode().value(), e);
        }
    }

    /** Which bound gave up, from the client's exception (RestClient wraps every I/O failure in the same type). */
    private DependencyException failure(ResourceAccessException e) {
        Throwable cause = e.getCause();
        if (cause instanceof ConnectionRequestTimeoutException) {
            return settings.poolBusy(e);
        }
        if (cause instanceof ConnectTimeoutException || cause instanceof ConnectException || cause instanceof HttpConnectTimeoutException) {
            return settings.noConnection(e);
        }
        if (cause instanceof SocketTimeoutException || cause instanceof HttpTimeoutException) {
            return settings.noAnswer(e);
        }
        if (cause instanceof IOException io && String.valueOf(io.getMessage()).contains(STREAMS_FULL)) {
            return DependencyException.atOnce(Downstream.DEPENDENCY, settings.acquireTimeout(), "no stream free on the HTTP/2 connection "
                    + "(the JDK's HttpClient fails a call past the server's SETTINGS_MAX_CONCURRENT_STREAMS)", e);
        }
        // e.g. the downstream closed the connection mid-answer (it stopped): the next request opens another
        return settings.unavailable(settings.responseTimeout(), "the connection failed (" + cause + ")", e);
    }

    @Override
    public void destroy() throws IOException {
        if (http != null) {
            http.close();
        }
        if (jdk != null) {
            jdk.close();
        }
    }
}
