package dev.latencylab.mvc;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.latencylab.contract.Hello;
import dev.latencylab.contract.Latency;
import dev.latencylab.contract.WaitingRequests;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * A blocking call inside a monitor, as legacy client libraries make one (a driver's synchronized query executor, one
 * per connection): each request waits inside synchronized on a monitor of its own, so nothing contends for it. On a
 * platform thread that is /hello's wait. On a virtual thread before JDK 24 (JEP 491) it pins the carrier: at most as
 * many of these wait at once as there are carriers (jdk.virtualThreadScheduler.parallelism, by default the cores).
 */
@RestController
class PinnedController {

    private final long maxLatencyMs;
    private final WaitingRequests waiting;
    /**
     * The monitors held: each escapes into this set while held, so that the JIT cannot prove it thread-local and
     * remove the lock (escape analysis would), which would remove the pinning this path exists to show.
     */
    private final Set<Object> held = ConcurrentHashMap.newKeySet();

    PinnedController(@Value("${" + Hello.MAX_LATENCY_PROPERTY + ":" + Hello.DEFAULT_MAX_LATENCY_MS + "}") long maxLatencyMs,
            WaitingRequests waiting) {
        this.maxLatencyMs = maxLatencyMs;
        this.waiting = waiting;
    }

    @GetMapping("/pinned/{latency}")
    String pinned(@PathVariable String latency) throws InterruptedException {
        Duration wait = Latency.parse(latency, maxLatencyMs);
        Object monitor = new Object();
        held.add(monitor);
        waiting.begin();
        try {
            synchronized (monitor) {
                Thread.sleep(wait);
            }
        }
        finally {
            waiting.waited();
            held.remove(monitor);
        }
        return Hello.BODY;
    }
}
