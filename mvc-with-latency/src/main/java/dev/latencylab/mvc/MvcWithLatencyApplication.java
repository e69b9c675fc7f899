package dev.latencylab.mvc;

import dev.latencylab.contract.HelloContractConfiguration;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Import;

@SpringBootApplication
@Import(HelloContractConfiguration.class)
public class MvcWithLatencyApplication {

    public static void main(String[] args) {
        SpringApplication.run(MvcWithLatencyApplication.class, args);
    }
}
