package dev.latencylab.mvc;

import dev.latencylab.contract.InvalidParameterHandler;
import dev.latencylab.contract.WaitingRequests;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

@SpringBootApplication
@Import(InvalidParameterHandler.class)
public class MvcWithLatencyApplication {

    public static void main(String[] args) {
        SpringApplication.run(MvcWithLatencyApplication.class, args);
    }

    @Bean
    WaitingRequests waitingRequests(MeterRegistry registry) {
        return new WaitingRequests(registry);
    }
}
