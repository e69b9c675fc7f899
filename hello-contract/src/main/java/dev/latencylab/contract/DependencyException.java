package dev.latencylab.contract;

import java.time.Duration;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/**
 * A dependency (the database, a downstream service) did not answer in time: answered as an RFC 9457 problem that
 * names it and the timeout that gave up, so that a client sees at once which bound was hit, and no request hangs.
 */
public class DependencyException extends RuntimeException {

    /** Why the request gave up. */
    public enum Kind {
        /** No connection within the timeout: the dependency is down, or the pool stayed exhausted (503). */
        UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE, "Dependency unavailable"),
        /** Connected, but no answer within the timeout (504). */
        TIMED_OUT(HttpStatus.GATEWAY_TIMEOUT, "Dependency timed out"),
        /** It answered within the timeout, but with an error (502). */
        BAD_ANSWER(HttpStatus.BAD_GATEWAY, "Dependency failed");

        final HttpStatus status;
        final String title;

        Kind(HttpStatus status, String title) {
            this.status = status;
            this.title = title;
        }
    }

    private final Kind kind;
    private final String dependency;
    private final Duration timeout;

    /** The timeout ran out: the request waited that long for the dependency. */
    public DependencyException(Kind kind, String dependency, Duration timeout, String what, Throwable cause) {
        this(kind, dependency, timeout, cause, "%s: %s within %d ms".formatted(dependency, what, timeout.toMillis()));
    }

    private DependencyException(Kind kind, String dependency, Duration timeout, Throwable cause, String message) {
        super(message, cause);
        this.kind = kind;
        this.dependency = dependency;
        this.timeout = timeout;
    }

    /**
     * A 503 for one attempt that failed: when its cause is a refused connection it says so (it came at once, the
     * timeout never ran), otherwise that the timeout ran out.
     */
    public static DependencyException unavailable(String dependency, Duration timeout, String what, Throwable cause) {
        return refused(cause) ? atOnce(dependency, timeout, what + ": the connection was refused (nothing listens there)", cause)
                : new DependencyException(Kind.UNAVAILABLE, dependency, timeout, what, cause);
    }

    /** A 503 that came without waiting: the timeout named beside it never ran. */
    public static DependencyException atOnce(String dependency, Duration timeout, String what, Throwable cause) {
        return new DependencyException(Kind.UNAVAILABLE, dependency, timeout, cause,
                "%s: %s, at once (without waiting for the %d ms timeout)".formatted(dependency, what, timeout.toMillis()));
    }

    /**
     * Whether the failure was a refused connection (a ConnectException that is not a connect timeout, e.g. Netty's
     * "Connection refused"): an immediate answer, not a timeout that ran out. Only for failures of one attempt: a pool
     * that waited its timeout keeps the last refusal as its cause, and did wait (see its caller).
     */
    public static boolean refused(Throwable cause) {
        for (Throwable c = cause; c != null; c = c.getCause()) {
            if (c instanceof java.net.ConnectException && !c.getClass().getSimpleName().contains("Timeout")) {
                return true;
            }
        }
        return false;
    }

    public ProblemDetail toProblemDetail() {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(kind.status, getMessage());
        problem.setTitle(kind.title);
        problem.setProperty("dependency", dependency);
        problem.setProperty("timeoutMs", timeout.toMillis());
        return problem;
    }
}
