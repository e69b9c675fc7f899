package dev.latencylab.lab.targets;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.lab.Lab;
import dev.latencylab.lab.Target;
import dev.latencylab.lab.TargetProcess;

/**
 * Every way a user sets Tomcat's pool reaches the running server (its jar, as compose and the sweep start it), read
 * back from its tomcat.threads.config.max metric.
 */
class PoolSettingsIT {

    @TempDir
    Path logs;

    private double poolOf(Map<String, String> properties, Map<String, String> env) {
        try (TargetProcess mvc = Lab.start(Target.MVC_MODULE, Lab.freePort(), properties, env, logs.resolve("mvc.log"))) {
            return Lab.metric(mvc, "tomcat.threads.config.max");
        }
    }

    @Test
    void defaultIs200() {
        assertThat(poolOf(Map.of(), Map.of())).isEqualTo(200);
    }

    @Test
    void newPropertyOldPropertyAndTheirEnvironmentVariables() throws Exception {
        assertThat(poolOf(Map.of("server.tomcat.threads.max", "7"), Map.of())).isEqualTo(7);
        assertThat(poolOf(Map.of("server.tomcat.max-threads", "9"), Map.of())).isEqualTo(9);
        assertThat(Files.readString(logs.resolve("mvc.log")))
                .contains("server.tomcat.max-threads is the old name of server.tomcat.threads.max");
        assertThat(poolOf(Map.of(), Map.of("SERVER_TOMCAT_THREADS_MAX", "11"))).isEqualTo(11);
        assertThat(poolOf(Map.of(), Map.of("SERVER_TOMCAT_MAX_THREADS", "13"))).isEqualTo(13);
    }

    @Test
    void virtualThreadsLeaveNoBoundedPool() {
        // Tomcat reports -1: requests run on virtual threads, not on a pool
        assertThat(poolOf(Map.of("spring.threads.virtual.enabled", "true", "server.tomcat.threads.max", "4"), Map.of())).isEqualTo(-1);
    }
}
