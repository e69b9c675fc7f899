package dev.latencylab.webflux;

import java.net.ConnectException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

import dev.latencylab.contract.DependencyException;
import dev.latencylab.contract.Downstream;
import dev.latencylab.contract.Hello;
import dev.latencylab.contract.Latency;
import io.netty.channel.ChannelOption;
import io.netty.handler.timeout.ReadTimeoutException;
import reactor.core.publisher.Mono;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import org.springframework.web.reactive.function.client.WebClientResponseException;

/**
 * Real I/O the non-blocking way, over HTTP: no thread waits, but the request holds one of Reactor Netty's pooled
 * connections while the downstream service waits, through Spring's WebClient. The pool (Reactor Netty's default:
 * 2 × max(cores, 8) connections, and at most twice that many requests waiting for one; downstream.max-connections
 * sets the first) bounds how many wait at once, as it does for MVC.
 */
@RestController
public class DownstreamController implements DisposableBean {

    private final Downstream.Settings settings;
    private final long maxLatencyMs;
    private final ConnectionProvider connections;
    private final WebClient client;

    DownstreamController(Downstream.Settings settings,
            @Value("${" + Hello.MAX_LATENCY_PROPERTY + ":" + Hello.DEFAULT_MAX_LATENCY_MS + "}") long maxLatencyMs,
            @Value("${" + Downstream.HTTP2_PROPERTY + ":false}") boolean http2) {
        this.settings = settings;
        this.maxLatencyMs = maxLatencyMs;
        // metrics: reactor.netty.connection.provider.* (max, active, pending connections) in Micrometer's global
        // registry, which Boot's Prometheus registry joins
        ConnectionProvider.Builder pool = ConnectionProvider.builder(Downstream.DEPENDENCY)
                .pendingAcquireTimeout(settings.acquireTimeout()).metrics(true);
        if (settings.maxConnections() != null) {
            pool.maxConnections(settings.maxConnections());
        }
        this.connections = pool.build();
        // over HTTP/2 a connection carries as many requests at once as the downstream's SETTINGS_MAX_CONCURRENT_STREAMS
        HttpClient http = HttpClient.create(connections).protocol(http2 ? HttpProtocol.H2C : HttpProtocol.HTTP11)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) settings.connectTimeout().toMillis())
                .responseTimeout(settings.responseTimeout());
        this.client = WebClient.builder().clientConnector(new ReactorClientHttpConnector(http)).baseUrl(settings.url().toString()).build();
    }

    @GetMapping("/http/{latency}")
    Mono<String> http(@PathVariable String latency) {
        Duration wait = Latency.parse(latency, maxLatencyMs);
        return client.get().uri(Downstream.path(wait)).retrieve().bodyToMono(String.class)
                .onErrorMap(WebClientResponseException.class, e -> settings.badAnswer(e.getStatusCode().value(), e))
                .onErrorMap(WebClientRequestException.class, this::failure);
    }

    /** Which bound gave up, from Reactor Netty's exception (WebClient wraps every failure before an answer in one type). */
    private DependencyException failure(WebClientRequestException e) {
        for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
            // reactor-pool's exceptions are shaded into Reactor Netty: known by name, not by a type to import
            if (c.getClass().getSimpleName().equals("PoolAcquirePendingLimitException")) {
                return DependencyException.atOnce(Downstream.DEPENDENCY, settings.acquireTimeout(),
                        "no connection from the pool, and its queue of waiting requests is full (Reactor Netty's pendingAcquireMaxCount)", e);
            }
            if (c instanceof TimeoutException && c.getClass().getSimpleName().equals("PoolAcquireTimeoutException")) {
                return settings.poolBusy(e);
            }
            if (c instanceof ReadTimeoutException) {
                return settings.noAnswer(e);
            }
            if (c instanceof ConnectException) {
                return settings.noConnection(e);
            }
        }
        // e.g. the downstream closed the connection mid-answer (it stopped): the next request opens another
        return settings.unavailable(settings.responseTimeout(), "the connection failed (" + e.getMostSpecificCause() + ")", e);
    }

    @Override
    public void destroy() {
        connections.dispose();
    }
}
