package dev.latencylab.contract;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * What both targets add to their context for the contract: the problem handler, the waiting-requests gauges and,
 * where asked for, the downstream service in health.
 */
@Configuration(proxyBeanMethods = false)
@Import(ProblemHandler.class)
public class HelloContractConfiguration {

    @Bean
    WaitingRequests waitingRequests(MeterRegistry registry) {
        return new WaitingRequests(registry);
    }

    @Bean
    @ConditionalOnProperty(name = Downstream.HEALTH_PROPERTY, havingValue = "true")
    HealthIndicator downstreamHealthIndicator(Environment env) {
        return new DownstreamHealthIndicator(Downstream.Settings.from(env));
    }
}
