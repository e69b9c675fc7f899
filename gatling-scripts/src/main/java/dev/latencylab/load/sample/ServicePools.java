package dev.latencylab.load.sample;

import dev.latencylab.load.model.PoolKind;

import dev.latencylab.load.result.Result;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The pools of a server that can bound its throughput, read each second from its own metrics: each pool's size, how
 * many of it are in use, how many requests wait for one, and how long one is held, where the server publishes them. A
 * pool of T held H seconds each serves at most T/H requests per second (Little's law); one in full use with requests
 * waiting is the evidence that it decided. What a server has but does not publish is said, with the setting that
 * publishes it. Metric names per pool: docs/your-service.md.
 */
public final class ServicePools {

    /**
     * A pool the lab reads: its name, what it pools, and the keys (as the sampler keys metrics) of its size, of those in
     * use, of the requests waiting (null: not published), of the timer of how long one is held (its _sum and _count
     * seconds; null: not published) and of a gauge that is above 0 when it is full (null: full by its waits, or by all in use).
     */
    record Kind(String name, String unit, String size, String inUse, String pending, String held, String full) {

        static Kind of(PoolKind kind, String size, String inUse, String pending, String held) {
            return new Kind(kind.label(), kind.unit(), size, inUse, pending, held, null);
        }

        static Kind of(Sampler.ConnectionPool p) {
            return of(p.kind, p.max, p.active, p.pending, p.held);
        }
    }

    /** Tomcat's request threads for the connector under load: a thread is held for a request's whole time in Tomcat. */
    static final Kind TOMCAT_THREADS = Kind.of(PoolKind.TOMCAT_THREADS, "tomcat_threads_config_max_threads",
            "tomcat_threads_busy_threads", null, "tomcat_global_request_seconds");

    /**
     * Tomcat's connection cap for the connector under load (server.tomcat.max-connections): a connection is held for as
     * long as its client keeps it, not for a request, so it publishes no hold time; full when all are open.
     */
    static final Kind TOMCAT_CONNECTIONS = Kind.of(PoolKind.TOMCAT_CONNECTIONS, "tomcat_connections_config_max_connections",
            "tomcat_connections_current_connections", null, null);

    /** Jetty's request threads (Micrometer's JettyServerThreadPoolMetrics): jobs queued are requests waiting for one. */
    static final Kind JETTY_THREADS = Kind.of(PoolKind.JETTY_THREADS, "jetty_threads_config_max", "jetty_threads_busy",
            "jetty_threads_jobs", null);

    /** The lab's MVC target's gauges of Tomcat's HTTP/2 streams (Http2StreamUse there): Tomcat publishes none. */
    static final String STREAMS_LIMIT = "latency_lab_http2_stream_execution_max";
    static final String STREAMS_CONNECTIONS = "latency_lab_http2_connections_executing";
    static final String STREAMS_FULL_CONNECTIONS = "latency_lab_http2_connections_full";
    /** The streams it could run at a sample, derived from the above (#streamsRunnable). */
    private static final String STREAMS_BOUNDING = "latency_lab_http2_streams_bounding";

    /**
     * Tomcat's HTTP/2 streams: Tomcat runs so many streams of a connection at once (maxConcurrentStreamExecution, 20 by
     * default), the others waiting on that connection, and a stream cannot move to another: a pool whose size is what the
     * clients' spread of their requests lets run. Held for a request's run (timed by the target: Tomcat's request timer
     * leaves streams out); full when a connection runs its limit (its waiting streams are not seen).
     */
    static final Kind TOMCAT_STREAMS = new Kind(PoolKind.TOMCAT_STREAMS.label(), PoolKind.TOMCAT_STREAMS.unit(), STREAMS_BOUNDING,
            "latency_lab_http2_streams_executing", null, "latency_lab_http2_stream_seconds", STREAMS_FULL_CONNECTIONS);

    /**
     * The streams Tomcat can run at a sample, as the clients spread them: the limit on each connection at it (more wait
     * there) and those running on the others (nothing waits there: they run all they have). Not the limit times every
     * connection: a client that piles its streams on some connections leaves the others' slots idle (seen: 11.7
     * connections running requests, 184 streams running, not 233).
     */
    static double streamsRunnable(double limit, double atLimit, double running) {
        return Math.max(limit * atLimit, running);
    }

    static final List<Kind> KINDS = Stream.concat(Stream.of(TOMCAT_THREADS, TOMCAT_CONNECTIONS, JETTY_THREADS, TOMCAT_STREAMS),
            Arrays.stream(Sampler.ConnectionPool.values()).map(Kind::of)).toList();

    /** The metrics of Micrometer's executors (ExecutorServiceMetrics; Spring Boot binds its task executors), one per name. */
    static final String EXECUTOR_PREFIX = "executor_";
    static final String EXECUTOR_ACTIVE = "executor_active_threads";
    static final String EXECUTOR_QUEUED = "executor_queued_tasks";
    static final String EXECUTOR_CORE = "executor_pool_core_threads";
    static final String EXECUTOR_MAX = "executor_pool_max_threads";
    static final String EXECUTOR_REMAINING = "executor_queue_remaining_tasks";
    /** An executor's threads as they bound it (ServicePools#executorThreads), derived from the above at each sample. */
    private static final String EXECUTOR_THREADS = "executor_bounding_threads";
    private static final java.util.regex.Pattern EXECUTOR_KEY = java.util.regex.Pattern.compile(EXECUTOR_ACTIVE + "\\{name=\"(.*)\"}");

    /** An executor's metric, kept apart by the executor's name, e.g. executor_active_threads{name="applicationTaskExecutor"}. */
    static String executorKey(String metric, String executor) {
        return metric + "{name=\"" + executor + "\"}";
    }

    /**
     * How many threads bound an executor (a ThreadPoolExecutor): past its core threads it queues tasks, and starts more,
     * up to its maximum, only once its queue is full; with a queue without bound (Spring Boot's task executor, a
     * queue of Integer.MAX_VALUE) that never happens, and its core threads are all it runs. Null without its sizes.
     */
    static Double executorThreads(Double core, Double max, Double remaining, Double queued) {
        if (max == null) {
            return null;
        }
        boolean unboundedQueue = remaining != null && remaining + (queued == null ? 0 : queued) >= Integer.MAX_VALUE - 1.0;
        return unboundedQueue && core != null ? core : max;
    }

    /** Spring Boot's gauges of any DataSource: a pool whose own metrics (waits, hold time) are not bound. */
    static final String DATASOURCE_MAX = "jdbc_connections_max";
    /** Tomcat's sessions, which Spring Boot publishes with or without its thread metrics: Tomcat is there. */
    static final String TOMCAT_SESSIONS = "tomcat_sessions_active_current_sessions";

    /** The keys a reading keeps of a sample. */
    private static final Set<String> KEYS = Stream.concat(KINDS.stream().flatMap(k -> Stream.of(k.size(), k.inUse(), k.pending(),
            k.held() == null ? null : k.held() + "_sum", k.held() == null ? null : k.held() + "_count", k.full())),
            Stream.of(DATASOURCE_MAX, TOMCAT_SESSIONS, STREAMS_LIMIT, STREAMS_CONNECTIONS)).filter(k -> k != null).collect(Collectors.toUnmodifiableSet());

    /** One sample of the pools' metrics, at a second of the run, with so many users active. */
    record Reading(double second, int users, Map<String, Double> values) {
    }

    private final List<Reading> readings = new ArrayList<>();

    /** One sample of the server's metrics (empty when it did not answer: then nothing is kept). */
    synchronized void add(double second, int users, Map<String, Double> server) {
        Map<String, Double> kept = new HashMap<>();
        server.forEach((key, value) -> {
            if (KEYS.contains(key) || key.startsWith(EXECUTOR_PREFIX)) {
                kept.put(key, value);
            }
            java.util.regex.Matcher executor = EXECUTOR_KEY.matcher(key);
            if (executor.matches()) {
                String name = executor.group(1);
                Double threads = executorThreads(server.get(executorKey(EXECUTOR_CORE, name)), server.get(executorKey(EXECUTOR_MAX, name)),
                        server.get(executorKey(EXECUTOR_REMAINING, name)), server.get(executorKey(EXECUTOR_QUEUED, name)));
                if (threads != null) {
                    kept.put(executorKey(EXECUTOR_THREADS, name), threads);
                }
            }
        });
        Double limit = server.get(STREAMS_LIMIT);
        Double connections = server.get(STREAMS_CONNECTIONS);
        Double atLimit = server.get(STREAMS_FULL_CONNECTIONS);
        Double running = server.get(TOMCAT_STREAMS.inUse());
        if (limit != null && connections != null && connections > 0 && atLimit != null && running != null) {
            kept.put(STREAMS_BOUNDING, streamsRunnable(limit, atLimit, running));
        }
        if (!kept.isEmpty()) {
            readings.add(new Reading(second, users, kept));
        }
    }

    /** The readings on a run's later clock, with its users counted afterwards (see Sampler#rebase). */
    synchronized void rebase(double offset, java.util.function.DoubleToIntFunction activeAt) {
        List<Reading> moved = readings.stream().filter(r -> r.second() >= offset)
                .map(r -> new Reading(r.second() - offset, activeAt.applyAsInt(r.second() - offset), r.values())).toList();
        readings.clear();
        readings.addAll(moved);
    }

    /**
     * What the run saw of each pool the server publishes, on the plateau where it had readings there (else over the
     * whole run), and what it has but does not publish; null when no sample had any pool.
     */
    synchronized Result.Pools result(BiPredicate<Double, Integer> onPlateau, boolean http2) {
        return of(readings, onPlateau, http2);
    }

    /** The same of these readings; http2: the load spoke HTTP/2, where Tomcat's streams can bound it. */
    static Result.Pools of(List<Reading> all, BiPredicate<Double, Integer> onPlateau, boolean http2) {
        if (all.isEmpty()) {
            return null;
        }
        List<Reading> plateau = all.stream().filter(r -> onPlateau.test(r.second(), r.users())).toList();
        List<Reading> span = plateau.isEmpty() ? all : plateau;
        List<Result.Pool> published = new ArrayList<>();
        for (Kind kind : kinds(all)) {
            if (all.stream().anyMatch(r -> r.values().containsKey(kind.size()))) {
                published.add(pool(kind, all, span));
            }
        }
        List<Result.Unseen> unseen = new ArrayList<>();
        if (has(all, TOMCAT_SESSIONS) && !has(all, TOMCAT_THREADS.size())) {
            unseen.add(new Result.Unseen(TOMCAT_THREADS.name(), "Spring Boot publishes them only with server.tomcat.mbeanregistry.enabled=true"));
        }
        if (http2 && (has(all, TOMCAT_SESSIONS) || has(all, TOMCAT_THREADS.size())) && !has(all, STREAMS_LIMIT)) {
            unseen.add(new Result.Unseen(TOMCAT_STREAMS.name(), "Tomcat runs 20 streams of a connection at once by default "
                    + "(maxConcurrentStreamExecution) and publishes no metric of them: a bound where clients share connections"));
        }
        if (has(all, DATASOURCE_MAX) && !has(all, Sampler.ConnectionPool.HIKARI.max)) {
            unseen.add(new Result.Unseen("the DataSource's connections (%.0f)".formatted(last(all, DATASOURCE_MAX)),
                    "their waits and hold time are HikariCP's metrics, published when Micrometer binds the pool"));
        }
        return published.isEmpty() && unseen.isEmpty() ? null : new Result.Pools(published, unseen);
    }

    /** The pools the lab reads, then each executor the readings name: its tasks queued are tasks waiting for a thread. */
    private static List<Kind> kinds(List<Reading> all) {
        List<Kind> kinds = new ArrayList<>(KINDS);
        all.stream().flatMap(r -> r.values().keySet().stream()).map(EXECUTOR_KEY::matcher).filter(java.util.regex.Matcher::matches)
                .map(m -> m.group(1)).distinct().sorted().forEach(name -> kinds.add(new Kind("executor " + name, "threads",
                        executorKey(EXECUTOR_THREADS, name), executorKey(EXECUTOR_ACTIVE, name), executorKey(EXECUTOR_QUEUED, name), null, null)));
        return kinds;
    }

    /**
     * One pool over a span of readings: its size (the last given; the mean for one whose size the clients set), use,
     * waits, full share, hold time and bound.
     */
    private static Result.Pool pool(Kind kind, List<Reading> all, List<Reading> span) {
        // a reading that is not a number (an endpoint's NaN) is no reading: it must not become a size, a use or a wait
        List<Double> sizes = span.stream().map(r -> r.values().get(kind.size())).filter(v -> v != null && Double.isFinite(v)).toList();
        // a pool whose size the clients set (the streams, by their spread) is as large as it was on the average
        Double size = sizes.isEmpty() ? null
                : kind.full() != null ? sizes.stream().mapToDouble(Double::doubleValue).average().orElseThrow() : sizes.getLast();
        Series inUse = new Series();
        Series pending = new Series();
        long readings = 0;
        long full = 0;
        for (Reading r : span) {
            Double used = r.values().get(kind.inUse());
            Double waiting = kind.pending() == null ? null : r.values().get(kind.pending());
            waiting = waiting == null || Double.isFinite(waiting) ? waiting : null;
            if (used == null || !Double.isFinite(used)) {
                continue;
            }
            inUse.add(used);
            pending.add(waiting == null ? Double.NaN : waiting);
            readings++;
            // where the pool publishes its waits, full means a request waited: all in use at an instant is the pool keeping
            // up, and one in use fewer at an instant (handed back, not yet taken again) with 40 waiting is full
            Double fullGauge = kind.full() == null ? null : r.values().get(kind.full());
            if (kind.full() != null ? fullGauge != null && fullGauge > 0
                    : kind.pending() == null ? size != null && size > 0 && used >= size : waiting != null && waiting > 0) {
                full++;
            }
        }
        if (size != null && size <= 0 || inUse.max() != null && inUse.max() < 0) {
            // Tomcat on virtual threads publishes -1: no pool of threads
            return new Result.Pool(kind.name(), kind.unit(), null, inUse.stat(), pending.stat(), null, null, null,
                    "no pool: it publishes no bounded number of " + kind.unit() + " (virtual threads)");
        }
        Double holdMs = kind.held() == null ? null : holdMs(kind.held(), withBaseline(kind.held(), all, span));
        Double bound = size == null || holdMs == null || holdMs <= 0 ? null : size * 1000 / holdMs;
        return new Result.Pool(kind.name(), kind.unit(), size, inUse.stat(), pending.stat(), readings == 0 ? null : (double) full / readings,
                holdMs, bound, kind == TOMCAT_STREAMS ? streamsSpread(span) : null);
    }

    /** How the clients spread their streams, e.g. "20 at once on a connection; 8.1 of the 11.7 connections running requests at it". */
    private static String streamsSpread(List<Reading> span) {
        List<Reading> running = span.stream().filter(r -> r.values().getOrDefault(STREAMS_CONNECTIONS, 0.0) > 0).toList();
        if (running.isEmpty()) {
            return null;
        }
        return "%.0f at once on a connection; %.1f of the %.1f connections running requests at it, on the average".formatted(
                last(running, STREAMS_LIMIT), mean(running, STREAMS_FULL_CONNECTIONS), mean(running, STREAMS_CONNECTIONS));
    }

    private static double mean(List<Reading> readings, String key) {
        return readings.stream().map(r -> r.values().get(key)).filter(v -> v != null).mapToDouble(Double::doubleValue).average().orElse(0);
    }

    /**
     * The span, led by the reading just before it where the span alone has fewer than two of the timer's: a level an
     * open run stopped early (it missed its objective) may have one sample, and the timer's growth since the second
     * before it is still that level's.
     */
    static List<Reading> withBaseline(String timer, List<Reading> all, List<Reading> span) {
        if (span.stream().filter(r -> r.values().containsKey(timer + "_count")).count() >= 2 || span.isEmpty()) {
            return span;
        }
        double from = span.get(0).second();
        return all.stream().filter(r -> r.second() < from && r.values().containsKey(timer + "_count")).reduce((a, b) -> b)
                .map(before -> java.util.stream.Stream.concat(java.util.stream.Stream.of(before), span.stream()).toList()).orElse(span);
    }

    /** The mean time one was held over the span, from the timer's growth between its first and last reading; null without growth. */
    static Double holdMs(String timer, List<Reading> span) {
        List<Reading> timed = span.stream().filter(r -> r.values().containsKey(timer + "_sum") && r.values().containsKey(timer + "_count")).toList();
        if (timed.size() < 2) {
            return null;
        }
        Map<String, Double> first = timed.get(0).values();
        Map<String, Double> last = timed.getLast().values();
        double count = last.get(timer + "_count") - first.get(timer + "_count");
        double seconds = last.get(timer + "_sum") - first.get(timer + "_sum");
        return count > 0 && seconds >= 0 ? seconds * 1000 / count : null;
    }

    private static boolean has(List<Reading> readings, String key) {
        return readings.stream().anyMatch(r -> r.values().containsKey(key));
    }

    private static double last(List<Reading> readings, String key) {
        return readings.stream().map(r -> r.values().get(key)).filter(v -> v != null).reduce((a, b) -> b).orElseThrow();
    }
}
