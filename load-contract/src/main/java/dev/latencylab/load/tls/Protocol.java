package dev.latencylab.load.tls;

import java.util.Arrays;

/**
 * What goes on the wire between the load and the server: HTTP/1.1 in clear text (one request at a time on a
 * connection), HTTP/1.1 over TLS, or HTTP/2 over TLS (chosen by ALPN; many requests, each a stream, on one connection).
 */
public enum Protocol {
    H1("h1", "http"), H1_TLS("h1-tls", "https"), H2("h2", "https");

    private final String id;
    private final String scheme;

    Protocol(String id, String scheme) {
        this.id = id;
        this.scheme = scheme;
    }

    /** As result.json, target ids and pages name it: h1, h1-tls, h2. */
    public String id() {
        return id;
    }

    /** The URL scheme it is reached at. */
    public String scheme() {
        return scheme;
    }

    public boolean tls() {
        return this != H1;
    }

    /** The protocol of a server at a URL of this scheme, HTTP/2 asked for or not; null when HTTP/2 is asked of http (h2c is not offered). */
    public static Protocol of(String scheme, boolean http2) {
        if (!"https".equalsIgnoreCase(scheme)) {
            return http2 ? null : H1;
        }
        return http2 ? H2 : H1_TLS;
    }

    /** The protocol a result file names; h1 for files written before protocols were recorded (all of them h1). */
    public static Protocol ofId(String id) {
        if (id == null) {
            return H1;
        }
        return Arrays.stream(values()).filter(p -> p.id.equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("protocol " + id + ": known are h1, h1-tls, h2"));
    }
}
