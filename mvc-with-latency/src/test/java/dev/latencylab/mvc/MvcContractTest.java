package dev.latencylab.mvc;

import dev.latencylab.contract.HelloContractTests;
import dev.latencylab.contract.TargetClient;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class MvcContractTest extends HelloContractTests {

    @Value("${local.server.port}")
    int port;

    @Override
    protected TargetClient target() {
        return TargetClient.onPort(port);
    }
}
