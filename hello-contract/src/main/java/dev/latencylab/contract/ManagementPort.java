package dev.latencylab.contract;

import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * The targets' convention: the actuator listens on its own port, the server port + 1000 (8091 -> 9091), so that its
 * metrics stay readable while the request pool is saturated, and a second instance on another server port does not
 * collide on the actuator's. Applies however server.port is given (property, argument, SERVER_PORT); an explicit
 * management.server.port wins. The load side states the same rule (TargetPorts in gatling-scripts).
 */
public class ManagementPort implements EnvironmentPostProcessor, Ordered {

    public static final int OFFSET = 1000;

    /** After application.properties is read (ConfigDataEnvironmentPostProcessor runs at HIGHEST_PRECEDENCE + 10). */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 20;
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (environment.containsProperty("management.server.port")) {
            return;
        }
        int server = environment.getProperty("server.port", Integer.class, 8080);
        // 0 asks for a random port (tests): the actuator's is random too
        int management = server == 0 ? 0 : server + OFFSET;
        environment.getPropertySources().addLast(new MapPropertySource("management port: server port + " + OFFSET,
                Map.of("management.server.port", management)));
    }
}
