package dev.latencylab.load.result;

import java.util.List;

/**
 * What the target's JVM recorded in its JDK Flight Recorder recording while the run was under way (start to end;
 * since JVM events: Result.jvm is null in files written before, and for a server the lab did not start). Each
 * perSecond array is on the run's time axis: element i is second i after start.
 *
 * @param recording the recording's file name, beside the result (e.g. target.jfr)
 * @param gc        the collector's pauses (jdk.GarbageCollection: its sum of pauses and longest pause each)
 * @param pinned    virtual threads that blocked while pinned to their carrier (jdk.VirtualThreadPinned), at least
 *                  thresholdMs long each
 * @param safepoints the JVM's safepoints, each from its begin to its end
 * @param tls       the TLS handshakes it completed (jdk.TLSHandshake); null where it completed none (clear text), and in
 *                  files written before they were counted
 */
public record Jvm(String recording, Pauses gc, Pinned pinned, Pauses safepoints,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) Handshakes tls) {

    /** Pauses of one kind: how many, their total and longest (ms), and the ms paused in each second of the run. */
    public record Pauses(long count, double totalMs, double longestMs, double[] msPerSecond) {
    }

    /**
     * Virtual threads pinned: how many events, the threshold that records one, the stack most of them share (its top
     * frames, innermost first) and how many did, and the events in each second of the run.
     */
    public record Pinned(long count, long thresholdMs, List<String> topStack, long topStackCount, long[] perSecond) {
    }

    /** TLS handshakes: how many, the protocol most of them agreed on (e.g. TLSv1.3), and how many in each second of the run. */
    public record Handshakes(long count, String protocol, long[] perSecond) {
    }
}
