package dev.latencylab.mvc;

import java.time.Duration;

import dev.latencylab.contract.Hello;
import dev.latencylab.contract.Latency;
import dev.latencylab.contract.WaitingRequests;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** Simulates slow I/O the blocking way: the request thread sleeps, so a pool of T threads serves T at once. */
@RestController
public class HelloController {

    private final long maxLatencyMs;
    private final WaitingRequests waiting;

    HelloController(@Value("${" + Hello.MAX_LATENCY_PROPERTY + ":" + Hello.DEFAULT_MAX_LATENCY_MS + "}") long maxLatencyMs,
            WaitingRequests waiting) {
        this.maxLatencyMs = maxLatencyMs;
        this.waiting = waiting;
    }

    @GetMapping("/hello")
    String hello() {
        return Hello.BODY;
    }

    @GetMapping("/hello/{latency}")
    String hello(@PathVariable String latency) throws InterruptedException {
        Duration wait = Latency.parse(latency, maxLatencyMs);
        if (wait.isZero()) {
            return Hello.BODY;
        }
        // The thread sleeps it out whether or not the client is still there: a servlet cannot notice it leaving.
        waiting.begin();
        try {
            Thread.sleep(wait);
        }
        finally {
            waiting.waited();
        }
        return Hello.BODY;
    }
}
