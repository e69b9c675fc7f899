package dev.latencylab.mvc;

import dev.latencylab.contract.DatabaseContractTests;
import dev.latencylab.contract.TargetClient;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class MvcDatabaseContractTest extends DatabaseContractTests {

    @Autowired
    Environment environment;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> "jdbc:postgresql://127.0.0.1:" + postgresPort() + "/postgres");
        registry.add("spring.datasource.hikari.maximum-pool-size", () -> POOL);
        registry.add("spring.datasource.hikari.connection-timeout", () -> ACQUIRE_TIMEOUT_MS);
    }

    @Override
    protected String poolMaxMetric() {
        return "hikaricp.connections.max";
    }

    @Override
    protected TargetClient target() {
        return TargetClient.of(environment);
    }
}
