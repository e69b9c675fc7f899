package dev.latencylab.mvc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import dev.latencylab.contract.TargetClient;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.core.env.Environment;

/** A pool of T platform threads serves T sleeping requests at once; the rest queue for a thread. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "server.tomcat.threads.max=" + BlockingPoolTest.THREADS)
class BlockingPoolTest {

    static final int THREADS = 4;

    @Autowired
    Environment environment;

    @Autowired
    ApplicationContext context;

    @Test
    void poolSizeIsReadBackFromTheServer() {
        assertThat(RunningPool.maxThreads(context)).isEqualTo(THREADS);
    }

    @Test
    void twiceThePoolInRequestsTakesTwoRounds() {
        TargetClient target = TargetClient.of(environment);
        List<TargetClient.Response> answers = target.concurrently(2 * THREADS, "/hello/200");

        assertThat(answers).allSatisfy(r -> assertThat(r.status()).isEqualTo(200));
        // The second half waited for a thread of the first round, then slept its own 200 ms.
        assertThat(answers.subList(THREADS, 2 * THREADS))
                .allSatisfy(r -> assertThat(r.elapsed()).isGreaterThanOrEqualTo(Duration.ofMillis(400)));
        // Platform threads: never more sleepers than threads (this fails if virtual threads were on).
        assertThat(target.metric("hello.waiting.peak")).isEqualTo(THREADS);
    }
}
