package dev.latencylab.lab.targets;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The targets that wait on a dependency instead of on /hello (their ids: Target.DependencyId): the base target, its
 * connection pool to PostgreSQL (-db) or to a downstream service (-http), PostgreSQL's own max_connections (-pg), an
 * old JDBC driver (-jdbc425), HTTP/2 to the downstream (-h2c); each with the T the model counts.
 */
final class DependencyTargets {

    /** The WebFlux target's switch for HTTP/2 to its downstream (hello-contract's Downstream.HTTP2_PROPERTY). */
    static final String DOWNSTREAM_HTTP2 = "downstream.http2";
    /** PostgreSQL's JDBC driver before 42.6: QueryExecutorImpl.execute is synchronized, so a query pins a virtual thread's carrier. */
    static final String LEGACY_JDBC_DRIVER = "42.5.6";
    /** HikariCP's and Boot's r2dbc-pool default. */
    static final int DEFAULT_CONNECTION_POOL = 10;
    /** Apache HttpClient 5's default per host (the downstream is one): MVC's RestClient pool unless set. */
    static final int HTTPCLIENT5_DEFAULT_PER_ROUTE = 5;
    /** The smallest max_connections -pg accepts: PostgreSQL needs more than its 3 superuser_reserved_connections. */
    static final int MIN_DATABASE_CONNECTIONS = 5;
    static final String DATABASE_PATH = "db/{latency}";
    static final String DOWNSTREAM_PATH = "http/{latency}";
    /**
     * The streams the downstream service of an -h2c target runs at once on a connection (its SETTINGS_MAX_CONCURRENT_STREAMS,
     * set by the lab): with the client's connections, the pool the model counts over HTTP/2.
     */
    static final int DOWNSTREAM_STREAMS = 100;

    private DependencyTargets() {
    }

    /** The target an id of this form names: its base target on its dependency, with the settings the id adds. */
    static Target of(String id, Target.DependencyId d) {
        Target onIt = onDependency(id, Target.parse(d.base()), d.database(), d.connections(), d.serverMax());
        onIt = d.legacyDriver() ? onLegacyDriver(onIt) : onIt;
        return d.h2c() ? overHttp2(onIt) : onIt;
    }

    /**
     * The base target loaded on /db or /http: the connection pool bounds the waits with the thread pool, so the model's
     * T is min(threads, connections) (connections alone for virtual threads and WebFlux). Without -p the pool is the
     * library's default: 10 for both database pools; for HTTP, 5 (HttpClient 5, per host) and 2 × max(cores, 8)
     * (Reactor Netty), left unset so that the target runs with the library's own. A PostgreSQL started with fewer
     * max_connections than the pool holds bounds T too: the pool cannot open more.
     */
    private static Target onDependency(String id, Target base, boolean database, String connections, String serverMax) {
        if (!base.pathTemplate().equals(Target.HELLO_PATH) || base.properties().keySet().stream().anyMatch(Target.UNCAPPED::containsKey)) {
            throw new IllegalArgumentException("target " + id + ": -" + (database ? "db" : "http")
                    + " builds on mvc-t<threads>, mvc-virtual or webflux, not on " + base.id());
        }
        Integer given = connections == null ? null : Target.count(id, connections, "connections");
        if (given != null && given < 1) {
            throw new IllegalArgumentException("target " + id + ": a connection pool needs at least 1 connection");
        }
        Integer maxConnections = serverMax == null ? null : Target.count(id, serverMax, "max_connections");
        if (maxConnections != null && !database) {
            throw new IllegalArgumentException("target " + id + ": -pg<max_connections> sets PostgreSQL's, only for -db targets");
        }
        if (maxConnections != null && maxConnections < MIN_DATABASE_CONNECTIONS) {
            throw new IllegalArgumentException("target " + id + ": PostgreSQL needs max_connections of at least "
                    + MIN_DATABASE_CONNECTIONS + " (it does not start with max_connections at or below its 3 superuser_reserved_connections)");
        }
        Map<String, String> p = new LinkedHashMap<>(base.properties());
        int pool;
        if (database) {
            pool = given == null ? DEFAULT_CONNECTION_POOL : given;
            p.put(base.isMvc() ? "spring.datasource.hikari.maximum-pool-size" : "spring.r2dbc.pool.max-size", String.valueOf(pool));
            p.put(base.isMvc() ? "management.health.db.enabled" : "management.health.r2dbc.enabled", "true");
        }
        else {
            pool = given != null ? given : base.isMvc() ? HTTPCLIENT5_DEFAULT_PER_ROUTE : reactorNettyDefaultConnections();
            if (given != null) {
                p.put("downstream.max-connections", String.valueOf(given));
            }
            p.put("management.health.downstream.enabled", "true");
        }
        int bound = base.poolThreads() == 0 ? pool : Math.min(base.poolThreads(), pool);
        if (maxConnections != null) {
            bound = Math.min(bound, maxConnections);
        }
        return new Target(id, base.module(), p, database ? DATABASE_PATH : DOWNSTREAM_PATH, bound,
                maxConnections == null ? 0 : maxConnections);
    }

