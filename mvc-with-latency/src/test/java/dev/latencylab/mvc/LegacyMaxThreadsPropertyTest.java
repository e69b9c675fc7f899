package dev.latencylab.mvc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** The old name server.tomcat.max-threads, still used by published write-ups, sets the pool and warns once. */
class LegacyMaxThreadsPropertyTest {

    @Nested
    @ExtendWith(OutputCaptureExtension.class)
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
            properties = "server.tomcat.max-threads=6")
    class OldNameAlone {

        @Autowired
        ApplicationContext context;

        @Test
        void setsThePoolAndWarnsOnce(CapturedOutput output) {
            assertThat(RunningPool.maxThreads(context)).isEqualTo(6);
            assertThat(output.getOut().lines().filter(l -> l.contains("WARN") && l.contains("server.tomcat.max-threads")))
                    .singleElement().asString().contains("server.tomcat.threads.max=6");
        }
    }

    @Nested
    @ExtendWith(OutputCaptureExtension.class)
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
            properties = {"server.tomcat.max-threads=6", "server.tomcat.threads.max=9"})
    class BothNames {

        @Autowired
        ApplicationContext context;

        @Test
        void theNewNameWins(CapturedOutput output) {
            assertThat(RunningPool.maxThreads(context)).isEqualTo(9);
            assertThat(output.getOut()).contains("server.tomcat.max-threads=6 is ignored");
        }
    }
}
