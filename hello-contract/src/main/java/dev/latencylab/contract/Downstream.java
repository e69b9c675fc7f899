package dev.latencylab.contract;

import java.net.URI;
import java.time.Duration;

import org.springframework.core.env.Environment;

/**
 * What both targets do on {@code /http/{latency}}: ask a downstream service's {@code /hello/{latency}} (this project's
 * WebFlux target, in a process of its own) through their stack's pooled HTTP client, and answer its body. The pool,
 * not the thread count, bounds how many wait at once.
 */
public final class Downstream {

    /** The name problems, health and the pool's metrics give the downstream service. */
    public static final String DEPENDENCY = "downstream";

    /** Where the downstream service is, e.g. http://127.0.0.1:8093. */
    public static final String URL_PROPERTY = "downstream.url";
    /** The pool's connections to it; unset: the client library's own default (README lists them). */
    public static final String MAX_CONNECTIONS_PROPERTY = "downstream.max-connections";
    /**
     * HTTP/2 in clear text to the downstream, its requests as streams on the client's connections: the WebFlux target's
     * Reactor Netty by prior knowledge, on its pool's connections; the MVC target's JDK HttpClient by upgrade, on one
     * connection (Apache HttpClient 5's classic client, MVC's over HTTP/1.1, has no HTTP/2).
     */
    public static final String HTTP2_PROPERTY = "downstream.http2";
    public static final String CONNECT_TIMEOUT_PROPERTY = "downstream.connect-timeout";
    /** How long a request waits for a pooled connection before its 503. */
    public static final String ACQUIRE_TIMEOUT_PROPERTY = "downstream.acquire-timeout";
    /** How long a request waits for the downstream's answer before its 504. */
    public static final String RESPONSE_TIMEOUT_PROPERTY = "downstream.response-timeout";
    /** true: the downstream service counts in the target's health (the lab's http targets turn it on). */
    public static final String HEALTH_PROPERTY = "management.health.downstream.enabled";

    private Downstream() {
    }

    /** The downstream's path for a latency the target already validated. */
    public static String path(Duration latency) {
        return "/hello/" + latency.toMillis();
    }

    /** The downstream.* settings, as both targets read them; maxConnections null: the library's default. */
    public record Settings(URI url, Integer maxConnections, Duration connectTimeout, Duration acquireTimeout, Duration responseTimeout) {

        public static Settings from(Environment env) {
            Integer max = env.getProperty(MAX_CONNECTIONS_PROPERTY, Integer.class);
            if (max != null && max < 1) {
                throw new IllegalArgumentException(MAX_CONNECTIONS_PROPERTY + "=" + max + ": a pool needs at least 1 connection");
            }
            return new Settings(URI.create(env.getRequiredProperty(URL_PROPERTY)), max,
                    env.getRequiredProperty(CONNECT_TIMEOUT_PROPERTY, Duration.class),
                    env.getRequiredProperty(ACQUIRE_TIMEOUT_PROPERTY, Duration.class),
                    env.getRequiredProperty(RESPONSE_TIMEOUT_PROPERTY, Duration.class));
        }

        /** No connection: the downstream is down, or the pool stayed busy for the acquire timeout (503). */
        public DependencyException unavailable(Duration timeout, String what, Throwable cause) {
            return DependencyException.unavailable(DEPENDENCY, timeout, what, cause);
        }

        public DependencyException noConnection(Throwable cause) {
            return unavailable(connectTimeout, "could not connect to " + url + " (" + CONNECT_TIMEOUT_PROPERTY + ")", cause);
        }

        public DependencyException poolBusy(Throwable cause) {
            return unavailable(acquireTimeout, "no connection from the pool (" + ACQUIRE_TIMEOUT_PROPERTY + ")", cause);
        }

        /** Connected, but no answer within the response timeout (504). */
        public DependencyException noAnswer(Throwable cause) {
            return new DependencyException(DependencyException.Kind.TIMED_OUT, DEPENDENCY, responseTimeout,
                    "no answer (" + RESPONSE_TIMEOUT_PROPERTY + ")", cause);
        }

        /** The downstream answered, but not with a success (502). */
        public DependencyException badAnswer(int status, Throwable cause) {
            return new DependencyException(DependencyException.Kind.BAD_ANSWER, DEPENDENCY, responseTimeout,
                    "answered HTTP " + status + " instead of a success", cause);
        }
    }
}
