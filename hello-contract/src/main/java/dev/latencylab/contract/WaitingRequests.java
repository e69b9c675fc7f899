package dev.latencylab.contract;

import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Counts the requests that wait out their latency: how many now, the most at once, how many waited to the end, and
 * how many were cancelled while waiting (their client left, and the server stopped waiting for it). The peak shows
 * whether a server serialized a burst (a pool of T threads never lets more than T wait at once).
 */
public class WaitingRequests {

    private final AtomicInteger now = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();
    private final Counter waited;
    private final Counter cancelled;

    public WaitingRequests(MeterRegistry registry) {
        Gauge.builder("hello.waiting", now, AtomicInteger::get)
                .description("Requests waiting out their latency now").register(registry);
        Gauge.builder("hello.waiting.peak", peak, AtomicInteger::get)
                .description("Most requests that waited out their latency at the same time").register(registry);
        waited = Counter.builder("hello.waited").description("Requests that waited out their whole latency").register(registry);
        cancelled = Counter.builder("hello.cancelled")
                .description("Requests whose wait the server ended early because their client left").register(registry);
    }

    public void begin() {
        peak.accumulateAndGet(now.incrementAndGet(), Math::max);
    }

    /** The wait ran to its end (a blocked thread always does, whether its client is still there or not). */
    public void waited() {
        now.decrementAndGet();
        waited.increment();
    }

    /** The server stopped waiting because the client cancelled. */
    public void cancelled() {
        now.decrementAndGet();
        cancelled.increment();
    }
}
