package dev.latencylab.load.settings;

import java.net.URI;

/**
 * Where the targets of this repository listen, as the load side knows it: their default ports and the actuator's
 * port rule (the server port + 1000; the servers apply the same rule, see ManagementPort in hello-contract).
 */
public final class TargetPorts {

    /** mvc-with-latency's default server.port. */
    public static final int MVC = 8091;
    /** webflux-with-latency's default server.port. */
    public static final int WEBFLUX = 8092;
    public static final int MANAGEMENT_OFFSET = 1000;

    private TargetPorts() {
    }

    public static int managementPort(int serverPort) {
        return serverPort + MANAGEMENT_OFFSET;
    }

    /**
     * The actuator of the server at this URL, same host, in clear text (the targets' actuator stays on HTTP when their
     * server is on TLS): http://localhost:8091 -> http://localhost:9091, https://localhost:8091 -> http://localhost:9091.
     */
    public static String managementUrl(String serverUrl) {
        URI uri = URI.create(serverUrl);
        int port = uri.getPort() > 0 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
        return "http://" + uri.getHost() + ":" + managementPort(port);
    }

    public static String localUrl(int port) {
        return "http://localhost:" + port;
    }
}
