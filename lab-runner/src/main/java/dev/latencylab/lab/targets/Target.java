package dev.latencylab.lab.targets;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.latencylab.load.result.Result;
import dev.latencylab.load.settings.TargetPorts;
import dev.latencylab.load.tls.Protocol;

/**
 * A target of a run or sweep point: which service, started with which settings, loaded on which path. The id is
 * used everywhere: command line, folder names, legends.
 *
 * @param id           e.g. mvc-t200, mvc-virtual, webflux
 * @param module       the Maven module whose jar is started
 * @param properties   Spring properties passed as --name=value
 * @param pathTemplate the path loaded, {latency} replaced by the point's latency
 * @param poolThreads  T for the model when a bounded pool serves requests, else 0
 * @param databaseMaxConnections PostgreSQL's max_connections the lab starts its database with (-pg<M>), else 0 (the
 *                     server's default)
 * @param pinning      for a workload that waits inside a monitor on virtual threads (mvc-virtual-pinned), its carriers;
 *                     else null
 * @param protocol     what the load speaks to it: h1, or over TLS with a certificate made for the run (-tls, -h2)
 */
public record Target(String id, String module, Map<String, String> properties, String pathTemplate, int poolThreads,
        int databaseMaxConnections, Pinning pinning, Protocol protocol) {

    public Target(String id, String module, Map<String, String> properties, String pathTemplate, int poolThreads) {
        this(id, module, properties, pathTemplate, poolThreads, 0, null, Protocol.H1);
    }

    public Target(String id, String module, Map<String, String> properties, String pathTemplate, int poolThreads,
            int databaseMaxConnections) {
        this(id, module, properties, pathTemplate, poolThreads, databaseMaxConnections, null, Protocol.H1);
    }

    Target(String id, String module, Map<String, String> properties, String pathTemplate, int poolThreads,
            int databaseMaxConnections, Pinning pinning) {
        this(id, module, properties, pathTemplate, poolThreads, databaseMaxConnections, pinning, Protocol.H1);
    }

    /**
     * Virtual threads that wait inside synchronized: before JDK 24 (JEP 491) each wait pins its carrier thread, so the
     * carriers are the pool: T = C (the carriers), goodput at most C/L. From JDK 24 on a waiting virtual thread releases its carrier.
     *
     * @param parallelism the carriers the id sets (-c<P>: jdk.virtualThreadScheduler.parallelism); 0: the JVM's
     *                    default, the cores it sees
     */
    public record Pinning(int parallelism) {

        /** The first JDK whose virtual threads release their carrier while they wait inside a monitor (JEP 491). */
        public static final int UNPINNED_SINCE = 24;
        /** The JVM's system property that sets the virtual threads' carriers. */
        public static final String PARALLELISM = "jdk.virtualThreadScheduler.parallelism";

        /** The carriers: as set, or the cores of this machine (the target runs here). */
        public int carriers() {
            return parallelism > 0 ? parallelism : Runtime.getRuntime().availableProcessors();
        }
    }

    /** The Maven modules (and jar names) of the two services. */
    public static final String MVC_MODULE = "mvc-with-latency";
    public static final String WEBFLUX_MODULE = "webflux-with-latency";
    /** The module a result file names for a service of the user's (./lab run --url): none of the lab's, never parsed as a target id. */
    public static final String SERVICE_MODULE = "service";
    /**
     * Tomcat's connection cap, lifted for the -uncapped targets: far above what the open-files limit (20,000) lets a
     * process hold. (Spring Boot ignores -1 here and keeps Tomcat's 8192.)
     */
    static final Map<String, String> UNCAPPED = Map.of("server.tomcat.max-connections", "100000", "server.tomcat.accept-count", "10000");
    private static final Pattern MVC_POOL = Pattern.compile("mvc-t([0-9]+)(-uncapped)?");
    private static final Pattern PINNED = Pattern.compile("mvc-virtual-pinned(?:-c([0-9]+))?");
    /**
     * Any target over TLS: HTTP/1.1 (-tls) or HTTP/2 by ALPN (-h2), with a certificate made for the run; on MVC over
     * HTTP/2, -s<streams> sets how many streams of a connection Tomcat runs at once.
     */
    private static final Pattern OVER_TLS = Pattern.compile("(.+)-(tls|h2)(?:-s([0-9]+))?");
    /** The MVC target's setting of Tomcat's streams run at once on a connection (its Http2Streams; Tomcat's default 20). */
    public static final String HTTP2_STREAM_EXECUTION = "latency-lab.http2.max-concurrent-stream-execution";
    /** Both targets' setting of the streams a client may open at once on a connection (their Http2Streams). */
    static final String HTTP2_MAX_STREAMS = "latency-lab.http2.max-concurrent-streams";
    /** The streams a client may open at once on a connection, Tomcat's maxConcurrentStreams: no more than these can run. */
    static final int TOMCAT_MAX_STREAMS = 100;
    /** Spring Boot's switch for HTTP/2 (by ALPN, over TLS), in Tomcat and in Reactor Netty alike. */
    public static final String HTTP2 = "server.http2.enabled";
    /**
     * A target that waits on a dependency instead of on /hello, through its stack's connection pool (-p<size>): in
     * PostgreSQL on /db, in a downstream service on /http; a db target may also set PostgreSQL's max_connections
     * (-pg<M>), the server's own bound on every pool.
     */
    private static final Pattern DEPENDENCY = Pattern.compile("(.+)-(db|http)(?:-p([0-9]+))?(?:-pg([0-9]+))?(-jdbc425)?(-h2c)?");
    /**
     * The Spring property a -jdbc425 target records (the target ignores it): the PostgreSQL JDBC driver it runs with,
     * put before its own on its class path (TargetProcess).
     */
    public static final String JDBC_DRIVER = "latency-lab.jdbc-driver";
    static final String HELLO_PATH = "hello/{latency}";
    private static final String PINNED_PATH = "pinned/{latency}";

    /**
     * A db or http target's id as written: its base target's id, /db or /http, and the settings it names (null: the
     * default), -p<connections> and -pg<max_connections>. Parsed here alone, for targets and for the pages' styles.
     */
    public record DependencyId(String base, boolean database, String connections, String serverMax, boolean legacyDriver, boolean h2c) {

        public static Optional<DependencyId> of(String id) {
            Matcher m = DEPENDENCY.matcher(id);
            return m.matches() ? Optional.of(new DependencyId(m.group(1), m.group(2).equals("db"), m.group(3), m.group(4), m.group(5) != null,
                    m.group(6) != null)) : Optional.empty();
        }
    }

    /**
     * A target id over TLS as written: its base target's id, the protocol (-tls, -h2) and the streams Tomcat runs at
     * once on a connection (-s; null: its default). Parsed here alone, for targets and pages.
     */
    public record TlsId(String base, Protocol protocol, String streams) {

        public static Optional<TlsId> of(String id) {
            Matcher m = OVER_TLS.matcher(id);
            return m.matches() ? Optional.of(new TlsId(m.group(1), m.group(2).equals("h2") ? Protocol.H2 : Protocol.H1_TLS, m.group(3)))
                    : Optional.empty();
        }
    }

    /**
     * A service of the user's as a sweep's target (./lab sweep --url): named as the user named it, loaded on its own
     * path, no pool the lab knows of (the model needs a path that names its latency), started by nothing of the lab's.
     */
    public static Target service(String name, String path) {
        return new Target(name, SERVICE_MODULE, Map.of(), path, 0);
    }

    /** Whether it is a service of the user's, not one of the lab's own targets. */
    public boolean isService() {
        return module.equals(SERVICE_MODULE);
    }

    /** The lab's target an id names, or none: a service of the user's is named as the user likes. */
    public static Optional<Target> known(String id) {
        try {
            return Optional.of(parse(id));
        }
        catch (IllegalArgumentException notOurs) {
            return Optional.empty();
        }
    }

    public static Target parse(String id) {
        Optional<TlsId> tls = TlsId.of(id);
        if (tls.isPresent()) {
            Target base = parse(tls.get().base());
            if (base.protocol.tls()) {
                throw new IllegalArgumentException("target " + id + ": one protocol, -tls or -h2, not both");
            }
            Protocol protocol = tls.get().protocol();
            Map<String, String> p = new LinkedHashMap<>(base.properties);
            if (protocol == Protocol.H2) {
                p.put(HTTP2, "true");
            }
            String suffix = protocol == Protocol.H2 ? "-h2" : "-tls";
            if (tls.get().streams() != null) {
                int streams = count(id, tls.get().streams(), "streams");
                if (protocol != Protocol.H2 || !base.isMvc()) {
                    throw new IllegalArgumentException("target " + id + ": -s<streams> sets Tomcat's HTTP/2 streams run at once: "
                            + "for mvc-...-h2 targets only");
                }
                if (streams < 1 || streams > TOMCAT_MAX_STREAMS) {
                    throw new IllegalArgumentException("target %s: give 1 to %d streams (a client opens at most %d on a connection)"
                            .formatted(id, TOMCAT_MAX_STREAMS, TOMCAT_MAX_STREAMS));
                }
                p.put(HTTP2_STREAM_EXECUTION, String.valueOf(streams));
                suffix += "-s" + streams;
            }
            return new Target(base.id + suffix, base.module, p, base.pathTemplate, base.poolThreads, base.databaseMaxConnections,
                    base.pinning, protocol);
        }
        Optional<DependencyId> dependency = DependencyId.of(id);
        if (dependency.isPresent()) {
            return DependencyTargets.of(id, dependency.get());
        }
        Matcher pool = MVC_POOL.matcher(id);
        if (pool.matches()) {
            int threads = count(id, pool.group(1), "threads");
            if (threads < 1) {
                throw new IllegalArgumentException("target " + id + ": a pool needs at least 1 thread");
            }
            Map<String, String> p = new LinkedHashMap<>();
            p.put("server.tomcat.threads.max", String.valueOf(threads));
            if (pool.group(2) != null) {
                p.putAll(UNCAPPED);
            }
            return new Target(id, MVC_MODULE, p, HELLO_PATH, threads);
        }
        Matcher pinned = PINNED.matcher(id);
        if (pinned.matches()) {
            int carriers = pinned.group(1) == null ? 0 : count(id, pinned.group(1), "carriers");
            if (pinned.group(1) != null && carriers < 1) {
                throw new IllegalArgumentException("target " + id + ": virtual threads need at least 1 carrier thread");
            }
            return new Target(id, MVC_MODULE, Map.of("spring.threads.virtual.enabled", "true"), PINNED_PATH, 0, 0, new Pinning(carriers));
        }
        return switch (id) {
            case "mvc" -> new Target("mvc-t200", MVC_MODULE, Map.of("server.tomcat.threads.max", "200"), HELLO_PATH, 200);
            case "mvc-virtual" -> new Target(id, MVC_MODULE, Map.of("spring.threads.virtual.enabled", "true"), HELLO_PATH, 0);
            case "mvc-virtual-uncapped" -> {
                Map<String, String> p = new LinkedHashMap<>(UNCAPPED);
                p.put("spring.threads.virtual.enabled", "true");
                yield new Target(id, MVC_MODULE, p, HELLO_PATH, 0);
            }
            case "webflux" -> new Target(id, WEBFLUX_MODULE, Map.of(), HELLO_PATH, 0);
            case "webflux-block-parallel" -> new Target(id, WEBFLUX_MODULE, Map.of(), "block/{latency}?scheduler=parallel", 0);
            case "webflux-block-elastic" -> new Target(id, WEBFLUX_MODULE, Map.of(), "block/{latency}?scheduler=bounded-elastic", 0);
            default -> throw new IllegalArgumentException("unknown target '" + id + "'; known: " + TargetIds.known());
        };
    }

    /** Whether the target calls its downstream over HTTP/2 (-h2c): the lab then starts the downstream to speak it. */
    public boolean downstreamOverHttp2() {
        return "true".equals(properties.get(DependencyTargets.DOWNSTREAM_HTTP2));
    }

    /** The downstream service's own settings: HTTP/2 in clear text and its streams at once, for an -h2c target. */
    public Map<String, String> downstreamServerProperties() {
        return downstreamOverHttp2() ? Map.of(HTTP2, "true", HTTP2_MAX_STREAMS, String.valueOf(DependencyTargets.DOWNSTREAM_STREAMS))
                : Map.of();
    }

    /** The jars put before the target's own on its class path: the JDBC driver a -jdbc425 target runs with; none for others. */
    public List<java.nio.file.Path> classpathFirst(java.nio.file.Path repo) {
        String driver = properties.get(JDBC_DRIVER);
        return driver == null ? List.of() : List.of(repo.resolve(MVC_MODULE).resolve("target").resolve("drivers").resolve("postgresql-" + driver + ".jar"));
    }

    /** The most threads or connections an id may name: far beyond what this machine can hold, short of overflow. */
    static final int MAX_COUNT = 100_000;

    /** A count written in an id (digits only, by the patterns), refused above {@link #MAX_COUNT}. */
    static int count(String id, String digits, String what) {
        if (digits.length() > 6 || Integer.parseInt(digits) > MAX_COUNT) {
            throw new IllegalArgumentException("target %s: %s %s; give at most %,d".formatted(id, digits, what, MAX_COUNT));
        }
        return Integer.parseInt(digits);
    }

    /**
     * This target on a JDK of that feature version: where its waits pin their carriers there (before JDK
     * {@value Pinning#UNPINNED_SINCE}), the carriers are the model's T; elsewhere the same target.
     */
    public Target onJdk(int feature) {
        if (pinning == null || feature >= Pinning.UNPINNED_SINCE) {
            return this;
        }
        // its pinned waits hold their carriers: the carriers bound it, and a pool it waits on besides
        int pinned = poolThreads == 0 ? pinning.carriers() : Math.min(poolThreads, pinning.carriers());
        return new Target(id, module, properties, pathTemplate, pinned, databaseMaxConnections, pinning, protocol);
    }

    /** The model's T of a target with that id, in words: "a pool of 200", or the carriers its waits pin: "2 carrier threads, pinned". */
    public static String poolOf(String id, int threads) {
        Target t = known(id).orElse(null);
        return t != null && t.pinnedAt(threads) ? "%d carrier thread%s, pinned".formatted(threads, threads == 1 ? "" : "s")
                : "a pool of %d".formatted(threads);
    }

    /** Whether a T of so many is its carriers, pinned: it pins them, and T is not its connection pool's size. */
    public boolean pinnedAt(int threads) {
        return pinning != null && (!needsDatabase() || threads != Integer.parseInt(properties.get("spring.datasource.hikari.maximum-pool-size")));
    }

    /** The JVM options the id stands for (the carriers of -c), beside the Spring properties. */
    public List<String> jvmOptions() {
        return pinning == null || pinning.parallelism() == 0 ? List.of()
                : List.of("-D" + Pinning.PARALLELISM + "=" + pinning.parallelism());
    }

    /** What a result file records of the target: its id, module and the settings the id stands for (JVM options too). */
    public Result.TargetSettings settings() {
        if (pinning == null || pinning.parallelism() == 0) {
            return new Result.TargetSettings(id, module, properties);
        }
        Map<String, String> with = new LinkedHashMap<>(properties);
        with.put(Pinning.PARALLELISM, String.valueOf(pinning.parallelism()));
        return new Result.TargetSettings(id, module, with);
    }

    /** Whether the target needs a PostgreSQL: it loads /db. */
    public boolean needsDatabase() {
        return pathTemplate.equals(DependencyTargets.DATABASE_PATH);
    }

    /** Whether the target needs a downstream service: it loads /http. */
    public boolean needsDownstream() {
        return pathTemplate.equals(DependencyTargets.DOWNSTREAM_PATH);
    }

    /** Where the target finds the downstream service the lab started. */
    public static Map<String, String> downstreamProperties(String baseUrl) {
        return Map.of("downstream.url", baseUrl);
    }

    /** Where the target's stack finds the database (JDBC for MVC, R2DBC for WebFlux). */
    public Map<String, String> databaseProperties(int databasePort) {
        String hostAndDatabase = "postgresql://127.0.0.1:" + databasePort + "/postgres";
        return isMvc() ? Map.of("spring.datasource.url", "jdbc:" + hostAndDatabase) : Map.of("spring.r2dbc.url", "r2dbc:" + hostAndDatabase);
    }

    public static List<Target> parseAll(List<String> ids) {
        List<Target> targets = new ArrayList<>();
        for (String id : ids) {
            targets.add(parse(id.trim()));
        }
        return targets;
    }

    public String path(long latencyMs) {
        return pathTemplate.replace("{latency}", String.valueOf(latencyMs));
    }

    public int defaultPort() {
        return isMvc() ? TargetPorts.MVC : TargetPorts.WEBFLUX;
    }

    public boolean isMvc() {
        return module.equals(MVC_MODULE);
    }

    /** Whether it waits on /hello itself, not on a dependency or inside the reactive chain. */
    public boolean waitsOnHello() {
        return pathTemplate.equals(HELLO_PATH);
    }

    /** The most connections Tomcat holds open at once (server.tomcat.max-connections; mvc-with-latency's default 8192); null for WebFlux. */
    public Integer connectionCap() {
        return isMvc() ? Integer.valueOf(properties.getOrDefault("server.tomcat.max-connections", TOMCAT_MAX_CONNECTIONS)) : null;
    }

    /** mvc-with-latency's application.properties sets it (Tomcat's own default too). */
    private static final String TOMCAT_MAX_CONNECTIONS = "8192";

    /** Tomcat's settings that bound connections, as the page and CSV record them ("" for WebFlux). */
    public String connectionSettings() {
        if (!isMvc()) {
            return "";
        }
        return "max-connections=%s accept-count=%s".formatted(connectionCap(),
                properties.getOrDefault("server.tomcat.accept-count", "100"));
    }
}
