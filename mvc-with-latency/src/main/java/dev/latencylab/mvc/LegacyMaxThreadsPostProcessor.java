package dev.latencylab.mvc;

import java.util.Map;

import org.apache.commons.logging.Log;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Honors {@code server.tomcat.max-threads}, the name that published write-ups of this experiment use and that
 * Spring Boot has silently ignored since 2.5, by mapping it onto {@code server.tomcat.threads.max} with a warning.
 * The new name wins when both are set. Also takes the environment variable {@code SERVER_TOMCAT_MAX_THREADS},
 * the form a compose file or a shell export of the old name takes.
 */
class LegacyMaxThreadsPostProcessor implements EnvironmentPostProcessor {

    static final String LEGACY = "server.tomcat.max-threads";
    static final String CURRENT = "server.tomcat.threads.max";
    static final String LEGACY_ENV = "SERVER_TOMCAT_MAX_THREADS";

    private final Log log;

    LegacyMaxThreadsPostProcessor(DeferredLogFactory logFactory) {
        this.log = logFactory.getLog(LegacyMaxThreadsPostProcessor.class);
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        Binder binder = Binder.get(environment);
        // Relaxed binding also reads SERVER_TOMCAT_MAXTHREADS and -Dserver.tomcat.maxThreads here.
        String legacy = binder.bind(LEGACY, String.class).orElse(null);
        String source = LEGACY;
        if (legacy == null && environment.getProperty(LEGACY_ENV) != null) {
            legacy = environment.getProperty(LEGACY_ENV);
            source = LEGACY_ENV;
        }
        if (legacy == null) {
            return;
        }
        if (binder.bind(CURRENT, String.class).isBound()) {
            log.warn("%s=%s is ignored: %s is set too and wins. Use %s only.".formatted(source, legacy, CURRENT, CURRENT));
            return;
        }
        environment.getPropertySources().addLast(new MapPropertySource("legacy " + source, Map.of(CURRENT, legacy)));
        log.warn("%s is the old name of %s (Spring Boot ignores it since 2.5); applied as %s=%s. Use %s."
                .formatted(source, CURRENT, CURRENT, legacy, CURRENT));
    }
}
