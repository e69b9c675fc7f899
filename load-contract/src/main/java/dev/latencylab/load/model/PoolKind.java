package dev.latencylab.load.model;

import java.util.Arrays;
import java.util.Locale;

import dev.latencylab.load.result.Result;

/**
 * The pools the lab reads from a server's metrics (sample/ServicePools), by the names its files and pages give them,
 * and what each pools: one name for the sampler that reads them and the runner that draws them as bounds.
 */
public enum PoolKind {

    TOMCAT_THREADS("Tomcat's threads", "threads"),
    TOMCAT_CONNECTIONS("Tomcat's connections", "connections"),
    JETTY_THREADS("Jetty's threads", "threads"),
    TOMCAT_STREAMS("Tomcat's HTTP/2 streams", "streams"),
    HIKARI("HikariCP", "connections"),
    R2DBC("r2dbc-pool", "connections"),
    HTTPCLIENT5("Apache HttpClient 5", "connections"),
    REACTOR_NETTY("Reactor Netty", "connections");

    private final String label;
    private final String unit;

    PoolKind(String label, String unit) {
        this.label = label;
        this.unit = unit;
    }

    /** The pool's name in result files and on pages, e.g. "Tomcat's threads". */
    public String label() {
        return label;
    }

    /** What it pools: threads or connections. */
    public String unit() {
        return unit;
    }

    /**
     * Whether one of this pool is held by a client for as long as it keeps its connection (Tomcat's connections: with a
     * connection per user, for a user's requests and think times), not for one request.
     */
    public static boolean heldByClients(String pool) {
        return TOMCAT_CONNECTIONS.label.equals(pool);
    }

    /**
     * A pool whose size the user gave (./lab --pool NAME=SIZE): named as the lab names it where NAME is one of the pools
     * it reads (e.g. tomcat-threads, Tomcat's threads, hikaricp; case, spaces and signs aside), else as given.
     */
    public static Result.GivenPool given(String name, double size) {
        return Arrays.stream(values()).filter(k -> plain(k.label).equals(plain(name))).findFirst()
                .map(k -> new Result.GivenPool(k.label, k.unit, size)).orElse(new Result.GivenPool(name.strip(), null, size));
    }

    private static String plain(String name) {
        return name.toLowerCase(Locale.ROOT).replace("'s", "").replaceAll("[^a-z0-9]", "");
    }
}
