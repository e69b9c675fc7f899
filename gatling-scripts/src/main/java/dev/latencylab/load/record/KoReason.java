package dev.latencylab.load.record;

/**
 * Names why a request failed, from what the simulation can see of it. With a response, the status says it. Without
 * one, Gatling does not hand the error to the simulation, so the time to failure tells the kind: the socket connect
 * timeout, the request timeout, or at once (refused, reset, out of descriptors). Gatling's HTML report has its own
 * error messages for the same requests.
 */
public final class KoReason {

    private KoReason() {
    }

    /**
     * @param status       the HTTP status, or -1 when no response arrived
     * @param elapsedMs    time from sending to failing
     */
    public static String classify(int status, long elapsedMs, long connectTimeoutMs, long requestTimeoutMs) {
        if (status >= 0) {
            return "HTTP " + status;
        }
        if (elapsedMs >= requestTimeoutMs) {
            return "no response: request timeout (%s)".formatted(duration(requestTimeoutMs));
        }
        if (elapsedMs >= connectTimeoutMs) {
            return "no response: connect timeout (%s)".formatted(duration(connectTimeoutMs));
        }
        return "no response: connection failed";
    }

    /** "10 s", or "250 ms" below a second. */
    private static String duration(long ms) {
        return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
    }
}
