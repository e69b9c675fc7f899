package dev.latencylab.webflux;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import com.jayway.jsonpath.JsonPath;
import dev.latencylab.contract.TargetClient;
import org.junit.jupiter.api.Test;
import reactor.core.scheduler.Schedulers;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;
import org.springframework.test.annotation.DirtiesContext;

/** /block/{latency} sleeps inside the reactive chain: the scheduler's thread count then bounds concurrency. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class BlockingInsideReactorTest {

    @Autowired
    Environment environment;

    @Test
    void onTheParallelSchedulerOneSleeperPerCore() {
        int cores = Schedulers.DEFAULT_POOL_SIZE;
        List<TargetClient.Response> answers = TargetClient.of(environment)
                .concurrently(2 * cores, "/block/200?scheduler=parallel");

        assertThat(answers).allSatisfy(r -> assertThat(r.status()).isEqualTo(200));
        assertThat(answers.subList(cores, 2 * cores))
                .allSatisfy(r -> assertThat(r.elapsed()).isGreaterThanOrEqualTo(Duration.ofMillis(400)));
    }

    @Test
    @DirtiesContext(methodMode = DirtiesContext.MethodMode.BEFORE_METHOD) // a peak of its own: no other test's requests in it
    void onBoundedElasticManySleepTogether() {
        TargetClient target = TargetClient.of(environment);
        int requests = Schedulers.DEFAULT_POOL_SIZE + 4;

        assertThat(target.concurrently(requests, "/block/1000?scheduler=bounded-elastic"))
                .allSatisfy(r -> assertThat(r.status()).isEqualTo(200));
        assertThat(target.metric("hello.waiting.peak")).isGreaterThan(Schedulers.DEFAULT_POOL_SIZE);
    }

    @Test
    @DirtiesContext(methodMode = DirtiesContext.MethodMode.BEFORE_METHOD) // a peak of its own: no other test's requests in it
    void nonBlockingWaitHoldsNoThread() {
        TargetClient target = TargetClient.of(environment);
        int requests = 4 * Schedulers.DEFAULT_POOL_SIZE;

        assertThat(target.concurrently(requests, "/hello/1000")).allSatisfy(r -> assertThat(r.status()).isEqualTo(200));
        assertThat(target.metric("hello.waiting.peak")).isGreaterThan(Schedulers.DEFAULT_POOL_SIZE);
    }

    @Test
    void unknownSchedulerIsAProblemAndLatencyIsValidatedToo() {
        TargetClient target = TargetClient.of(environment);
        TargetClient.Response unknown = target.get("/block/10?scheduler=immediate");
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.contentType()).startsWith("application/problem+json");
        assertThat((String) JsonPath.read(unknown.body(), "$.parameter")).isEqualTo("scheduler");
        assertThat((String) JsonPath.read(unknown.body(), "$.allowed")).isEqualTo("one of parallel, bounded-elastic");

        TargetClient.Response negative = target.get("/block/-5?scheduler=parallel");
        assertThat(negative.status()).isEqualTo(400);
        assertThat((String) JsonPath.read(negative.body(), "$.parameter")).isEqualTo("latency");
    }
}
