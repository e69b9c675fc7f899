package dev.latencylab.load.settings;

import static dev.latencylab.load.settings.SimulationProperties.NAMES;
import static dev.latencylab.load.settings.SimulationSettings.*;

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

import org.apache.commons.text.similarity.LevenshteinDistance;

/**
 * The parser of the simulation's properties: reads and checks them, collecting every problem instead of stopping at the
 * first, and makes the settings (SimulationSettings.from).
 */
final class SettingsReader {
    final Properties p;
    final List<String> problems = new ArrayList<>();

    SettingsReader(Properties p) {
        this.p = p;
    }

    /** The settings these properties give, or every problem with them (InvalidSettingsException). */
    static SimulationSettings settings(Properties p) {
        SettingsReader r = new SettingsReader(p);
        r.unknownNames();
        Injection injection = r.injection();
        r.otherModelsNames(injection);
        int users = r.integer(USERS, 1, Integer.MAX_VALUE);
        String baseUrl = r.baseUrl();
        String metricsUrl = r.has(METRICS_URL) ? r.url(METRICS_URL, p.getProperty(METRICS_URL).trim()) : TargetPorts.managementUrl(baseUrl);
        RequestMix mix = r.mix();
        boolean http2 = r.bool(HTTP2);
        if (http2 && !baseUrl.startsWith("https:")) {
            r.problems.add("%s=true needs an https base.url (HTTP/2 is chosen by ALPN over TLS; h2c is not offered), not %s".formatted(HTTP2, baseUrl));
        }
        Pacing pacing = r.pacing();
        ConnectionMode connections = r.connectionMode();
        OptionalInt modelThreads = r.has(MODEL_THREADS)
                ? OptionalInt.of(r.integer(MODEL_THREADS, 1, 1_000_000)) : OptionalInt.empty();
        Optional<Path> resultFile = Optional.ofNullable(p.getProperty(RESULT_FILE)).filter(s -> !s.isBlank()).map(Path::of);
        Assertions assertions = r.assertions();
        boolean sample = r.bool(SAMPLE_SERVER);
        OptionalLong targetPid = r.has(TARGET_PID) ? OptionalLong.of(r.integer(TARGET_PID, 1, Integer.MAX_VALUE)) : OptionalLong.empty();
        Load load = injection == Injection.OPEN ? r.openLoad(mix.firstPath())
                : new Load(injection, List.of(), Duration.ofSeconds(Integer.parseInt(NAMES.get(LEVEL_SECONDS))), Arrivals.UNIFORM,
                        OptionalLong.empty(), 0, false);
        InjectorSplit split = r.split(injection, users, load.rates());
        if (!r.problems.isEmpty()) {
            throw new InvalidSettingsException(r.problems);
        }
        // the open model's requests share connections whatever sim.connections says
        return new SimulationSettings(users, new Endpoint(baseUrl, metricsUrl, mix.firstPath(), mix, http2), pacing,
                injection == Injection.OPEN ? ConnectionMode.SHARED : connections, modelThreads, resultFile, assertions,
                new Watch(sample, targetPid, r.bool(LIVE)), load, split);
    }

    /** The properties of the other model than the one given, each a problem: they would be silently ignored. */
    private void otherModelsNames(Injection injection) {
        for (String name : injection == Injection.OPEN ? CLOSED_ONLY : OPEN_ONLY) {
            if (has(name)) {
                problems.add(injection == Injection.OPEN
                        ? "%s is a property of the closed model (users that wait for their answers); the open model (sim.injection=open) sends sim.rate requests per second on shared connections: remove it"
                                .formatted(name)
                        : "%s is a property of the open model; add -Dsim.injection=open, or remove it".formatted(name));
            }
        }
    }

    /** The ramp, requests per user and think time (min <= max). */
    private Pacing pacing() {
        int rampSeconds = integer(RAMP_SECONDS, 1, 86_400);
        int repeat = integer(REPEAT, 1, 1_000_000);
        int thinkMin = integer(THINK_MIN_MS, 0, 3_600_000);
        int thinkMax = integer(THINK_MAX_MS, 0, 3_600_000);
        if (thinkMin > thinkMax && problems.isEmpty()) {
            problems.add("sim.think.min.ms=%d is above sim.think.max.ms=%d; allowed: min <= max".formatted(thinkMin, thinkMax));
        }
        return new Pacing(Duration.ofSeconds(rampSeconds), repeat, Duration.ofMillis(thinkMin), Duration.ofMillis(thinkMax));
    }

