package dev.latencylab.mvc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.latencylab.contract.TargetClient;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** The old name server.tomcat.max-threads, still used by published write-ups, sets the pool and warns once. */
class LegacyMaxThreadsPropertyTest {

    @Nested
    @ExtendWith(OutputCaptureExtension.class)
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
            properties = "server.tomcat.max-threads=6")
    class OldNameAlone {

        @Value("${local.server.port}")
        int port;

        @Test
        void setsThePoolAndWarnsOnce(CapturedOutput output) {
            assertThat(TargetClient.onPort(port).metric("tomcat.threads.config.max")).isEqualTo(6);
            assertThat(output.getOut().lines().filter(l -> l.contains("WARN") && l.contains("server.tomcat.max-threads")))
                    .singleElement().asString().contains("server.tomcat.threads.max=6");
        }
    }

    @Nested
    @ExtendWith(OutputCaptureExtension.class)
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
            properties = {"server.tomcat.max-threads=6", "server.tomcat.threads.max=9"})
    class BothNames {

        @Value("${local.server.port}")
        int port;

        @Test
        void theNewNameWins(CapturedOutput output) {
            assertThat(TargetClient.onPort(port).metric("tomcat.threads.config.max")).isEqualTo(9);
            assertThat(output.getOut()).contains("server.tomcat.max-threads=6 is ignored");
        }
    }
}