    /**
     * An http target calling its downstream over HTTP/2 in clear text: WebFlux's Reactor Netty carries up to
     * DOWNSTREAM_STREAMS requests at once on each of its pool's connections, so the model's pool is connections ×
     * streams; MVC's JDK HttpClient opens one connection to the host (no pool to size: -p refused), so its pool is
     * DOWNSTREAM_STREAMS, or its threads where fewer.
     */
    private static Target overHttp2(Target http) {
        if (!http.needsDownstream()) {
            throw new IllegalArgumentException("target " + http.id() + ": -h2c is HTTP/2 to the downstream service, for http targets");
        }
        if (http.isMvc() && http.properties().containsKey("downstream.max-connections")) {
            throw new IllegalArgumentException("target " + http.id() + ": -p with -h2c on MVC: over HTTP/2 it calls with the JDK's HttpClient, "
                    + "one connection to the host and no pool to size; drop -p<connections>");
        }
        Map<String, String> p = new LinkedHashMap<>(http.properties());
        p.put(DOWNSTREAM_HTTP2, "true");
        // WebFlux's T on HTTP/1.1 is its pool's connections; MVC's threads (none on virtual threads) bound it beside the streams
        String threads = http.properties().get("server.tomcat.threads.max");
        int pool = http.isMvc() ? DOWNSTREAM_STREAMS : http.poolThreads() * DOWNSTREAM_STREAMS;
        return new Target(http.id(), http.module(), p, http.pathTemplate(), threads == null ? pool : Math.min(Integer.parseInt(threads), pool),
                http.databaseMaxConnections());
    }

    /**
     * A db target of Spring MVC on PostgreSQL's JDBC driver 42.5.6: every query inside a synchronized method, so on
     * virtual threads before JDK 24 each query pins its carrier, and the carriers bound it with the connections.
     */
    private static Target onLegacyDriver(Target db) {
        if (!db.isMvc() || !db.needsDatabase()) {
            throw new IllegalArgumentException("target " + db.id() + ": -jdbc425 is a JDBC driver: for mvc-t<threads>-db or mvc-virtual-db");
        }
        Map<String, String> p = new LinkedHashMap<>(db.properties());
        p.put(Target.JDBC_DRIVER, LEGACY_JDBC_DRIVER);
        boolean virtual = "true".equals(p.get("spring.threads.virtual.enabled"));
        return new Target(db.id(), db.module(), p, db.pathTemplate(), db.poolThreads(), db.databaseMaxConnections(), virtual ? new Target.Pinning(0) : null);
    }

    /** Reactor Netty's default pool size on this machine (the target runs here): 2 × max(cores, 8). */
    static int reactorNettyDefaultConnections() {
        return 2 * Math.max(Runtime.getRuntime().availableProcessors(), 8);
    }
}
