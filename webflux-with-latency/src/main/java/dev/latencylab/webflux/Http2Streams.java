package dev.latencylab.webflux;

import reactor.netty.http.server.HttpServer;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.stereotype.Component;

/**
 * Reactor Netty's HTTP/2 limit on a connection as a setting (Spring Boot has none): the streams a client may open at
 * once (SETTINGS_MAX_CONCURRENT_STREAMS). Netty runs every stream it admits at once, so unlike Tomcat's it is no pool
 * of the server's: a client past it opens another connection. Unset, Netty's own; the same name as the MVC target's.
 */
@Component
class Http2Streams implements NettyServerCustomizer {

    static final String MAX_STREAMS = "latency-lab.http2.max-concurrent-streams";

    private final long maxStreams;

    Http2Streams(@Value("${" + MAX_STREAMS + ":0}") long maxStreams) {
        if (maxStreams < 0) {
            throw new IllegalArgumentException("%s=%d: give 1 or more (unset: Netty's own)".formatted(MAX_STREAMS, maxStreams));
        }
        this.maxStreams = maxStreams;
    }

    @Override
    public HttpServer apply(HttpServer server) {
        return maxStreams > 0 ? server.http2Settings(settings -> settings.maxConcurrentStreams(maxStreams)) : server;
    }
}
