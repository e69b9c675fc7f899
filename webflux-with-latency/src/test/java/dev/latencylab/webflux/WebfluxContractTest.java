package dev.latencylab.webflux;

import dev.latencylab.contract.HelloContractTests;
import dev.latencylab.contract.TargetClient;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class WebfluxContractTest extends HelloContractTests {

    @Autowired
    Environment environment;

    @Override
    protected TargetClient target() {
        return TargetClient.of(environment);
    }
}