    /** Gatling's assertions the run must meet: p95, p99 and KO, each when given. */
    private Assertions assertions() {
        OptionalLong p95 = has(ASSERT_P95_MS) ? OptionalLong.of(integer(ASSERT_P95_MS, 1, Integer.MAX_VALUE)) : OptionalLong.empty();
        OptionalLong p99 = has(ASSERT_P99_MS) ? OptionalLong.of(integer(ASSERT_P99_MS, 1, Integer.MAX_VALUE)) : OptionalLong.empty();
        OptionalDouble ko = has(ASSERT_KO_PERCENT) ? OptionalDouble.of(percent(ASSERT_KO_PERCENT)) : OptionalDouble.empty();
        return new Assertions(p95, p99, ko);
    }

    /**
     * The open model's load: its rates (each planning at least one arrival in its level), arrivals, and SLO (given, or
     * the path's latency + SLO_MARGIN_MS).
     */
    private Load openLoad(String path) {
        List<Double> rates = rates();
        int levelSeconds = integer(LEVEL_SECONDS, MIN_LEVEL_SECONDS, 86_400);
        for (double rate : rates) {
            if (rate * levelSeconds < 1) {
                problems.add(("sim.rate=%s held for sim.level.seconds=%d plans no arrival (rate x seconds < 1); give at least "
                        + "%s req/s, or a longer level").formatted(rate(rate), levelSeconds, rate(Math.ceil(1000.0 / levelSeconds) / 1000)));
                break;
            }
        }
        Arrivals arrivals = arrivals();
        Matcher latency = LATENCY_IN_PATH.matcher(path);
        OptionalLong slo = OptionalLong.empty();
        if (has(SLO_P99_MS)) {
            slo = OptionalLong.of(integer(SLO_P99_MS, 1, Integer.MAX_VALUE));
        }
        else if (latency.matches()) {
            slo = OptionalLong.of(Long.parseLong(latency.group(1)) + SLO_MARGIN_MS);
        }
        else {
            problems.add("sim.slo.p99.ms is needed: test.path=%s names no latency to derive it from (latency + %d ms)"
                    .formatted(path, SLO_MARGIN_MS));
        }
        double sloKo = percent(SLO_KO_PERCENT);
        return new Load(Injection.OPEN, rates, Duration.ofSeconds(levelSeconds), arrivals, slo, sloKo, bool(STOP_ON_SLO_MISS));
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
        return oneOf(INJECTION, Injection.values(), Injection::id, Injection.CLOSED,
                "closed (users that wait for their answers) or open (a rate of arrivals)");
    }

    Arrivals arrivals() {
        return oneOf(ARRIVALS, Arrivals.values(), Arrivals::id, Arrivals.UNIFORM, "uniform or poisson");
    }

    /** A property that takes one of an enum's ids: the constant of the value given; else a problem, and the fallback. */
    private <E extends Enum<E>> E oneOf(String name, E[] values, java.util.function.Function<E, String> id, E fallback, String allowed) {
        String v = value(name);
        for (E e : values) {
            if (id.apply(e).equals(v)) {
                return e;
            }
        }
        problems.add("%s=%s is unknown; allowed: %s".formatted(name, v, allowed));
        return fallback;
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
                problems.add(
                        "sim.rate=%s: '%s' is not a positive number of requests per second; allowed: a number above 0 and up to %,.0f, or an ascending comma-separated list of them"
                                .formatted(v, part.trim(), MAX_RATE));
                return List.of();
            }
            if (!rates.isEmpty() && rate <= rates.getLast()) {
                problems.add("sim.rate=%s: the levels of a ladder must rise (%s after %s); allowed: an ascending list"
                        .formatted(v, part.trim(), rate(rates.getLast())));
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
        return oneOf(CONNECTIONS, ConnectionMode.values(), ConnectionMode::id, ConnectionMode.AUTO, "auto, per-user or shared");
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
