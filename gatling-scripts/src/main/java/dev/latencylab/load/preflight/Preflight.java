package dev.latencylab.load.preflight;

import dev.latencylab.load.metrics.BoundedAnswer;
import dev.latencylab.load.metrics.MetricsEndpoint;
import dev.latencylab.load.settings.RequestMix;
import dev.latencylab.load.settings.SimulationSettings;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.management.UnixOperatingSystemMXBean;

import dev.latencylab.load.settings.SimulationSettings.ConnectionMode;

/**
 * Checks, before any load, that the run can work: the target answers each request of the run with a 2xx (one of
 * each: a request it rejects would make a run of nothing but KO), and this process may open enough files for the connections it
 * needs. Decides the connection mode and reads the target's thread pool for the model.
 *
 * @param connections      the mode the run uses
 * @param switched         true when auto had to give up one connection per user
 * @param peakUsers        how many users the settings keep active at once, at most
 * @param openFilesNeeded  files a per-user run needs: one socket per active user plus the JVM's own
 * @param openFilesLimit   this process's limit
 * @param targetThreads    the target's Tomcat pool size, when it has a bounded one
 * @param metricsUnseen    why the server's metrics cannot be sampled (nothing at the metrics URL, or not Prometheus
 *                         text): the run goes on without them; null when they answered, or sampling is off
 */
