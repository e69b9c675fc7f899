package dev.latencylab.webflux;

import dev.latencylab.contract.InvalidParameterHandler;
import dev.latencylab.contract.WaitingRequests;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

@SpringBootApplication
@Import(InvalidParameterHandler.class)
public class WebfluxWithLatencyApplication {

    public static void main(String[] args) {
        SpringApplication.run(WebfluxWithLatencyApplication.class, args);
    }

    @Bean
    WaitingRequests waitingRequests(MeterRegistry registry) {
        return new WaitingRequests(registry);
    }
}
