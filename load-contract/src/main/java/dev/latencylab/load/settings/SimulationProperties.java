package dev.latencylab.load.settings;

import static dev.latencylab.load.settings.SimulationSettings.*;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The catalogue of the simulation's properties (their names: SimulationSettings): each with its default and what it
 * does, the one list ./lab run --help, docs/running.md and the reader's defaults are made from.
 */
public final class SimulationProperties {

    private SimulationProperties() {
    }

    /**
     * One property of the simulation: its name, its default (a value, or a parenthesised description when it has
     * none), and what it does. The one list of them: ./lab run --help and docs/running.md are made from it.
     */
    public record Property(String name, String defaultValue, String meaning) {
    }

    /** Every property, in the order the help and the docs give them. */
    public static final List<Property> PROPERTIES = List.of(
            new Property(USERS, "1000", "virtual users (a whole number >= 1); closed model only, like sim.repeat, the think times and sim.connections"),
            new Property(TARGET, "(none: mvc or webflux sets base.url)", "mvc or webflux: sets base.url to that local service"),
            new Property(BASE_URL, TargetPorts.localUrl(TargetPorts.WEBFLUX), "the server under load (no path)"),
            new Property(HTTP2, "false", "true: HTTP/2 (chosen by ALPN over TLS: needs an https base.url); the certificates trusted are "
                    + "Gatling's gatling.ssl.trustStore.* (none set: the system's; gatling.ssl.useInsecureTrustManager=true: none checked)"),
            new Property(METRICS_URL, "(base.url with its port + 1000: the targets' actuator port)", "the target's actuator, sampled about once a second"),
            new Property(PATH, "hello/100", "the path loaded, with or without a leading slash; its latency feeds the model"),
            new Property(METHOD, "GET", "the method of test.path's request: " + String.join(", ", new java.util.TreeSet<>(RequestMix.METHODS))),
            new Property(BODY_FILE, "(none)", "a file whose bytes are test.path's request body (Content-Type from its extension: "
                    + ".json, .xml, .txt, .form; else a sim.header.Content-Type)"),
            new Property(REQUESTS_FILE, "(none: test.path's one request)", "a file of requests sent in turn, one a line: [WEIGHT] METHOD PATH "
                    + "[@BODY_FILE], e.g. 3 GET /owners?lastName=Davis; each one's figures in the result file (instead of test.path)"),
            new Property(HEADER_PREFIX + "<Name>", "(none)",
                    "a header every request carries, e.g. -Dsim.header.Accept-Language=de (the result file names it, never its value; "
                            + "a secret: ./lab's --header @FILE, which gives Gatling the value in its environment, off every command line)"),
            new Property(RAMP_SECONDS, "30", "users arrive evenly over this many seconds (open: each rate's ramp)"),
            new Property(REPEAT, "30", "requests per user"),
            new Property(THINK_MIN_MS, "1000", "the shortest think time between a user's requests (uniform up to sim.think.max.ms)"),
            new Property(THINK_MAX_MS, "2000", "the longest think time between a user's requests"),
            new Property(CONNECTIONS, "auto", "per-user (Gatling's default: one keep-alive connection per user), shared (one pool for all users), or auto: "
                    + "per-user when this process's open-files limit can hold it, else shared, said loudly and recorded"),
            new Property(MODEL_THREADS, "(read from the target's tomcat.threads.config.max)", "the T of the model (none for WebFlux or virtual threads)"),
            new Property(RESULT_FILE, "(result.json in the run's report folder)", "where the result file goes"),
            new Property(ASSERT_P95_MS, "(none)", "a Gatling assertion on p95 (ms): breached, the run fails"),
            new Property(ASSERT_P99_MS, "(none)", "a Gatling assertion on p99 (ms): breached, the run fails"),
            new Property(ASSERT_KO_PERCENT, "(none)", "a Gatling assertion on the share of KO: breached, the run fails"),
            new Property(SAMPLE_SERVER, "true", "sample the target's actuator during the run"),
            new Property(LIVE, "false", "write each second to live.jsonl beside the result file as it is taken (./lab run's live view)"),
            new Property(TARGET_PID, "(none; ./lab sets it: the target JVM's PID, watched during the run)",
                    "the target JVM's PID, when it runs on this machine: watched every second"),
            new Property(INJECTION, "closed", "closed: the users above; open: requests arrive at sim.rate whether the server keeps up or not"),
            new Property(RATE, "(none; needed with sim.injection=open)",
                    "open: arrivals per second, a number above 0; an ascending list (100,200,400) makes a ladder of levels"),
            new Property(LEVEL_SECONDS, "60", "open: how long each rate is held after its ramp of sim.ramp.seconds (at least 5: a plateau)"),
            new Property(ARRIVALS, "uniform", "open: uniform (evenly spaced) or poisson (Gatling's randomized steps, same mean rate)"),
            new Property(SLO_P99_MS, "(the path's latency + " + SLO_MARGIN_MS + ")", "open: the p99 from due a level must meet"),
            new Property(SLO_KO_PERCENT, "0", "open: the share of KO a level may have"),
            new Property(STOP_ON_SLO_MISS, "false", "open: stop the run at the first level that misses the SLO (a ladder need not climb further)"),
            new Property(INJECTORS, "1", "Gatling processes that share the run's users, or each rate of an open run"),
            new Property(INJECTOR_INDEX, "0", "which of them this process is, 0 to sim.injectors - 1"),
            new Property(START_AT, "(none: at once; with several injectors, the epoch ms at which all of them start)",
                    "epoch milliseconds at which the load starts: each injector waits for it (at most an hour ahead)"));

    /** Property name and default, from {@link #PROPERTIES}: what a run reads when a property is not given. */
    public static final Map<String, String> NAMES = names();

    private static Map<String, String> names() {
        Map<String, String> n = new LinkedHashMap<>();
        PROPERTIES.forEach(p -> n.put(p.name(), p.defaultValue()));
        return java.util.Collections.unmodifiableMap(n);
    }
}
