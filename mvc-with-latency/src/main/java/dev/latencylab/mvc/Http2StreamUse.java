package dev.latencylab.mvc;

import java.io.IOException;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * How Tomcat's HTTP/2 streams are used, as gauges Tomcat does not publish: the requests running on HTTP/2 connections
 * now, the connections they run on, how many of those run as many as Tomcat lets one run at once (Http2Streams'
 * execution limit: the others wait in Tomcat, unseen here), that limit, and how long each ran (Tomcat's request timer
 * leaves HTTP/2's streams out). Together the lab reads them as a pool of
 * limit × connections: when users share connections it bounds goodput, not the threads. Counted per connection by
 * its id (Servlet 6's ServletConnection), only where server.http2.enabled.
 */
@Component
@ConditionalOnProperty(name = Http2StreamUse.ENABLED, havingValue = "true")
class Http2StreamUse extends OncePerRequestFilter {

    static final String ENABLED = "server.http2.enabled";
    static final String HTTP2 = "HTTP/2.0";

    /** Requests running now, by the id of the connection they came on; a connection with none is not kept. */
    private final ConcurrentHashMap<String, Integer> running = new ConcurrentHashMap<>();
    private final int limit;
    private final Timer ran;

    Http2StreamUse(MeterRegistry registry, Http2Streams streams) {
        this.limit = streams.executionLimit();
        Gauge.builder("latency.lab.http2.streams.executing", running, r -> r.values().stream().mapToInt(Integer::intValue).sum())
                .description("Requests running now on HTTP/2 connections").register(registry);
        Gauge.builder("latency.lab.http2.connections.executing", running, ConcurrentHashMap::size)
                .description("HTTP/2 connections with a request running now").register(registry);
        Gauge.builder("latency.lab.http2.connections.full", running, r -> r.values().stream().filter(n -> n >= limit).count())
                .description("HTTP/2 connections running as many requests as Tomcat lets one run at once").register(registry);
        Gauge.builder("latency.lab.http2.stream.execution.max", () -> limit)
                .description("The requests Tomcat runs at once on one HTTP/2 connection (maxConcurrentStreamExecution)").register(registry);
        ran = Timer.builder("latency.lab.http2.stream").description("How long requests ran on HTTP/2 connections").register(registry);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!HTTP2.equals(request.getProtocol())) {
            chain.doFilter(request, response);
            return;
        }
        String connection = request.getServletConnection().getConnectionId();
        running.merge(connection, 1, Integer::sum);
        long start = System.nanoTime();
        try {
            chain.doFilter(request, response);
        }
        finally {
            ran.record(System.nanoTime() - start, java.util.concurrent.TimeUnit.NANOSECONDS);
            // compute is atomic per key: a request that starts on the connection meanwhile is not lost
            running.computeIfPresent(connection, (id, n) -> n == 1 ? null : n - 1);
        }
    }
}
