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

    /** The downstream.* settings, read once: /http's controller and the health indicator share them. */
    @Bean
    Downstream.Settings downstreamSettings(Environment env) {
        return Downstream.Settings.from(env);
    }

    @Bean
    @ConditionalOnProperty(name = Downstream.HEALTH_PROPERTY, havingValue = "true")
    HealthIndicator downstreamHealthIndicator(Downstream.Settings settings) {
        return new DownstreamHealthIndicator(settings);
    }
}
