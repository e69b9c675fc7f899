package dev.latencylab.webflux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import reactor.netty.http.server.HttpServer;

/** Reactor Netty's HTTP/2 stream limit as a setting: Netty's own unless given, then the given one, and none below 1. */
class Http2StreamsTest {

    @Test
    void unsetKeepsNettysOwnAndSetReplacesIt() {
        assertThat(new Http2Streams(0).apply(HttpServer.create()).configuration().http2SettingsSpec())
                .as("nothing set: Netty's own settings").satisfiesAnyOf(s -> assertThat(s).isNull(), s -> assertThat(s.maxConcurrentStreams()).isNull());
        assertThat(new Http2Streams(50).apply(HttpServer.create()).configuration().http2SettingsSpec().maxConcurrentStreams()).isEqualTo(50);
        assertThatThrownBy(() -> new Http2Streams(-1)).hasMessageContaining("latency-lab.http2.max-concurrent-streams=-1");
    }
}
