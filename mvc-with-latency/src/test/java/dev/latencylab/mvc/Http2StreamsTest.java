package dev.latencylab.mvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.catalina.connector.Connector;
import org.apache.coyote.http2.Http2Protocol;
import org.junit.jupiter.api.Test;

/** Tomcat's HTTP/2 limits as settings: Tomcat's own unless given, then the given ones, and none below 1. */
class Http2StreamsTest {

    private static Http2Protocol customized(long streams, int execution) {
        Connector connector = new Connector();
        connector.addUpgradeProtocol(new Http2Protocol());
        new Http2Streams(streams, execution).customize(connector);
        return (Http2Protocol) connector.findUpgradeProtocols()[0];
    }

    @Test
    void unsetKeepsTomcatsOwnAndSetReplacesThem() {
        Http2Protocol own = customized(0, 0);
        assertThat(own.getMaxConcurrentStreams()).isEqualTo(100);
        assertThat(own.getMaxConcurrentStreamExecution()).isEqualTo(20);
        Http2Protocol given = customized(400, 200);
        assertThat(given.getMaxConcurrentStreams()).isEqualTo(400);
        assertThat(given.getMaxConcurrentStreamExecution()).isEqualTo(200);
        assertThatThrownBy(() -> new Http2Streams(-1, 0)).hasMessageContaining("latency-lab.http2.max-concurrent-streams=-1");
    }
}
