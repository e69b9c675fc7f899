package dev.latencylab.load;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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

import org.apache.commons.text.similarity.LevenshteinDistance;

/**
 * Every parameter of the load simulation, read from system properties, each with a default and validated before
 * any load is sent. {@link #PROPERTIES} lists them all with their defaults and what each does (./lab run --help and
 * docs/running.md are made from it).
 */
public record SimulationSettings(int users, Endpoint endpoint, Pacing pacing, ConnectionMode connections, OptionalInt modelThreads,
        Optional<Path> resultFile, Assertions assertions, Watch watch, Load load, InjectorSplit split) {

    /**
     * The server under load, its actuator, the path loaded (the first of the mix's, which the model reads), and the
     * requests sent to it.
     */
    public record Endpoint(String baseUrl, String metricsUrl, String path, RequestMix mix) {
    }

    /** How users arrive (open: each rate's ramp), how many requests each sends, and the think time between them. */
    public record Pacing(Duration ramp, int repeat, Duration thinkMin, Duration thinkMax) {
    }

    /** Gatling assertions: a run that breaches one fails. */
    public record Assertions(OptionalLong p95Ms, OptionalLong p99Ms, OptionalDouble koPercent) {
    }

    /** What the simulation watches of the target besides its answers: its actuator, and its JVM's PID on this machine. */
    public record Watch(boolean sampleServer, OptionalLong targetPid) {
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

        String id() {
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
            new Property(METRICS_URL, "(base.url with its port + 1000: the targets' actuator port)", "the target's actuator, sampled about once a second"),
            new Property(PATH, "hello/100", "the path loaded, with or without a leading slash; its latency feeds the model"),
            new Property(METHOD, "GET", "the method of test.path's request: " + String.join(", ", new java.util.TreeSet<>(RequestMix.METHODS))),
            new Property(BODY_FILE, "(none)", "a file whose bytes are test.path's request body (Content-Type from its extension: "
                    + ".json, .xml, .txt, .form; else a sim.header.Content-Type)"),
            new Property(REQUESTS_FILE, "(none: test.path's one request)", "a file of requests sent in turn, one a line: [WEIGHT] METHOD PATH "
                    + "[@BODY_FILE], e.g. 3 GET /owners?lastName=Davis; each one's figures in the result file (instead of test.path)"),
            new Property(HEADER_PREFIX + "<Name>", "(none)", "a header every request carries, e.g. -Dsim.header.Authorization='Bearer ...' "
                    + "(the result file names it, never its value)"),
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
            new Property(TARGET_PID, "(none; ./lab sets it: the target JVM's PID, watched during the run)", "the target JVM's PID, when it runs on this machine: watched every second"),
            new Property(INJECTION, "closed", "closed: the users above; open: requests arrive at sim.rate whether the server keeps up or not"),
            new Property(RATE, "(none; needed with sim.injection=open)", "open: arrivals per second, a number above 0; an ascending list (100,200,400) makes a ladder of levels"),
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

    /** Property names in these families are ours: one that is not in {@link #NAMES} is a typo, never ignored. */
    private static final List<String> OWN_PREFIXES = List.of("sim.", "test.", "base.");

    private static final Pattern LATENCY_IN_PATH = Pattern.compile("^/(?:hello|block|db|http|pinned)/([0-9]+)(?:\\?.*)?$");
    /** What test.path may hold: a path and an optional query of plain URL characters (RFC 3986), no fragment. */
    private static final Pattern URL_PATH = Pattern.compile(
            "/(?:[A-Za-z0-9\\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*(?:\\?(?:[A-Za-z0-9\\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*)?");

    /** Thrown with one line per bad property: which value, why, what is allowed. */
    public static class InvalidSettingsException extends IllegalArgumentException {
        public InvalidSettingsException(List<String> problems) {
            super("invalid simulation parameters:\n  " + String.join("\n  ", problems));
        }
    }

    public static SimulationSettings fromSystemProperties() {
        return from(System.getProperties());
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
    public SimulationSettings forTarget(String targetUrl, long pid, Path result) {
        return with(new Endpoint(targetUrl, TargetPorts.managementUrl(targetUrl), endpoint.path(), endpoint.mix()),
                new Watch(watch.sampleServer(), OptionalLong.of(pid)), result, split);
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

    public static SimulationSettings from(Properties p) {
        Reader r = new Reader(p);
        r.unknownNames();
        Injection injection = r.injection();
        for (String name : injection == Injection.OPEN ? CLOSED_ONLY : OPEN_ONLY) {
            if (r.has(name)) {
                r.problems.add(injection == Injection.OPEN
                        ? "%s is a property of the closed model (users that wait for their answers); the open model (sim.injection=open) sends sim.rate requests per second on shared connections: remove it".formatted(name)
                        : "%s is a property of the open model; add -Dsim.injection=open, or remove it".formatted(name));
            }
        }
        int users = r.integer(USERS, 1, Integer.MAX_VALUE);
        String baseUrl = r.baseUrl();
        String metricsUrl = r.has(METRICS_URL) ? r.url(METRICS_URL, p.getProperty(METRICS_URL).trim()) : TargetPorts.managementUrl(baseUrl);
        RequestMix mix = r.mix();
        String path = mix.firstPath();
        int rampSeconds = r.integer(RAMP_SECONDS, 1, 86_400);
        int repeat = r.integer(REPEAT, 1, 1_000_000);
        int thinkMin = r.integer(THINK_MIN_MS, 0, 3_600_000);
        int thinkMax = r.integer(THINK_MAX_MS, 0, 3_600_000);
        if (thinkMin > thinkMax && r.problems.isEmpty()) {
            r.problems.add("sim.think.min.ms=%d is above sim.think.max.ms=%d; allowed: min <= max".formatted(thinkMin, thinkMax));
        }
        ConnectionMode connections = r.connectionMode();
        OptionalInt modelThreads = r.has(MODEL_THREADS)
                ? OptionalInt.of(r.integer(MODEL_THREADS, 1, 1_000_000)) : OptionalInt.empty();
        Optional<Path> resultFile = Optional.ofNullable(p.getProperty(RESULT_FILE)).filter(s -> !s.isBlank()).map(Path::of);
        OptionalLong p95 = r.has(ASSERT_P95_MS) ? OptionalLong.of(r.integer(ASSERT_P95_MS, 1, Integer.MAX_VALUE)) : OptionalLong.empty();
        OptionalLong p99 = r.has(ASSERT_P99_MS) ? OptionalLong.of(r.integer(ASSERT_P99_MS, 1, Integer.MAX_VALUE)) : OptionalLong.empty();
        OptionalDouble ko = r.has(ASSERT_KO_PERCENT) ? OptionalDouble.of(r.percent(ASSERT_KO_PERCENT)) : OptionalDouble.empty();
        boolean sample = r.bool(SAMPLE_SERVER);
        OptionalLong targetPid = r.has(TARGET_PID) ? OptionalLong.of(r.integer(TARGET_PID, 1, Integer.MAX_VALUE)) : OptionalLong.empty();
        List<Double> rates = List.of();
        int levelSeconds = Integer.parseInt(NAMES.get(LEVEL_SECONDS));
        Arrivals arrivals = Arrivals.UNIFORM;
        OptionalLong slo = OptionalLong.empty();
        double sloKo = 0;
        boolean stopOnMiss = false;
        if (injection == Injection.OPEN) {
            rates = r.rates();
            levelSeconds = r.integer(LEVEL_SECONDS, MIN_LEVEL_SECONDS, 86_400);
            for (double rate : rates) {
                if (rate * levelSeconds < 1) {
                    r.problems.add(("sim.rate=%s held for sim.level.seconds=%d plans no arrival (rate x seconds < 1); give at least "
                            + "%s req/s, or a longer level").formatted(rate(rate), levelSeconds, rate(Math.ceil(1000.0 / levelSeconds) / 1000)));
                    break;
                }
            }
            arrivals = r.arrivals();
            Matcher latency = LATENCY_IN_PATH.matcher(path);
            if (r.has(SLO_P99_MS)) {
                slo = OptionalLong.of(r.integer(SLO_P99_MS, 1, Integer.MAX_VALUE));
            }
            else if (latency.matches()) {
                slo = OptionalLong.of(Long.parseLong(latency.group(1)) + SLO_MARGIN_MS);
            }
            else {
                r.problems.add("sim.slo.p99.ms is needed: test.path=%s names no latency to derive it from (latency + %d ms)"
                        .formatted(path, SLO_MARGIN_MS));
            }
            sloKo = r.percent(SLO_KO_PERCENT);
            stopOnMiss = r.bool(STOP_ON_SLO_MISS);
            connections = ConnectionMode.SHARED;
        }
        InjectorSplit split = r.split(injection, users, rates);
        if (!r.problems.isEmpty()) {
            throw new InvalidSettingsException(r.problems);
        }
        return new SimulationSettings(users, new Endpoint(baseUrl, metricsUrl, path, mix),
                new Pacing(Duration.ofSeconds(rampSeconds), repeat, Duration.ofMillis(thinkMin), Duration.ofMillis(thinkMax)), connections,
                modelThreads, resultFile, new Assertions(p95, p99, ko), new Watch(sample, targetPid),
                new Load(injection, rates, Duration.ofSeconds(levelSeconds), arrivals, slo, sloKo, stopOnMiss), split);
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
                        mix.headers().isEmpty() ? null : List.copyOf(mix.headers().keySet())),
                new Result.Pacing(pacing.ramp().toSeconds(), open() ? 1 : pacing.repeat(), open() ? 0 : pacing.thinkMin().toMillis(),
                        open() ? 0 : pacing.thinkMax().toMillis()),
                connections.id(), modelThreads.isPresent() ? modelThreads.getAsInt() : null, asserted, watch.sampleServer(),
                watch.targetPid().isPresent() ? watch.targetPid().getAsLong() : null, injected,
                new Result.Split(split.injectors(), split.index(), split.startAt().map(Instant::toEpochMilli).orElse(null)));
    }

    /** Reads and checks properties, collecting every problem instead of stopping at the first. */
    private static final class Reader {
        final Properties p;
        final List<String> problems = new ArrayList<>();

        Reader(Properties p) {
            this.p = p;
        }

        /** Every sim.*, test.* or base.* property that is not a known name, with the known name closest to it. */
        void unknownNames() {
            LevenshteinDistance distance = LevenshteinDistance.getDefaultInstance();
            for (String name : new java.util.TreeSet<>(p.stringPropertyNames())) {
                if (OWN_PREFIXES.stream().anyMatch(name::startsWith) && !NAMES.containsKey(name) && !name.startsWith(HEADER_PREFIX)) {
                    String closest = NAMES.keySet().stream().min(java.util.Comparator.comparingInt(known -> distance.apply(known, name))).orElseThrow();
                    problems.add("%s is not a property of the simulation (a typo?); did you mean %s? Known: %s"
                            .formatted(name, closest, String.join(", ", NAMES.keySet())));
                }
            }
        }

        /**
         * test.path, taken literally: a URL path with an optional query, nothing Gatling or a URL would read otherwise
         * (no '#', no spaces, no '#{...}' expression). Whether the target accepts it, the preflight asks the target.
         */
        String path() {
            String raw = value(PATH);
            String path = normalizePath(raw);
            if (!URL_PATH.matcher(path).matches()) {
                problems.add(("test.path=%s is not a URL path; allowed: a path with an optional query of plain URL "
                        + "characters (no '#', spaces or '{}'; encode others as %%XX), e.g. hello/100").formatted(raw));
            }
            return path;
        }

        /**
         * The requests: a requests file's (then test.path, sim.method and sim.body.file are not given), or test.path's
         * one request; and the sim.header.* headers of every request.
         */
        RequestMix mix() {
            Map<String, String> headers = new LinkedHashMap<>();
            for (String name : new java.util.TreeSet<>(p.stringPropertyNames())) {
                if (name.startsWith(HEADER_PREFIX)) {
                    String header = name.substring(HEADER_PREFIX.length());
                    String value = p.getProperty(name).strip();
                    RequestMix.checkHeader(header, value, problems);
                    headers.put(header, value);
                }
            }
            if (!has(REQUESTS_FILE)) {
                return RequestMix.single(value(METHOD), path(), has(BODY_FILE) ? Optional.of(Path.of(value(BODY_FILE))) : Optional.empty(),
                        headers, problems);
            }
            for (String single : List.of(PATH, METHOD, BODY_FILE)) {
                if (has(single)) {
                    problems.add("%s and %s: give one (the requests file names each request's method, path and body)".formatted(single, REQUESTS_FILE));
                }
            }
            return RequestMix.read(Path.of(value(REQUESTS_FILE)), headers,
                    path -> URL_PATH.matcher(path).matches() ? null : "%s is not a URL path (plain URL characters; encode others as %%XX)".formatted(path),
                    problems);
        }

        boolean has(String name) {
            String v = p.getProperty(name);
            return v != null && !v.isBlank();
        }

        String value(String name) {
            String v = p.getProperty(name);
            return v == null || v.isBlank() ? NAMES.get(name) : v.trim();
        }

        int integer(String name, int min, int max) {
            String v = value(name);
            String allowed = max == Integer.MAX_VALUE || max >= 1_000_000
                    ? "a whole number >= %d".formatted(min) : "a whole number from %d to %d".formatted(min, max);
            try {
                long n = Long.parseLong(v);
                if (n >= min && n <= max) {
                    return (int) n;
                }
                problems.add("%s=%s is out of range; allowed: %s".formatted(name, v, allowed));
            }
            catch (NumberFormatException e) {
                problems.add("%s=%s is not a whole number; allowed: %s".formatted(name, v, allowed));
            }
            return min;
        }

        double percent(String name) {
            String v = value(name);
            try {
                double d = Double.parseDouble(v);
                if (d >= 0 && d <= 100) {
                    return d;
                }
            }
            catch (NumberFormatException ignored) {
                // reported below
            }
            problems.add("%s=%s is not a percentage; allowed: a number from 0 to 100".formatted(name, v));
            return 0;
        }

        boolean bool(String name) {
            String v = value(name);
            if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
                return Boolean.parseBoolean(v);
            }
            problems.add("%s=%s is not a boolean; allowed: true or false".formatted(name, v));
            return true;
        }

        Injection injection() {
            String v = value(INJECTION);
            for (Injection i : Injection.values()) {
                if (i.id().equals(v)) {
                    return i;
                }
            }
            problems.add("sim.injection=%s is unknown; allowed: closed (users that wait for their answers) or open (a rate of arrivals)".formatted(v));
            return Injection.CLOSED;
        }

        Arrivals arrivals() {
            String v = value(ARRIVALS);
            for (Arrivals a : Arrivals.values()) {
                if (a.id().equals(v)) {
                    return a;
                }
            }
            problems.add("sim.arrivals=%s is unknown; allowed: uniform or poisson".formatted(v));
            return Arrivals.UNIFORM;
        }

        /** sim.rate: one rate, or an ascending list (a ladder), each a positive number of requests per second. */
        List<Double> rates() {
            if (!has(RATE)) {
                problems.add("sim.rate is needed with sim.injection=open: requests per second (e.g. 500), or an ascending list "
                        + "for a ladder of levels (e.g. 100,200,400)");
                return List.of();
            }
            String v = p.getProperty(RATE).trim();
            List<Double> rates = new ArrayList<>();
            for (String part : v.split(",", -1)) {
                double rate;
                try {
                    rate = Double.parseDouble(part.trim());
                }
                catch (NumberFormatException e) {
                    rate = Double.NaN;
                }
                if (!(rate > 0 && rate <= MAX_RATE)) {
                    problems.add("sim.rate=%s: '%s' is not a positive number of requests per second; allowed: a number above 0 and up to %,.0f, or an ascending comma-separated list of them"
                            .formatted(v, part.trim(), MAX_RATE));
                    return List.of();
                }
                if (!rates.isEmpty() && rate <= rates.get(rates.size() - 1)) {
                    problems.add("sim.rate=%s: the levels of a ladder must rise (%s after %s); allowed: an ascending list"
                            .formatted(v, part.trim(), rate(rates.get(rates.size() - 1))));
                    return List.of();
                }
                rates.add(rate);
            }
            if (rates.size() > MAX_LEVELS) {
                problems.add("sim.rate=%s: %d levels; allowed: at most %d".formatted(v, rates.size(), MAX_LEVELS));
            }
            return List.copyOf(rates);
        }

        /**
         * sim.injectors, sim.injector.index and sim.start.at: which share of the users (closed) or of each rate (open) this
         * process starts, and when.
         */
        InjectorSplit split(Injection injection, int users, List<Double> rates) {
            int injectors = integer(INJECTORS, 1, MAX_INJECTORS);
            int index = integer(INJECTOR_INDEX, 0, MAX_INJECTORS - 1);
            if (index >= injectors) {
                problems.add("%s=%d is outside 0..%d for %s=%d; allowed: 0 to %s - 1 (each injector its own index)"
                        .formatted(INJECTOR_INDEX, index, injectors - 1, INJECTORS, injectors, INJECTORS));
                return InjectorSplit.ALONE;
            }
            if (injectors > 1 && injection == Injection.OPEN) {
                for (double rate : rates) {
                    if (!InjectorSplit.divisible(rate, injectors)) {
                        problems.add(("sim.rate=%s over %s=%d does not split into equal shares of whole thousandths of a request per "
                                + "second; allowed: a multiple of 0.001 of at least %s (0.001 for each injector)")
                                .formatted(rate(rate), INJECTORS, injectors, rate(injectors / 1000.0)));
                        break;
                    }
                }
            }
            if (injectors > 1 && injection == Injection.CLOSED && users < injectors) {
                problems.add("sim.users=%d over %s=%d leaves an injector without a user; allowed: at least one user per injector"
                        .formatted(users, INJECTORS, injectors));
            }
            Optional<Instant> startAt = Optional.empty();
            if (has(START_AT)) {
                String v = p.getProperty(START_AT).trim();
                try {
                    Instant at = Instant.ofEpochMilli(Long.parseLong(v));
                    if (at.isAfter(Instant.now().plus(MAX_START_AHEAD))) {
                        problems.add("%s=%s is %,d minutes ahead; allowed: epoch milliseconds at most %d minutes ahead (a start in the past starts at once)"
                                .formatted(START_AT, v, Duration.between(Instant.now(), at).toMinutes(), MAX_START_AHEAD.toMinutes()));
                    }
                    startAt = Optional.of(at);
                }
                catch (NumberFormatException e) {
                    problems.add("%s=%s is not a time; allowed: epoch milliseconds (e.g. %d)".formatted(START_AT, v,
                            System.currentTimeMillis() + 30_000));
                }
            }
            return new InjectorSplit(injectors, Math.min(index, injectors - 1), startAt);
        }

        ConnectionMode connectionMode() {
            String v = value(CONNECTIONS);
            for (ConnectionMode m : ConnectionMode.values()) {
                if (m.id().equals(v)) {
                    return m;
                }
            }
            problems.add("sim.connections=%s is unknown; allowed: auto, per-user or shared".formatted(v));
            return ConnectionMode.AUTO;
        }

        String baseUrl() {
            String url;
            if (has(TARGET)) {
                String target = p.getProperty(TARGET).trim();
                url = TARGETS.get(target);
                if (url == null) {
                    problems.add("target=%s is unknown; allowed: mvc (%s) or webflux (%s), or set base.url instead"
                            .formatted(target, TARGETS.get("mvc"), TARGETS.get("webflux")));
                    return NAMES.get(BASE_URL);
                }
                if (has(BASE_URL) && !p.getProperty(BASE_URL).trim().equals(url)) {
                    problems.add("target=%s and base.url=%s disagree; allowed: set one of them"
                            .formatted(target, p.getProperty(BASE_URL).trim()));
                }
                return url;
            }
            return url(BASE_URL, value(BASE_URL));
        }

        String url(String name, String url) {
            try {
                URI uri = new URI(url);
                if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null
                        && (uri.getPath() == null || uri.getPath().isEmpty() || uri.getPath().equals("/"))) {
                    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
                }
            }
            catch (URISyntaxException ignored) {
                // reported below
            }
            problems.add("%s=%s is not a URL of a server; allowed: http(s)://host[:port], e.g. http://localhost:8092 (a path goes in test.path)"
                    .formatted(name, url));
            return NAMES.get(BASE_URL);
        }
    }
}
