package dev.latencylab.contract;

/** What both targets answer on {@code /hello} and {@code /hello/{latency}}. */
public final class Hello {

    public static final String BODY = "Welcome to reactive world ~";

    /** Property that caps the latency a client may ask for, in milliseconds. */
    public static final String MAX_LATENCY_PROPERTY = "latency.max-ms";

    public static final String DEFAULT_MAX_LATENCY_MS = "60000";

    private Hello() {
    }
}