public record Preflight(ConnectionMode connections, boolean switched, int peakUsers, long openFilesNeeded,
        long openFilesLimit, OptionalInt targetThreads, String metricsUnseen) {

    /** Whether the server's metrics are sampled in this run: asked for, and found at the start. */
    public boolean samplesServer(SimulationSettings s) {
        return s.watch().sampleServer() && metricsUnseen == null;
    }

    /** The line said once when the server's metrics cannot be read: the run goes on without them; null when they can. */
    public String metricsUnseenLine() {
        return metricsUnseen == null ? null : "latency-lab: no server metrics: %s; the run goes on without them (the server's CPU, threads "
                .formatted(metricsUnseen) + "and pools unseen; -D%s=... points at an actuator elsewhere)".formatted(SimulationSettings.METRICS_URL);
    }

    /** Files a Gatling JVM holds besides its sockets: jars, epoll, pipes, logs. Measured ~150; kept generous. */
    static final int JVM_OWN_FILES = 400;

    public static class PreflightException extends RuntimeException {
        public PreflightException(String message) {
            super(message);
        }
    }

    private static final Pattern FIRST_VALUE = Pattern.compile("\"value\"\\s*:\\s*(-?[0-9.eE+]+)");

    public static Preflight check(SimulationSettings s) {
        if (s.watch().targetPid().isPresent() && ProcessHandle.of(s.watch().targetPid().getAsLong()).filter(ProcessHandle::isAlive).isEmpty()) {
            throw new PreflightException(
                    "%s=%d is not a running process: the target has exited".formatted(SimulationSettings.TARGET_PID, s.watch().targetPid().getAsLong()));
        }
        requireAnswer(s.endpoint().baseUrl());
        requireOk(s);
        long limit = ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean unix
                ? unix.getMaxFileDescriptorCount() : Long.MAX_VALUE;
        Preflight decided = decide(s, limit,
                s.modelThreads().isPresent() ? s.modelThreads() : readPoolSize(s.endpoint().metricsUrl(),
                        dev.latencylab.load.sample.Sampler.tomcatConnector(URI.create(s.endpoint().baseUrl()))));
        return s.watch().sampleServer() ? decided.withMetricsUnseen(MetricsEndpoint.unseen(s.endpoint().metricsUrl())) : decided;
    }

    private Preflight withMetricsUnseen(String why) {
        return new Preflight(connections, switched, peakUsers, openFilesNeeded, openFilesLimit, targetThreads, why);
    }

    /** The descriptor arithmetic alone, for tests. */
    static Preflight decide(SimulationSettings s, long openFilesLimit, OptionalInt targetThreads) {
        int peakUsers = s.peakActiveUsers();
        long needed = (long) peakUsers + JVM_OWN_FILES;
        boolean fits = needed <= openFilesLimit;
        ConnectionMode mode = s.connections();
        if (s.open() && !fits) {
            throw new PreflightException(("%s req/s answered within %d ms keep about %d requests in flight, each on a "
                    + "connection of its own, and this process may open %d files (ulimit -n): a lower sim.rate, or several injectors.")
                    .formatted(SimulationSettings.rate(s.openLoad().orElseThrow().topRate()), s.load().sloP99Ms().orElse(1000), peakUsers, openFilesLimit));
        }
        if (mode == ConnectionMode.PER_USER && !fits) {
            throw new PreflightException(("""
                    %d users with one connection each need about %d open files (%d users active at once + %d for the JVM), \
                    but this process may open %d (ulimit -n). Options: -Dsim.connections=shared (one connection pool for all \
                    users; the server then sees far fewer connections), several injectors (-Dsim.injectors, ./lab run --injectors), \
                    fewer users, a longer ramp (-Dsim.ramp.seconds), or a higher limit where the machine allows it.""")
                    .formatted(s.usersHere(), needed, peakUsers, JVM_OWN_FILES, openFilesLimit));
        }
        boolean switched = mode == ConnectionMode.AUTO && !fits;
        ConnectionMode used = mode == ConnectionMode.AUTO ? (fits ? ConnectionMode.PER_USER : ConnectionMode.SHARED) : mode;
        return new Preflight(used, switched, peakUsers, needed, openFilesLimit, targetThreads, null);
    }

    /** How long after the load's start a path that answers 5xx is asked again before the run is refused. */
    static final Duration SERVER_ERROR_PATIENCE = Duration.ofSeconds(5);

    /**
     * Why a TLS handshake failed, in words that name what to change: the server's certificate, unless no certificate was
     * checked (--insecure) or the two sides agreed on no protocol (a server of TLS 1.0 or 1.1, which the JDK disables):
     * then another certificate would change nothing.
     */
    static String handshakeFailed(String baseUrl, javax.net.ssl.SSLHandshakeException e, boolean insecure) {
        String said = String.valueOf(e.getMessage());
        String failed = "%s answers, but its TLS handshake failed: %s. ".formatted(baseUrl, said);
        if (insecure || said.toLowerCase(java.util.Locale.ROOT).contains("protocol")) {
            return failed + ("Not its certificate (%s): the server and this JDK agreed on no protocol or cipher (the JDK refuses TLS 1.0 "
                    + "and 1.1); let the server offer TLS 1.2 or 1.3").formatted(insecure ? "none is checked with --insecure"
                            : "the handshake ended before one was checked");
        }
        return failed + "A certificate the load does not trust: give ./lab --ca-cert FILE (its PEM, or its authority's), or --insecure "
                + "to check none (-Dgatling.ssl.trustStore.* to Gatling)";
    }

    private static void requireAnswer(String baseUrl) {
        try {
            BoundedAnswer.status(MetricsEndpoint.http(), HttpRequest.newBuilder(URI.create(baseUrl + "/")).timeout(Duration.ofSeconds(10)).build(),
                    Duration.ofSeconds(10));
        }
        catch (IOException e) {
            if (e instanceof java.net.http.HttpTimeoutException && !(e instanceof java.net.http.HttpConnectTimeoutException)) {
                throw new PreflightException(("%s took the connection but sent no answer within 10 s: it runs, but is stuck or too slow "
                        + "to answer; check it (its log, a thread dump) before loading it").formatted(baseUrl));
            }
            if (e instanceof javax.net.ssl.SSLHandshakeException handshake) {
                throw new PreflightException(handshakeFailed(baseUrl, handshake, Boolean.getBoolean(dev.latencylab.load.tls.TlsTrust.INSECURE)));
            }
            throw new PreflightException("nothing answers at %s (%s): start it with %s"
                    .formatted(baseUrl, e.getClass().getSimpleName(), startHint(baseUrl)));
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PreflightException("interrupted while checking " + baseUrl);
        }
    }

    /** One GET of the path under test, which must answer 200; its body says why when it does not. */
    /** Each request of the run, sent once as the run sends it: a request the target refuses would make a run of KO. */
    private static void requireOk(SimulationSettings s) {
        for (RequestMix.Request q : s.endpoint().mix().requests()) {
            requireOk(s, q, SERVER_ERROR_PATIENCE);
        }
    }

    static void requireOk(SimulationSettings s, RequestMix.Request q, Duration patience) {
        String url = s.endpoint().baseUrl() + q.path();
        Duration timeout = Duration.ofMillis(s.latencyMs().orElse(60_000) + 15_000);
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(timeout)
                .method(q.method(), q.bodyFile().isEmpty() ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(q.body()));
        s.endpoint().mix().headersOf(q).forEach(request::header);
        String what = q.method() + " " + url;
        // a 5xx is a server under load (the warm-up runs while this JVM starts) or failing, not the path: asked again
        // until the load would begin, and a while after
        Instant until = s.split().startAt().filter(at -> at.isAfter(Instant.now())).orElse(Instant.now()).plus(patience);
        try {
            while (true) {
                // a 2xx's body is not read (one that never ends must not hold the check); a refusal's says why
                BoundedAnswer r = BoundedAnswer.get(MetricsEndpoint.http(), request.build(), timeout, status -> status < 200 || status > 299);
                if (r.status() >= 200 && r.status() <= 299) {
                    return;
                }
                String body = r.body().length() > 400 ? r.body().substring(0, 400) + "..." : r.body();
                if (r.status() >= 300 && r.status() <= 399) {
                    // a redirect is not followed (it may lead to another host): the URL is right, only not the one to load
                    throw new PreflightException(("the target answers %s with HTTP %d, a redirect: the load follows none (it may lead to "
                            + "another host), so every such request of the run would end there. Give the URL it redirects to (its Location "
                            + "header) as --url (or test.path)").formatted(what, r.status()));
                }
                if (r.status() < 500) {
                    throw new PreflightException("the target answers %s with HTTP %d, not 2xx: every such request of the run would fail. "
                            .formatted(what, r.status()) + "Fix "
                            + (s.endpoint().mix().file().isPresent() ? "the requests file" : "the path (--url, or test.path)")
                            + " (or base.url). The answer: " + body.strip());
                }
                if (Instant.now().isAfter(until)) {
                    throw new PreflightException(("the target answers %s with HTTP %d, a server error, still %d s after the load would have "
                            + "begun: every such request of the run would fail. Check the target (its log, and what it calls). The answer: ")
                            .formatted(what, r.status(), patience.toSeconds()) + body.strip());
                }
                Thread.sleep(100);
            }
        }
        catch (IOException e) {
            throw new PreflightException("%s got no answer within %d s (%s): check test.path and the target"
                    .formatted(what, timeout.toSeconds(), e.getClass().getSimpleName()));
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PreflightException("interrupted while checking " + url);
        }
    }

    private static String startHint(String baseUrl) {
        if (baseUrl.equals(SimulationSettings.TARGETS.get("mvc"))) {
            return "`./mvnw -pl mvc-with-latency -am spring-boot:run`, or run `./lab run --target mvc`, which starts it";
        }
        if (baseUrl.equals(SimulationSettings.TARGETS.get("webflux"))) {
            return "`./mvnw -pl webflux-with-latency -am spring-boot:run`, or run `./lab run`, which starts it";
        }
        return "the server you meant, or point base.url (or -Dtarget=mvc|webflux) at a running one";
    }

    /**
     * tomcat.threads.config.max of the request connector (the actuator's port has its own), when the target is
     * Tomcat with a bounded pool (-1 with virtual threads).
     */
    private static OptionalInt readPoolSize(String metricsUrl, String tomcatConnector) {
        try {
            BoundedAnswer r = BoundedAnswer.get(MetricsEndpoint.http(), HttpRequest.newBuilder(URI.create(metricsUrl
                    + "/actuator/metrics/tomcat.threads.config.max?tag=name:" + tomcatConnector))
                    .timeout(Duration.ofSeconds(10)).build(), Duration.ofSeconds(10));
            Matcher m = FIRST_VALUE.matcher(r.body());
            if (r.status() == 200 && m.find()) {
                int threads = (int) Double.parseDouble(m.group(1));
                return threads > 0 ? OptionalInt.of(threads) : OptionalInt.empty();
            }
        }
        catch (IOException e) {
            // no actuator: the model then has no pool
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return OptionalInt.empty();
    }
}
