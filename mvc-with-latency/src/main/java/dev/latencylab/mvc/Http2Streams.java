package dev.latencylab.mvc;

import org.apache.catalina.connector.Connector;
import org.apache.coyote.UpgradeProtocol;
import org.apache.coyote.http2.Http2Protocol;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.stereotype.Component;

/**
 * Tomcat's HTTP/2 limits on a connection, as settings (Spring Boot has none): the streams a client may open at once
 * (maxConcurrentStreams, Tomcat's default 100) and how many of them run at once (maxConcurrentStreamExecution, 20),
 * the others waiting. When users share connections the second is a pool: a connection's 20 at a time. Unset, Tomcat's
 * own; set, applied to the HTTP/2 that server.http2.enabled adds.
 */
@Component
class Http2Streams implements TomcatConnectorCustomizer {

    static final String MAX_STREAMS = "latency-lab.http2.max-concurrent-streams";
    static final String MAX_EXECUTION = "latency-lab.http2.max-concurrent-stream-execution";

    private final long maxStreams;
    private final int maxExecution;

    Http2Streams(@Value("${" + MAX_STREAMS + ":0}") long maxStreams, @Value("${" + MAX_EXECUTION + ":0}") int maxExecution) {
        if (maxStreams < 0 || maxExecution < 0) {
            throw new IllegalArgumentException("%s=%d and %s=%d: give 1 or more (unset: Tomcat's own)".formatted(MAX_STREAMS, maxStreams,
                    MAX_EXECUTION, maxExecution));
        }
        this.maxStreams = maxStreams;
        this.maxExecution = maxExecution;
    }

    /** How many streams of a connection Tomcat runs at once: as set, else Tomcat's own default. */
    int executionLimit() {
        return maxExecution > 0 ? maxExecution : new Http2Protocol().getMaxConcurrentStreamExecution();
    }

    @Override
    public void customize(Connector connector) {
        for (UpgradeProtocol protocol : connector.findUpgradeProtocols()) {
            if (protocol instanceof Http2Protocol http2) {
                if (maxStreams > 0) {
                    http2.setMaxConcurrentStreams(maxStreams);
                }
                if (maxExecution > 0) {
                    http2.setMaxConcurrentStreamExecution(maxExecution);
                }
            }
        }
    }
}
