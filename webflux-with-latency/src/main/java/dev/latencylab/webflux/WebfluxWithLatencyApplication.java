package dev.latencylab.webflux;

import dev.latencylab.contract.HelloContractConfiguration;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Import;

@SpringBootApplication
@Import(HelloContractConfiguration.class)
public class WebfluxWithLatencyApplication {

    public static void main(String[] args) {
        SpringApplication.run(WebfluxWithLatencyApplication.class, args);
    }
}
