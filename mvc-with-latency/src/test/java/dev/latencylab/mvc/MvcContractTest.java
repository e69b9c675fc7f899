package dev.latencylab.mvc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import dev.latencylab.contract.HelloContractTests;
import dev.latencylab.contract.TargetClient;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class MvcContractTest extends HelloContractTests {

    @Autowired
    Environment environment;

    @Override
    protected TargetClient target() {
        return TargetClient.of(environment);
    }

    /** The blocking model: a sleeping thread cannot notice that its client left, and waits to the end. */
    @Test
    void aClientThatLeavesStillHoldsItsThreadForTheWholeLatency() {
        TargetClient target = target();
        double waited = target.metric("hello.waited");
        double cancelled = target.metric("hello.cancelled");
        long start = System.nanoTime();

        target.abandon("/hello/1500", Duration.ofMillis(300));

        target.awaitMetric("hello.waited", waited + 1);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("the thread slept the whole latency").isGreaterThanOrEqualTo(Duration.ofMillis(1500));
        assertThat(target.metric("hello.cancelled")).isEqualTo(cancelled);
    }
}
