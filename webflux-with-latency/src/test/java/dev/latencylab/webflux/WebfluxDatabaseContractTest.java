package dev.latencylab.webflux;

import dev.latencylab.contract.DatabaseContractTests;
import dev.latencylab.contract.TargetClient;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class WebfluxDatabaseContractTest extends DatabaseContractTests {

    @Autowired
    Environment environment;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        registry.add("spring.r2dbc.url", () -> "r2dbc:postgresql://127.0.0.1:" + postgresPort() + "/postgres");
        registry.add("spring.r2dbc.pool.max-size", () -> POOL);
        // with one retry (Boot's default) the stated wait would be twice this: the contract's bound as MVC's
        registry.add("spring.r2dbc.pool.max-acquire-time", () -> (ACQUIRE_TIMEOUT_MS / 2) + "ms");
        registry.add("spring.r2dbc.pool.acquire-retry", () -> 1);
    }

    @Override
    protected String poolMaxMetric() {
        return "r2dbc.pool.max.allocated";
    }

    @Override
    protected TargetClient target() {
        return TargetClient.of(environment);
    }
}
