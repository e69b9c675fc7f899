package dev.latencylab.mvc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.latencylab.contract.TargetClient;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;

/** With virtual threads each request gets its own thread: the pool size no longer bounds concurrency. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"spring.threads.virtual.enabled=true", "server.tomcat.threads.max=" + VirtualThreadsTest.THREADS})
class VirtualThreadsTest {

    static final int THREADS = 4;

    @Autowired
    Environment environment;

    @Test
    void twiceThePoolInRequestsWaitTogether() {
        TargetClient target = TargetClient.of(environment);

        assertThat(target.concurrently(2 * THREADS, "/hello/1000"))
                .allSatisfy(r -> assertThat(r.status()).isEqualTo(200));
        // More requests slept at once than the pool has threads: they ran on virtual threads.
        assertThat(target.metric("hello.waiting.peak")).isGreaterThan(THREADS);
    }
}
