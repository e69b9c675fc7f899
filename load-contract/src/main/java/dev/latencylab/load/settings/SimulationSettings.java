package dev.latencylab.load.settings;

import static dev.latencylab.load.settings.SimulationProperties.NAMES;

import dev.latencylab.load.result.Result;
import dev.latencylab.load.tls.Protocol;
import dev.latencylab.load.tls.TlsTrust;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every parameter of the load simulation, read from system properties, each with a default and validated before
 * any load is sent (by SettingsReader). {@link SimulationProperties#PROPERTIES} lists them all with their defaults and what each does
 * (./lab run --help and docs/running.md are made from it).
 */
public record SimulationSettings(int users, Endpoint endpoint, Pacing pacing, ConnectionMode connections, OptionalInt modelThreads,
        Optional<Path> resultFile, Assertions assertions, Watch watch, Load load, InjectorSplit split) {

    /**
     * The server under load, its actuator, the path loaded (the first of the mix's, which the model reads), the
     * requests sent to it, and whether they go over HTTP/2 (only over TLS: an https base URL).
     */
    public record Endpoint(String baseUrl, String metricsUrl, String path, RequestMix mix, boolean http2) {

        /** What goes on the wire: h1, h1-tls (an https base URL) or h2. */
        public Protocol protocol() {
            return Protocol.of(java.net.URI.create(baseUrl).getScheme(), http2);
        }
    }

    /** How users arrive (open: each rate's ramp), how many requests each sends, and the think time between them. */
    public record Pacing(Duration ramp, int repeat, Duration thinkMin, Duration thinkMax) {
    }

    /** Gatling assertions: a run that breaches one fails. */
    public record Assertions(OptionalLong p95Ms, OptionalLong p99Ms, OptionalDouble koPercent) {
    }

    /** What the simulation watches of the target besides its answers: its actuator, and its JVM's PID on this machine. */
    /** What the run watches besides its requests: the target's actuator, its PID, and whether it writes its seconds live. */
    public record Watch(boolean sampleServer, OptionalLong targetPid, boolean live) {
    }

    /**
     * Closed or open; for the open model its rates (a ladder when several), how long each is held, how arrivals are
     * spaced, the SLO a level must meet, and whether the first miss stops the run.
     */
    public record Load(Injection injection, List<Double> rates, Duration levelDuration, Arrivals arrivals, OptionalLong sloP99Ms,
            double sloKoPercent, boolean stopOnSloMiss) {
    }

    /** How requests arrive: the classic closed loop of users, or an open stream at a set rate. */
    public enum Injection {
        /** N users, each waiting for its answer and thinking before the next request: a slow server slows its load. */
        CLOSED,
        /** Requests arrive at sim.rate per second whether the server keeps up or not, each one independent. */
        OPEN;

        public String id() {
            return name().toLowerCase();
        }
    }

    /** Open model: evenly spaced arrivals, or a Poisson process of the same mean rate (Gatling's randomized steps). */
    public enum Arrivals {
        UNIFORM, POISSON;

        public String id() {
            return name().toLowerCase();
        }
    }

    public enum ConnectionMode {
        /** Shared pool when one connection per user would not fit under the open-files limit. */
        AUTO,
        /** Gatling's default: every virtual user opens its own keep-alive connection, like a browser. */
        PER_USER,
        /** One pool for all users: far fewer sockets, but the server no longer sees one connection per user. */
        SHARED;

        public String id() {
            return name().toLowerCase().replace('_', '-');
        }
    }

    /** Known targets for -Dtarget=..., the services of this repository on their default ports. */
    public static final Map<String, String> TARGETS = Map.of(
            "mvc", TargetPorts.localUrl(TargetPorts.MVC),
            "webflux", TargetPorts.localUrl(TargetPorts.WEBFLUX));

    /** The property names: this class owns them; the runner and tests build settings with these, never by spelling. */
    public static final String USERS = "sim.users";
    public static final String TARGET = "target";
    public static final String BASE_URL = "base.url";
    public static final String METRICS_URL = "sim.metrics.url";
    public static final String HTTP2 = "sim.http2";
    public static final String PATH = "test.path";
    public static final String RAMP_SECONDS = "sim.ramp.seconds";
    public static final String REPEAT = "sim.repeat";
    public static final String THINK_MIN_MS = "sim.think.min.ms";
    public static final String THINK_MAX_MS = "sim.think.max.ms";
    public static final String CONNECTIONS = "sim.connections";
    public static final String MODEL_THREADS = "sim.model.threads";
    public static final String RESULT_FILE = "sim.result.file";
    public static final String ASSERT_P95_MS = "sim.assert.p95.ms";
    public static final String ASSERT_P99_MS = "sim.assert.p99.ms";
    public static final String ASSERT_KO_PERCENT = "sim.assert.ko.percent";
    public static final String SAMPLE_SERVER = "sim.sample.server";
    public static final String LIVE = "sim.live";
    public static final String TARGET_PID = "sim.target.pid";
    public static final String INJECTION = "sim.injection";
    public static final String RATE = "sim.rate";
    public static final String LEVEL_SECONDS = "sim.level.seconds";
    public static final String ARRIVALS = "sim.arrivals";
    public static final String SLO_P99_MS = "sim.slo.p99.ms";
    public static final String SLO_KO_PERCENT = "sim.slo.ko.percent";
    public static final String STOP_ON_SLO_MISS = "sim.stop.on.slo.miss";
    public static final String INJECTORS = "sim.injectors";
    public static final String INJECTOR_INDEX = "sim.injector.index";
    public static final String START_AT = "sim.start.at";
    public static final String METHOD = "sim.method";
    public static final String BODY_FILE = "sim.body.file";
    public static final String REQUESTS_FILE = "sim.requests.file";
    /** A header every request carries: sim.header.NAME=VALUE (a family of properties, one a header). */
    public static final String HEADER_PREFIX = "sim.header.";
    /** The environment variable a runner passes the headers in, one "Name: value" a line (see fromSystemProperties). */
    public static final String HEADERS_ENV = "LATENCY_LAB_HEADERS";

    /** Properties of the closed model only, and of the open model only: one given to the other model is a mistake. */
    static final List<String> CLOSED_ONLY = List.of(USERS, REPEAT, THINK_MIN_MS, THINK_MAX_MS, CONNECTIONS);
    static final List<String> OPEN_ONLY = List.of(RATE, LEVEL_SECONDS, ARRIVALS, SLO_P99_MS, SLO_KO_PERCENT, STOP_ON_SLO_MISS);
    /** A level shorter than this has no plateau worth a percentile: ramps, JIT and the first queue dominate it. */
    public static final int MIN_LEVEL_SECONDS = 5;
    /** Default SLO of the open model: p99 within the latency plus this. */
    public static final long SLO_MARGIN_MS = 100;
    static final int MAX_LEVELS = 50;
    static final double MAX_RATE = 1_000_000;
    static final int MAX_INJECTORS = 1000;
    /** A start further ahead than this is a mistake (ms instead of s, a wrong clock), not a plan. */
    static final Duration MAX_START_AHEAD = Duration.ofHours(1);

    /** Property names in these families are ours: one that is not in {@link SimulationProperties#NAMES} is a typo, never ignored. */
    static final List<String> OWN_PREFIXES = List.of("sim.", "test.", "base.");

    static final Pattern LATENCY_IN_PATH = Pattern.compile("^/(?:hello|block|db|http|pinned)/([0-9]+)(?:\\?.*)?$");
    /** What test.path may hold: a path and an optional query of plain URL characters (RFC 3986), no fragment. */
    static final Pattern URL_PATH = Pattern.compile(
            "/(?:[A-Za-z0-9\\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*(?:\\?(?:[A-Za-z0-9\\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*)?");

    /** Thrown with one line per bad property: which value, why, what is allowed. */
    public static class InvalidSettingsException extends IllegalArgumentException {
        public InvalidSettingsException(List<String> problems) {
            super("invalid simulation parameters:\n  " + String.join("\n  ", problems));
        }
    }

    /**
     * The simulation's properties of this JVM, with the headers the runner passed in {@link #HEADERS_ENV}: a header's
     * value (a token, a password) never goes on a command line, which every user of the machine can read.
     */
    public static SimulationSettings fromSystemProperties() {
        Properties p = new Properties();
        p.putAll(System.getProperties());
        p.putAll(headersFromEnvironment(System.getenv(HEADERS_ENV)));
        return from(p);
    }

    /** The sim.header.* properties of HEADERS_ENV's lines ("Name: value" each); none when it is not set. */
    static Map<String, String> headersFromEnvironment(String lines) {
        Map<String, String> m = new LinkedHashMap<>();
        if (lines != null) {
            lines.lines().map(RequestMix::header).filter(java.util.Objects::nonNull).forEach(h -> m.put(HEADER_PREFIX + h.getKey(), h.getValue()));
        }
        return m;
    }

    /**
     * The environment a runner gives the simulation's JVM: these properties' headers as HEADERS_ENV's lines, the
     * command line keeping the others; empty when there are none. A process's environment is readable by its own user
     * alone.
     */
    public static Map<String, String> headersEnvironment(Map<String, String> properties) {
        StringBuilder lines = new StringBuilder();
        properties.forEach((k, v) -> {
            if (k.startsWith(HEADER_PREFIX)) {
                lines.append(k.substring(HEADER_PREFIX.length())).append(": ").append(v).append('\n');
            }
        });
        return lines.isEmpty() ? Map.of() : Map.of(HEADERS_ENV, lines.toString());
    }

    /** The same, from name-value pairs (a run's -D properties). */
    public static SimulationSettings from(Map<String, String> properties) {
        Properties p = new Properties();
        p.putAll(properties);
        return from(p);
    }

    /** The pairs that are not simulation properties (Gatling's own, e.g. gatling.http.requestTimeout): passed on as they are. */
    public static Map<String, String> notOurs(Map<String, String> properties) {
        Map<String, String> m = new LinkedHashMap<>();
        properties.forEach((k, v) -> {
            if (!NAMES.containsKey(k) && OWN_PREFIXES.stream().noneMatch(k::startsWith)) {
                m.put(k, v);
            }
        });
        return m;
    }

    /** These settings pointed at a target this machine started: its URL (actuator by the +1000 rule), PID and result file. */
    public SimulationSettings forTarget(String targetUrl, boolean http2, long pid, Path result) {
        return with(new Endpoint(targetUrl, TargetPorts.managementUrl(targetUrl), endpoint.path(), endpoint.mix(), http2),
                new Watch(watch.sampleServer(), OptionalLong.of(pid), watch.live()), result, split);
    }

    /** These settings for injector index of injectors, all starting at startAt: the runner's way to split a run. */
    public SimulationSettings forInjector(int injectors, int index, Instant startAt, Path result) {
        return with(endpoint, watch, result, new InjectorSplit(injectors, index, Optional.of(startAt)));
    }

    /**
     * These settings with their load starting at a given moment (sim.start.at): the runner starts Gatling's JVM while
     * it warms the target up, and the load begins when the warm-up has ended.
     */
    public SimulationSettings startingAt(Instant at) {
        return with(endpoint, watch, resultFile.orElseThrow(), new InjectorSplit(split.injectors(), split.index(), Optional.of(at)));
    }

    /** The same load against a target, into a result file, as a share of a run: what the runner sets for each process. */
    /** These settings with the run's seconds written as they are taken (sim.live), for ./lab's live view. */
    public SimulationSettings live() {
        return new SimulationSettings(users, endpoint, pacing, connections, modelThreads, resultFile, assertions,
                new Watch(watch.sampleServer(), watch.targetPid(), true), load, split);
    }

    private SimulationSettings with(Endpoint endpoint, Watch watch, Path result, InjectorSplit split) {
        return new SimulationSettings(users, endpoint, pacing, connections, modelThreads, Optional.of(result), assertions, watch, load, split);
    }

    /** The users this process starts: its share of sim.users when several injectors split the run. */
    public int usersHere() {
        return split.share(users);
    }

    public boolean open() {
        return load.injection() == Injection.OPEN;
    }

    /**
     * The open model's arrivals this process sends: ramp to each rate (its share of it when several injectors split the
     * run), hold it a level; empty for the closed model.
     */
    public Optional<OpenLoad> openLoad() {
        return open() ? Optional.of(new OpenLoad(load.rates().stream().map(split::shareOfRate).toList(), pacing.ramp(), load.levelDuration(),
                load.arrivals() == Arrivals.POISSON)) : Optional.empty();
    }

    /** Every setting as the system property a Gatling run reads: from(toProperties()) gives the same settings. */
    public Map<String, String> toProperties() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(INJECTION, load.injection().id());
        if (open()) {
            m.put(RATE, load.rates().stream().map(SimulationSettings::rate).collect(java.util.stream.Collectors.joining(",")));
            m.put(LEVEL_SECONDS, String.valueOf(load.levelDuration().toSeconds()));
            m.put(ARRIVALS, load.arrivals().id());
            load.sloP99Ms().ifPresent(ms -> m.put(SLO_P99_MS, String.valueOf(ms)));
            m.put(SLO_KO_PERCENT, String.valueOf(load.sloKoPercent()));
            m.put(STOP_ON_SLO_MISS, String.valueOf(load.stopOnSloMiss()));
        }
        else {
            m.put(USERS, String.valueOf(users));
        }
        m.put(BASE_URL, endpoint.baseUrl());
        m.put(METRICS_URL, endpoint.metricsUrl());
        if (endpoint.http2()) {
            m.put(HTTP2, "true");
        }
        RequestMix mix = endpoint.mix();
        if (mix.file().isPresent()) {
            m.put(REQUESTS_FILE, mix.file().get().toString());
        }
        else {
            m.put(PATH, endpoint.path());
            RequestMix.Request only = mix.requests().get(0);
            if (!only.method().equals(NAMES.get(METHOD))) {
                m.put(METHOD, only.method());
            }
            only.bodyFile().ifPresent(f -> m.put(BODY_FILE, f.toString()));
        }
        mix.headers().forEach((name, value) -> m.put(HEADER_PREFIX + name, value));
        m.put(RAMP_SECONDS, String.valueOf(pacing.ramp().toSeconds()));
        if (!open()) {
            m.put(REPEAT, String.valueOf(pacing.repeat()));
            m.put(THINK_MIN_MS, String.valueOf(pacing.thinkMin().toMillis()));
            m.put(THINK_MAX_MS, String.valueOf(pacing.thinkMax().toMillis()));
            m.put(CONNECTIONS, connections.id());
        }
        modelThreads.ifPresent(t -> m.put(MODEL_THREADS, String.valueOf(t)));
        resultFile.ifPresent(f -> m.put(RESULT_FILE, f.toString()));
        assertions.p95Ms().ifPresent(ms -> m.put(ASSERT_P95_MS, String.valueOf(ms)));
        assertions.p99Ms().ifPresent(ms -> m.put(ASSERT_P99_MS, String.valueOf(ms)));
        assertions.koPercent().ifPresent(pct -> m.put(ASSERT_KO_PERCENT, String.valueOf(pct)));
        m.put(SAMPLE_SERVER, String.valueOf(watch.sampleServer()));
        if (watch.live()) {
            m.put(LIVE, "true");
        }
        watch.targetPid().ifPresent(pid -> m.put(TARGET_PID, String.valueOf(pid)));
        if (split.split()) {
            m.put(INJECTORS, String.valueOf(split.injectors()));
            m.put(INJECTOR_INDEX, String.valueOf(split.index()));
        }
        split.startAt().ifPresent(at -> m.put(START_AT, String.valueOf(at.toEpochMilli())));
        return m;
    }

    /** A rate as sim.rate takes it and the load side prints it: 40 rather than 40.0, no grouping. */
    public static String rate(double r) {
        return r == Math.rint(r) ? String.valueOf((long) r) : String.valueOf(r);
    }

    /** Reads and checks the properties, every problem at once (see SettingsReader). */
    public static SimulationSettings from(Properties p) {
        return SettingsReader.settings(p);
    }

    static String normalizePath(String path) {
        return path.startsWith("/") ? path : "/" + path;
    }

    /** The latency the path asks for (/hello, /block, /db, /http or /pinned, then {ms}), if it names one: the model needs it. */
    public OptionalLong latencyMs() {
        Matcher m = LATENCY_IN_PATH.matcher(endpoint.path());
        return m.matches() ? OptionalLong.of(Long.parseLong(m.group(1))) : OptionalLong.empty();
    }

    public Duration thinkMean() {
        return pacing.thinkMin().plus(pacing.thinkMax()).dividedBy(2);
    }

    /**
     * Users alive at once in this process (its share when several injectors split the run; open model: requests in
     * flight): each lives about repeat * (L + mean think), L the path's latency (0 where it names none: a lower bound);
     * users arrive evenly over the ramp, so if a user outlives the ramp all of them overlap, otherwise about N * life /
     * ramp do.
     */
    public int peakActiveUsers() {
        if (open()) {
            // Little's law: arrivals in flight at the top rate when each is answered within the SLO
            return (int) Math.ceil(openLoad().orElseThrow().topRate() * load.sloP99Ms().orElse(1000) / 1000.0) + 1;
        }
        double lifeMs = userLifeMs();
        double rampMs = pacing.ramp().toMillis();
        int users = usersHere();
        if (lifeMs >= rampMs) {
            return users;
        }
        return (int) Math.min(users, Math.ceil(users * lifeMs / rampMs) + 1);
    }

    /**
     * Why a closed run's users may never be all active at once (no plateau), said before it starts: each user's
     * requests and think times end before the ramp has started the last; null when they overlap (or the run is open).
     */
    public String plateauUnreachable() {
        int peak = peakActiveUsers();
        if (open() || peak >= dev.latencylab.load.result.PlateauSpan.PLATEAU_SHARE * usersHere()) {
            return null;
        }
        double lifeSeconds = userLifeMs() / 1000.0;
        return ("%,d users: each lives %s%.1f s (%d requests, %s think time %d ms) and the ramp takes %d s, so about %,d of them "
                + "are active at once, never all: no plateau, and its goodput is not all of theirs. More requests per user "
                + "(--requests-per-user, sim.repeat) or a shorter ramp (--ramp-seconds, sim.ramp.seconds) reach one").formatted(users,
                        latencyMs().isPresent() ? "about " : "at least ",
                        lifeSeconds, pacing.repeat(), latencyMs().isPresent() ? "latency %d ms and".formatted(latencyMs().getAsLong()) : "mean",
                        thinkMean().toMillis(), pacing.ramp().toSeconds(), peak);
    }

    /** How long a closed run's user lives: repeat * (L + mean think), L the path's latency (0 where it names none). */
    private double userLifeMs() {
        return pacing.repeat() * (latencyMs().orElse(0) + thinkMean().toMillis());
    }

    /** Every parameter as the result file records it. */
    public Result.Parameters result() {
        // users, repeat and think times are the closed model's: an open run records 0, 1, 0, 0
        Result.Assertions asserted = new Result.Assertions(assertions.p95Ms().isPresent() ? assertions.p95Ms().getAsLong() : null,
                assertions.p99Ms().isPresent() ? assertions.p99Ms().getAsLong() : null,
                assertions.koPercent().isPresent() ? assertions.koPercent().getAsDouble() : null);
        Result.Injection injected = new Result.Injection(load.injection().id(), open() ? load.rates() : null,
                open() ? load.levelDuration().toSeconds() : null, open() ? load.arrivals().id() : null,
                open() && load.sloP99Ms().isPresent() ? load.sloP99Ms().getAsLong() : null, open() ? load.sloKoPercent() : null,
                open() ? load.stopOnSloMiss() : null);
        RequestMix mix = endpoint.mix();
        boolean plainGet = !mix.mixed() && mix.requests().get(0).method().equals("GET") && mix.requests().get(0).bodyFile().isEmpty();
        return new Result.Parameters(open() ? 0 : users, new Result.Endpoint(endpoint.baseUrl(), endpoint.metricsUrl(), endpoint.path(),
                plainGet ? null : mix.requests().stream().map(q -> q.weight() + " " + q.name()).toList(),
                mix.headers().isEmpty() ? null : List.copyOf(mix.headers().keySet()), endpoint.protocol().id(),
                endpoint.protocol().tls() ? TlsTrust.ofThisJvm().id() : null, null),
                new Result.RunPacing(pacing.ramp().toSeconds(), open() ? 1 : pacing.repeat(), open() ? 0 : pacing.thinkMin().toMillis(),
                        open() ? 0 : pacing.thinkMax().toMillis()),
                connections.id(), modelThreads.isPresent() ? modelThreads.getAsInt() : null, asserted, watch.sampleServer(),
                watch.targetPid().isPresent() ? watch.targetPid().getAsLong() : null, injected,
                new Result.Split(split.injectors(), split.index(), split.startAt().map(Instant::toEpochMilli).orElse(null)));
    }
}
