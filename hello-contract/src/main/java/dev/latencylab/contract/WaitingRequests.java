package dev.latencylab.contract;

import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Counts the requests that wait out their latency: how many now, the most at once, and how many in all.
 * The peak shows whether a server serialized a burst (a pool of T threads never lets more than T wait at once).
 */
public class WaitingRequests {

    private final AtomicInteger now = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();
    private final Counter total;

    public WaitingRequests(MeterRegistry registry) {
        Gauge.builder("hello.waiting", now, AtomicInteger::get)
                .description("Requests waiting out their latency now").register(registry);
        Gauge.builder("hello.waiting.peak", peak, AtomicInteger::get)
                .description("Most requests that waited out their latency at the same time").register(registry);
        total = Counter.builder("hello.waited").description("Requests that waited out a latency").register(registry);
    }

    public void begin() {
        total.increment();
        peak.accumulateAndGet(now.incrementAndGet(), Math::max);
    }

    public void end() {
        now.decrementAndGet();
    }
}
