package dev.latencylab.contract;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * The downstream service in the target's health ("downstream"): UP when its port accepts a connection within the
 * connect timeout. A plain connect, not a request through the pool: health must not queue behind the load it reports on.
 */
class DownstreamHealthIndicator extends AbstractHealthIndicator {

    private final Downstream.Settings settings;

    DownstreamHealthIndicator(Downstream.Settings settings) {
        this.settings = settings;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) throws IOException {
        URI url = settings.url();
        builder.withDetail("url", url.toString());
        int port = url.getPort() > 0 ? url.getPort() : "https".equals(url.getScheme()) ? 443 : 80;
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(url.getHost(), port), (int) settings.connectTimeout().toMillis());
        }
        builder.up();
    }
}
