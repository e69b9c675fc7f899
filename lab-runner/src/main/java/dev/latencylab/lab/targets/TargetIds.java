package dev.latencylab.lab.targets;

import java.util.List;

/**
 * The forms of target id a user writes, each with an example (TargetTest parses each), the server it starts and what
 * bounds it in the model: ./lab run --help lists them and the docs' targets table is written from them.
 */
public final class TargetIds {

    private TargetIds() {
    }

    /**
     * A form of target id as a user writes it: an example (a test parses each), the server it starts and what bounds
     * it in the model. ./lab run --help lists them and docs/running.md's table is written from them.
     */
    public record IdForm(String form, String example, String starts, String bound) {
    }

    public static final List<IdForm> IDS = List.of(
            new IdForm("mvc-t<threads>", "mvc-t400", "Spring MVC on Tomcat with a pool of <threads> platform threads "
                    + "(server.tomcat.threads.max); `mvc` is mvc-t200, Boot's default", "T = <threads>: T/L"),
            new IdForm("mvc-virtual", "mvc-virtual", "Spring MVC on Tomcat, every request on a virtual thread "
                    + "(spring.threads.virtual.enabled)", "no pool: the offered load, then Tomcat's connection cap"),
            new IdForm("mvc-t<threads>-uncapped, mvc-virtual-uncapped", "mvc-virtual-uncapped", "Spring MVC as above, with "
                    + "Tomcat's connection cap lifted (max-connections=100000, accept-count=10000)", "as without -uncapped, less the cap"),
            new IdForm("mvc-virtual-pinned, mvc-virtual-pinned-c<carriers>", "mvc-virtual-pinned-c1", "Spring MVC on virtual threads, "
                    + "as mvc-virtual, loading /pinned/{latency}: the wait inside synchronized, as legacy drivers and clients do; -c sets the carrier "
                    + "threads (" + Target.Pinning.PARALLELISM + ", by default the cores)",
                    "before JDK " + Target.Pinning.UNPINNED_SINCE
                            + ": T = carriers, pinned; from " + Target.Pinning.UNPINNED_SINCE + " on: no pool"),
            new IdForm("webflux", "webflux", "Spring WebFlux on Reactor Netty: the wait completes from a timer, no thread "
                    + "waits", "no pool: the offered load"),
            new IdForm("webflux-block-parallel, webflux-block-elastic", "webflux-block-elastic", "WebFlux with the "
                    + "anti-pattern: Thread.sleep inside the reactive chain on the parallel or bounded-elastic scheduler "
                    + "(/block/{latency})", "the scheduler's threads (not modelled)"),
            new IdForm("<base>-db, <base>-db-p<connections>", "mvc-virtual-db-p50", "<base> (mvc-t<threads>, mvc-virtual "
                    + "or webflux) loading /db/{latency}: SELECT pg_sleep in a PostgreSQL the lab starts, through the "
                    + "stack's pool (HikariCP or r2dbc-pool, 10 connections unless -p)", "T = min(threads, connections)"),
            new IdForm("<base>-db[-p<connections>]-pg<max_connections>", "webflux-db-p50-pg20", "<base>-db as above, "
                    + "PostgreSQL started with max_connections=<max_connections> (at least " + DependencyTargets.MIN_DATABASE_CONNECTIONS + ")",
                    "T = min(threads, connections, max_connections)"),
            new IdForm("<base>-db[-p<connections>]-jdbc425", "mvc-virtual-db-jdbc425", "<base>-db as above (mvc-t<threads> "
                    + "or mvc-virtual), on PostgreSQL's JDBC driver " + DependencyTargets.LEGACY_JDBC_DRIVER + " instead of the build's: its queries run "
                    + "inside synchronized",
                    "T = min(threads, connections); on virtual threads before JDK " + Target.Pinning.UNPINNED_SINCE
                            + ", min(carriers, connections), pinned"),
            new IdForm("<base>-http, <base>-http-p<connections>", "mvc-t200-http", "<base> loading /http/{latency}: a "
                    + "call to a downstream WebFlux service the lab starts, through the stack's HTTP client pool "
                    + "(Apache HttpClient 5: 5 per host; Reactor Netty: 2 × max(cores, 8); unless -p)",
                    "T = min(threads, connections)"),
            new IdForm("webflux-http[-p<connections>]-h2c", "webflux-http-p2-h2c", "WebFlux's http target as above, calling the downstream "
                    + "over HTTP/2 in clear text (h2c): each connection carries up to " + DependencyTargets.DOWNSTREAM_STREAMS + " calls at once "
                    + "(the downstream's SETTINGS_MAX_CONCURRENT_STREAMS, set by the lab)",
                    "T = connections × " + DependencyTargets.DOWNSTREAM_STREAMS),
            new IdForm("mvc-t<threads>-http-h2c, mvc-virtual-http-h2c", "mvc-virtual-http-h2c",
                    "Spring MVC's http target calling the downstream over HTTP/2 in "
                            + "clear text with the JDK's HttpClient (HttpClient 5's classic client speaks HTTP/1.1 alone): one connection, "
                            + "h2c by upgrade; a call past its " + DependencyTargets.DOWNSTREAM_STREAMS + " streams fails at once (JDK-8225647)",
                    "T = min(threads, " + DependencyTargets.DOWNSTREAM_STREAMS + ")"),
            new IdForm("<base>-tls, <base>-h2", "webflux-h2", "<base> (any target above) over TLS, with a certificate made for the run "
                    + "and trusted by the load alone: HTTP/1.1 (-tls) or HTTP/2 chosen by ALPN (-h2, server.http2.enabled); "
                    + "its actuator stays in clear text",
                    "as <base>; users sharing connections to MVC over HTTP/2: Tomcat's HTTP/2 "
                            + "streams, 20 at once on a connection, read from its gauges"),
            new IdForm("<base>-h2-s<streams>", "mvc-virtual-h2-s100", "<base>-h2 on MVC, Tomcat running <streams> (1 to 100) "
                    + "streams of a connection at once (" + Target.HTTP2_STREAM_EXECUTION + "; 20 by default)",
                    "as <base>-h2, with <streams> at once on a connection"));

    /** The ids `parse` knows, in one line for error messages. */
    public static String known() {
        return "mvc (= mvc-t200), " + IDS.stream().map(f -> f.form() + " (e.g. " + f.example() + ")")
                .collect(java.util.stream.Collectors.joining(", "));
    }
}
