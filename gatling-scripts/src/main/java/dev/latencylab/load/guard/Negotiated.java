package dev.latencylab.load.guard;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

/** The protocol each TLS connection of the run agreed on by ALPN, counted: h2, or http/1.1 (also where ALPN chose none). */
public final class Negotiated {

    public static final String H2 = "h2";
    public static final String HTTP_1_1 = "http/1.1";

    private static final Map<String, LongAdder> COUNTS = new ConcurrentHashMap<>();

    private Negotiated() {
    }

    /** Called from Netty's SslHandler, where the agent inlines it: public, as it runs in another package. */
    public static void count(String alpn) {
        COUNTS.computeIfAbsent(alpn == null || alpn.isEmpty() ? HTTP_1_1 : alpn, p -> new LongAdder()).increment();
    }

    /** Connections by the protocol they negotiated; empty for a run with no TLS connection (or none made). */
    public static Map<String, Long> counts() {
        return COUNTS.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().sum(), Long::sum, TreeMap::new));
    }
}
