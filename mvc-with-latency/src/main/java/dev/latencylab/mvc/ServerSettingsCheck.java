package dev.latencylab.mvc;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Tomcat's pool and connection settings, checked before the server starts: Tomcat takes a pool of 0 or -5 threads
 * as its default of 200 without a word (TOMCAT_MAX_THREADS=0 in compose started a healthy target with 200), which
 * would make every figure of a run about another pool than the one given. A value out of range stops the target with
 * one line naming the setting, the value and the range (after the old property name is mapped: listed after it).
 */
class ServerSettingsCheck implements EnvironmentPostProcessor, Ordered {

    /** A setting, the least value it takes, and whether -1 (no limit) is allowed too. */
    private record Range(String property, int least, boolean unlimited) {
    }

    private static final Range[] RANGES = {new Range(LegacyMaxThreadsPostProcessor.CURRENT, 1, false),
            new Range("server.tomcat.threads.min-spare", 0, false), new Range("server.tomcat.max-connections", 1, true),
            new Range("server.tomcat.accept-count", 1, false)};

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        Binder binder = Binder.get(environment);
        for (Range r : RANGES) {
            String given = binder.bind(r.property(), String.class).orElse(null);
            if (given == null) {
                continue;
            }
            Integer value = parse(given.strip());
            if (value == null || value < r.least() && !(r.unlimited() && value == -1)) {
                throw new OutOfRange("%s is %s; give a whole number of %d or more%s".formatted(r.property(), given, r.least(),
                        r.unlimited() ? " (or -1: no limit)" : ""));
            }
        }
    }

    private static Integer parse(String given) {
        try {
            return Integer.valueOf(given);
        }
        catch (NumberFormatException e) {
            return null;
        }
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    /** A server setting out of range: the target does not start. */
    static final class OutOfRange extends IllegalArgumentException {
        OutOfRange(String message) {
            super(message);
        }
    }

    /** Spring Boot's report of a failed start, for this failure: the line, and what to do. */
    static final class Analyzer extends AbstractFailureAnalyzer<OutOfRange> {
        @Override
        protected FailureAnalysis analyze(Throwable root, OutOfRange cause) {
            return new FailureAnalysis(cause.getMessage(), "Set it in range (compose: TOMCAT_MAX_THREADS; ./lab: the target id, "
                    + "e.g. mvc-t400), or leave it unset for Spring Boot's default.", cause);
        }
    }
}
