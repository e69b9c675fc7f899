package dev.latencylab.lab.targets;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.lab.Lab;
import dev.latencylab.lab.run.TargetProcess;
import dev.latencylab.lab.run.TargetProcess;

/**
 * The actuator's port follows the server port (+ 1000) however a user gives it, so that a second instance on another
 * port never collides with the first one's actuator: started as `java -jar` is, without a management port.
 */
class ManagementPortIT {

    @TempDir
    Path logs;

    @ParameterizedTest
    @ValueSource(strings = {"argument", "environment"})
    void actuatorListensOnTheServerPortPlus1000(String how) throws Exception {
        int port = Lab.freePort();
        List<String> command = new java.util.ArrayList<>(List.of(Lab.java(), "-jar", Lab.jar(Target.WEBFLUX_MODULE).toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(logs.resolve("target.log").toFile());
        if (how.equals("argument")) {
            command.add("--server.port=" + port);
            builder.command(command);
        }
        else {
            builder.environment().putAll(Map.of("SERVER_PORT", String.valueOf(port)));
        }
        Process target = builder.start();
        try {
            String health = Lab.awaitHealth("http://localhost:" + TargetProcess.managementPort(port));
            assertThat(health).contains("\"UP\"");
            assertThat(Lab.get("http://localhost:" + port + "/hello").statusCode()).isEqualTo(200);
        }
        finally {
            target.destroy();
            target.waitFor();
        }
    }
}
