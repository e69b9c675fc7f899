package dev.latencylab.webflux;

import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Collectors;

import dev.latencylab.contract.Hello;
import dev.latencylab.contract.InvalidParameterException;
import dev.latencylab.contract.Latency;
import dev.latencylab.contract.WaitingRequests;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /hello/{latency}} waits without holding a thread (a timer completes the response), so concurrency is
 * bounded by connections, not threads. {@code /block/{latency}} is the anti-pattern for comparison: it sleeps
 * inside the reactive chain on the scheduler the {@code scheduler} query parameter names.
 */
@RestController
public class HelloController {

    /** Where {@code /block} sleeps. */
    enum BlockOn {
        /** One thread per core: throughput collapses to cores / latency. */
        PARALLEL("parallel") {
            @Override
            Scheduler scheduler() {
                return Schedulers.parallel();
            }
        },
        /** A large, growing pool (virtual threads when spring.threads.virtual.enabled=true). */
        BOUNDED_ELASTIC("bounded-elastic") {
            @Override
            Scheduler scheduler() {
                return Schedulers.boundedElastic();
            }
        };

        final String id;

        BlockOn(String id) {
            this.id = id;
        }

        abstract Scheduler scheduler();

        static BlockOn of(String id) {
            return Arrays.stream(values()).filter(b -> b.id.equals(id)).findFirst()
                    .orElseThrow(() -> new InvalidParameterException("scheduler", id, "is not a known scheduler",
                            "one of " + Arrays.stream(values()).map(b -> b.id).collect(Collectors.joining(", "))));
        }
    }

    private final long maxLatencyMs;
    private final WaitingRequests waiting;

    HelloController(@Value("${" + Hello.MAX_LATENCY_PROPERTY + ":" + Hello.DEFAULT_MAX_LATENCY_MS + "}") long maxLatencyMs,
            WaitingRequests waiting) {
        this.maxLatencyMs = maxLatencyMs;
        this.waiting = waiting;
    }

    @GetMapping("/hello")
    Mono<String> hello() {
        return Mono.just(Hello.BODY);
    }

    @GetMapping("/hello/{latency}")
    Mono<String> hello(@PathVariable String latency) {
        Duration wait = Latency.parse(latency, maxLatencyMs);
        if (wait.isZero()) {
            return hello();
        }
        // A client that leaves cancels the timer: nothing is held for it after that.
        return Mono.just(Hello.BODY)
                .delayElement(wait)
                .doOnSubscribe(s -> waiting.begin())
                .doFinally(signal -> {
                    if (signal == SignalType.CANCEL) {
                        waiting.cancelled();
                    }
                    else {
                        waiting.waited();
                    }
                });
    }

    @GetMapping("/block/{latency}")
    Mono<String> block(@PathVariable String latency, @RequestParam(defaultValue = "parallel") String scheduler) {
        Duration wait = Latency.parse(latency, maxLatencyMs);
        BlockOn blockOn = BlockOn.of(scheduler);
        return Mono.fromCallable(() -> {
            waiting.begin();
            try {
                Thread.sleep(wait); // blocks a scheduler thread to the end, like MVC
            }
            finally {
                waiting.waited();
            }
            return Hello.BODY;
        }).subscribeOn(blockOn.scheduler());
    }
}
