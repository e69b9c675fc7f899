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
 * where asked for, the downstream service in health and a watch on the process that started them.
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
    @ConditionalOnProperty(name = ParentWatch.PROPERTY)
    ParentWatch parentWatch(Environment env) {
        return new ParentWatch(Long.parseLong(env.getRequiredProperty(ParentWatch.PROPERTY)));
    }

    @Bean
    @ConditionalOnProperty(name = Downstream.HEALTH_PROPERTY, havingValue = "true")
    HealthIndicator downstreamHealthIndicator(Downstream.Settings settings) {
        return new DownstreamHealthIndicator(settings);
    }
}
