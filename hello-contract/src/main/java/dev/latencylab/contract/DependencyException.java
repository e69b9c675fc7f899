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

    public DependencyException(Kind kind, String dependency, Duration timeout, String what, Throwable cause) {
        super("%s: %s within %d ms".formatted(dependency, what, timeout.toMillis()), cause);
        this.kind = kind;
        this.dependency = dependency;
        this.timeout = timeout;
    }

    public ProblemDetail toProblemDetail() {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(kind.status, getMessage());
        problem.setTitle(kind.title);
        problem.setProperty("dependency", dependency);
        problem.setProperty("timeoutMs", timeout.toMillis());
        return problem;
    }
}
