package dev.latencylab.webflux;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import dev.latencylab.contract.HelloContractTests;
import dev.latencylab.contract.TargetClient;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class WebfluxContractTest extends HelloContractTests {

    @Autowired
    Environment environment;

    @Override
    protected TargetClient target() {
        return TargetClient.of(environment);
    }

    @Test
    void aClientThatLeavesEndsItsWaitAndIsCountedApart() {
        TargetClient target = target();
        double waited = target.metric("hello.waited");
        double cancelled = target.metric("hello.cancelled");

        target.abandon("/hello/30000", Duration.ofMillis(300));

        target.awaitMetric("hello.cancelled", cancelled + 1);
        assertThat(target.metric("hello.waiting")).as("nothing waits for a client that left").isZero();
        assertThat(target.metric("hello.waited")).as("its wait did not count as waited").isEqualTo(waited);
    }
}
