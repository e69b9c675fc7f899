package dev.latencylab.contract;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** What both targets add to their context for the contract: the problem handler and the waiting-requests gauges. */
@Configuration(proxyBeanMethods = false)
@Import(ProblemHandler.class)
public class HelloContractConfiguration {

    @Bean
    WaitingRequests waitingRequests(MeterRegistry registry) {
        return new WaitingRequests(registry);
    }
}
