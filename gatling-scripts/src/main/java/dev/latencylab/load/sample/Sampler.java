package dev.latencylab.load.sample;

import dev.latencylab.load.metrics.BoundedAnswer;
import dev.latencylab.load.metrics.MetricsEndpoint;
import dev.latencylab.load.model.PoolKind;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.Tick;

import java.lang.management.ManagementFactory;
import java.net.ConnectException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.BiPredicate;
import java.util.function.ToDoubleFunction;

import com.sun.management.OperatingSystemMXBean;
import com.sun.management.UnixOperatingSystemMXBean;

/**
 * Samples both sides about once a second during a run: this injector's CPU and open files, the machine's CPU, the
 * active users, the target's CPU (from /proc when its PID is known here: a target too busy to answer its actuator in
 * time still has it, and a late answer's process.cpu.usage was seen at 1.0 on a machine 14% busy), and its threads,
 * heap, open files and waiting requests from one /actuator/prometheus scrape (or, without a Prometheus registry,
 * from Spring Boot's /actuator/metrics JSON: {@link ActuatorMetrics}). Each sample is one row of the run's timeline.
 */
public final class Sampler implements AutoCloseable {

    /**
     * A target's connection pool as its actuator names it: to the database on /db, HikariCP's (MVC) or r2dbc-pool's
     * (WebFlux); to the downstream service on /http, Apache HttpClient 5's (MVC; one host, so its per-host maximum is
     * the bound) or Reactor Netty's (WebFlux).
     */
    enum ConnectionPool {
        HIKARI(PoolKind.HIKARI, "/db/", "hikaricp_connections_max", "hikaricp_connections_active", "hikaricp_connections_pending",
                "hikaricp_connections_usage_seconds"),
        R2DBC(PoolKind.R2DBC, "/db/", "r2dbc_pool_max_allocated_connections", "r2dbc_pool_acquired_connections",
                "r2dbc_pool_pending_connections", null),
        HTTPCLIENT5(PoolKind.HTTPCLIENT5, "/http/", "httpcomponents_httpclient_pool_route_max_default",
                "httpcomponents_httpclient_pool_total_connections{state=\"leased\"}", "httpcomponents_httpclient_pool_total_pending", null),
        REACTOR_NETTY(PoolKind.REACTOR_NETTY, "/http/", "reactor_netty_connection_provider_max_connections",
                "reactor_netty_connection_provider_active_connections", "reactor_netty_connection_provider_pending_connections", null);

        final PoolKind kind;
        /** The paths whose requests wait on this pool. */
        final String pathPrefix;
        final String max;
        final String active;
        final String pending;
        /** The timer of how long a connection is held (its _sum and _count), where the library publishes one; else null. */
        final String held;

        ConnectionPool(PoolKind kind, String pathPrefix, String max, String active, String pending, String held) {
            this.kind = kind;
            this.pathPrefix = pathPrefix;
            this.max = max;
            this.active = active;
            this.pending = pending;
            this.held = held;
        }

        /**
         * The pool that requests on the loaded path wait on, if the server publishes it. On the lab's own paths, chosen by
         * the path, not by which gauges exist: a target also publishes pools it does not use there (WebFlux's idle
         * r2dbc-pool of 10 on /http, MVC's HttpClient pool on /db). On any other path (a service of the user's), the
         * first pool it publishes, in this order: which one its requests wait on, the lab cannot know from the path.
         */
        static Optional<ConnectionPool> in(Map<String, Double> server, String path) {
            boolean labPath = LAB_PATHS.matcher(path).lookingAt();
            return Arrays.stream(values()).filter(p -> (!labPath || path.startsWith(p.pathPrefix)) && server.containsKey(p.max)).findFirst();
        }

        /** The paths of the lab's own targets, each with its latency. */
        private static final java.util.regex.Pattern LAB_PATHS = java.util.regex.Pattern.compile("/(?:hello|block|db|http|pinned)/[0-9]");

        static double gauge(Map<String, Double> server, String path, Function<ConnectionPool, String> name) {
            return in(server, path).map(p -> server.getOrDefault(name.apply(p), Double.NaN)).orElse(Double.NaN);
        }
    }

    private final OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final List<Tick> ticks = new ArrayList<>();
    private final ServicePools pools = new ServicePools();
    private final AtomicLong serverMisses = new AtomicLong();
    private final AtomicLong serverRefusals = new AtomicLong();
    private volatile Double firstRefusalSecond;
    private volatile Double targetExitedSecond;
    private final HttpClient http = dev.latencylab.load.tls.TlsTrust.ofThisJvm().httpClient(Duration.ofSeconds(2));
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "latency-lab-sampler");
        t.setDaemon(true);
        return t;
    });
    private final String prometheusUrl;
    /** Where the service listens, probed each second when its metrics are not read; else null. */
    private final java.net.InetSocketAddress service;
    private final ActuatorMetrics json;
    private final String tomcatConnector;
    private final RunProgress run;
    private final long targetPid;
    private final String loadedPath;
    private volatile Map<String, Double> lastServer = Map.of();
    private final CpuShares cpu;

    /**
     * The name Tomcat gives the connector serving this base URL, as its metrics tag it: http-nio-PORT, or over TLS
     * https-jsse-nio-PORT (the JDK's TLS, as Spring Boot sets it up); the actuator's port has its own.
     */
    public static String tomcatConnector(URI base) {
        boolean tls = "https".equals(base.getScheme());
        return (tls ? "https-jsse-nio-" : "http-nio-") + (base.getPort() != -1 ? base.getPort() : tls ? 443 : 80);
    }

    /**
     * @param metricsUrl the target's actuator, or null to sample this side only (then a connection to baseUrl each
     *                   second tells whether it still listens: a service without metrics that goes down is seen too)
     * @param baseUrl    the service under load (its port: the connector whose Tomcat metrics are kept)
     * @param targetPid  the target JVM's PID when it runs on this machine (./lab passes it), else -1: watched each second
     * @param loadedPath the path under load: which connection pool, if any, its requests wait on
     */
    public Sampler(String metricsUrl, String baseUrl, long targetPid, String loadedPath, RunProgress run) {
        URI base = URI.create(baseUrl);
        int serverPort = base.getPort();
        this.service = metricsUrl == null ? new java.net.InetSocketAddress(base.getHost(), serverPort) : null;
        this.prometheusUrl = metricsUrl == null ? null : metricsUrl + "/actuator/prometheus";
        // a service whose actuator has no Prometheus registry: its own JSON, a request per gauge
        this.json = metricsUrl == null || MetricsEndpoint.prometheusUnseen(metricsUrl) == null ? null
                : ActuatorMetrics.at(http, metricsUrl, tomcatConnector(base)).orElse(null);
        this.loadedPath = loadedPath;
        this.tomcatConnector = "name=\"" + tomcatConnector(base) + "\"";
        this.targetPid = targetPid;
        this.run = run;
        this.cpu = new CpuShares(targetPid);
    }

    /**
     * Whether the process is gone. ProcessHandle opens /proc/PID/stat to tell, and takes a process it cannot read as
     * gone: with every descriptor of this JVM in use (a load at its open-files limit) a live target read as exited, and
     * the run failed naming the wrong cause. Where /proc exists, the process's directory, which takes no descriptor to
     * look at, has the last word.
     */
    static boolean gone(long pid) {
        if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            return false;
        }
        return !Files.isDirectory(PROC) || !Files.exists(PROC.resolve(Long.toString(pid)));
    }

    private static final Path PROC = Path.of("/proc");

    /** Told each sample as it is taken, on the sampler's thread (the live feed). */
    public void onTick(java.util.function.Consumer<Tick> listener) {
        onTick = listener;
    }

    private volatile java.util.function.Consumer<Tick> onTick = tick -> {
    };

    public void start() {
        if (json != null) {
            System.out.printf("latency-lab: server metrics from Spring Boot's /actuator/metrics JSON (no Prometheus registry): %d gauges, "
                    + "a request each, every second%n", json.gaugeCount());
        }
        cpu.prime();
        timer.scheduleAtFixedRate(this::sample, 1, 1, TimeUnit.SECONDS);
    }

    private void sample() {
        double second = run.secondsSinceStart();
        if (targetPid > 0 && targetExitedSecond == null && gone(targetPid)) {
            targetExitedSecond = second;
        }
        int active = run.activeUsers();
        double openFiles = os instanceof UnixOperatingSystemMXBean unix ? unix.getOpenFileDescriptorCount() : Double.NaN;
        Map<String, Double> server = prometheusUrl == null ? Map.of() : scrapeServer(second);
        if (service != null) {
            probeService(second);
        }
        double busy = server.getOrDefault("tomcat_threads_busy_threads", Double.NaN);
        CpuShares.Reading shares = cpu.read();
        // the server's own reading where /proc has none (not on this machine, or gone): a share of its machine's cores
        double serverCpu = Double.isNaN(shares.server()) ? server.getOrDefault("process_cpu_usage", Double.NaN) : shares.server();
        Tick tick = new Tick(second, active, shares.injector(), shares.machine(), openFiles, serverCpu,
                server.getOrDefault("jvm_threads_live_threads", Double.NaN),
                busy < 0 ? Double.NaN : busy, // -1: no bounded pool (virtual threads)
                server.getOrDefault("jvm_memory_used_bytes{area=\"heap\"}", Double.NaN),
                server.getOrDefault("process_files_open_files", Double.NaN),
                server.getOrDefault("hello_waiting", Double.NaN), shares.steal(), loadAverage(),
                ConnectionPool.gauge(server, loadedPath, p -> p.active), ConnectionPool.gauge(server, loadedPath, p -> p.pending));
        synchronized (ticks) {
            ticks.add(tick);
        }
        pools.add(second, active, server);
        onTick.accept(tick);
    }

    private Map<String, Double> scrapeServer(double second) {
        try {
            Map<String, Double> read = json != null ? json.read() : scrapePrometheus();
            if (read != null && !read.isEmpty()) {
                lastServer = read;
                return read;
            }
        }
        catch (ConnectException e) {
            // refused: nothing listens on the actuator's port any more, the server is down
            refused(second);
        }
        catch (Exception e) {
            // a saturated target answers late or not at all: counted, and that is data too
        }
        serverMisses.incrementAndGet();
        return Map.of();
    }

    /** A connection to the service, closed at once: refused when nothing listens there any more (it is down). */
    private void probeService(double second) {
        try (java.net.Socket socket = new java.net.Socket()) {
            socket.connect(service, 2000);
        }
        catch (ConnectException e) {
            refused(second);
        }
        catch (IOException e) {
            // a saturated service may not accept in time: that is not down
        }
    }

    private void refused(double second) {
        serverRefusals.incrementAndGet();
        if (firstRefusalSecond == null) {
            firstRefusalSecond = second;
        }
    }

    /** One scrape of the Prometheus text, parsed; null when it did not answer 200. */
    private Map<String, Double> scrapePrometheus() throws IOException, InterruptedException {
        BoundedAnswer r = BoundedAnswer.get(http, HttpRequest.newBuilder(URI.create(prometheusUrl)).timeout(Duration.ofSeconds(2)).build(),
                Duration.ofSeconds(2));
        return r.status() == 200 ? parsePrometheus(r.body(), tomcatConnector) : null;
    }

    /**
     * Reactor Netty's HTTP/2 client pool (named after the pool it takes connections from) publishes its own
     * active.connections under the same metric, beside that TCP pool's: summed, connections in use read above the pool's
     * size (17 to 20 of 16 in docs/results-http2). The TCP pool's alone counts connections.
     */
    static final String HTTP2_POOL_PREFIX = "http2.";

    /** An executor's name label, which keeps each executor a pool of its own. */
    private static final java.util.regex.Pattern EXECUTOR_NAME = java.util.regex.Pattern.compile("[{,]name=\"([^\"]*)\"");

    /**
     * Sums the samples of each metric name over its label sets, except heap memory, HttpClient's connections and
     * executors, which keep their area, state and name apart, Tomcat's connectors', which keep only the connector
     * under load, and Reactor Netty's connections in use, which leave out its HTTP/2 pools' (HTTP2_POOL_PREFIX). Enough of the Prometheus text format for the handful
     * of gauges read here.
     */
    static Map<String, Double> parsePrometheus(String text, String tomcatConnector) {
        Map<String, Double> values = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            int brace = line.indexOf('{');
            String name = line.substring(0, brace > 0 && brace < space ? brace : space);
            double value;
            try {
                value = Double.parseDouble(line.substring(space + 1));
            }
            catch (NumberFormatException e) {
                continue;
            }
            if (name.startsWith("tomcat_") && line.contains("name=\"http-") && !line.contains(tomcatConnector)) {
                continue;
            }
            if (name.equals("jvm_memory_used_bytes")) {
                name = line.contains("area=\"heap\"") ? "jvm_memory_used_bytes{area=\"heap\"}" : "jvm_memory_used_bytes{area=\"nonheap\"}";
            }
            if (name.startsWith(ServicePools.EXECUTOR_PREFIX)) {
                // each executor a pool of its own: kept apart by its name
                java.util.regex.Matcher executor = EXECUTOR_NAME.matcher(line);
                name = executor.find() ? ServicePools.executorKey(name, executor.group(1)) : name;
            }
            if (name.equals(ConnectionPool.REACTOR_NETTY.active) && line.contains("name=\"" + HTTP2_POOL_PREFIX)) {
                continue; // an HTTP/2 client's pool over its TCP pool: not connections (the TCP pool's gauge counts those)
            }
            if (name.equals("httpcomponents_httpclient_pool_total_connections")) {
                name = line.contains("state=\"leased\"") ? name + "{state=\"leased\"}" : name + "{state=\"available\"}";
            }
            values.merge(name, value, Double::sum);
        }
        return values;
    }

    /** The 1-minute load average (runnable and waiting tasks, all cores together); NaN where there is none. */
    double loadAverage() {
        double load = os.getSystemLoadAverage();
        return load < 0 ? Double.NaN : load;
    }

    /**
     * The samples put on the clock of a run whose users could not be counted as they came (a user's simulation, counted
     * afterwards from Gatling's records): each second less offset (the run began offset seconds after the sampler;
     * samples before that are dropped), with the users activeAt gives for that second. Call after close.
     */
    public void rebase(double offset, java.util.function.DoubleToIntFunction activeAt) {
        synchronized (ticks) {
            List<Tick> moved = ticks.stream().filter(t -> t.second() >= offset).map(t -> t.withInjectors(t.second() - offset,
                    activeAt.applyAsInt(t.second() - offset), t.injectorCpu(), t.injectorOpenFiles())).toList();
            ticks.clear();
            ticks.addAll(moved);
        }
        pools.rebase(offset, activeAt);
        firstRefusalSecond = firstRefusalSecond == null ? null : Math.max(0, firstRefusalSecond - offset);
        targetExitedSecond = targetExitedSecond == null ? null : Math.max(0, targetExitedSecond - offset);
    }

    public List<Tick> ticks() {
        synchronized (ticks) {
            return List.copyOf(ticks);
        }
    }

    /** Mean and max of one column over the ticks that pass the filter. */
    public Series series(ToDoubleFunction<Tick> column, Predicate<Tick> filter) {
        Series s = new Series();
        ticks().stream().filter(filter).forEach(t -> s.add(column.applyAsDouble(t)));
        return s;
    }

    public Series series(ToDoubleFunction<Tick> column) {
        return series(column, t -> true);
    }

    /**
     * The pools for the result file: each on the plateau (onPlateau: a sample's second on the run's clock, its active
     * users); http2: the load spoke HTTP/2.
     */
    public Result.Pools poolsResult(BiPredicate<Double, Integer> onPlateau, boolean http2) {
        return pools.result(onPlateau, http2);
    }

    /** The connection pool requests on this path wait on, as the samples saw it; null if the server publishes none. */
    public Result.ConnectionPool connectionPool(String path) {
        Map<String, Double> last = lastServerValues();
        return ConnectionPool.in(last, path).map(p -> new Result.ConnectionPool(p.kind.label(), last.get(p.max),
                series(Tick::serverPoolActive).stat(), series(Tick::serverPoolPending).stat())).orElse(null);
    }

    /** The last values the target reported (e.g. jvm_threads_peak_threads, process_files_max_files). */
    public Map<String, Double> lastServerValues() {
        return lastServer;
    }

    public long serverMisses() {
        return serverMisses.get();
    }

    /** Samples whose connection the target's actuator refused (a subset of the misses). */
    public long serverRefusals() {
        return serverRefusals.get();
    }

    /** Seconds into the run of the first refused sample; null when none was. */
    public Double firstRefusalSecond() {
        return firstRefusalSecond;
    }

    /** Seconds into the run at which the watched target JVM was first seen gone; null when it lived (or none is watched). */
    public Double targetExitedSecond() {
        return targetExitedSecond;
    }

    /** The cores the CPU shares are of: CpuShares. */
    public int cores() {
        return cpu.cores();
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sample(); // one last reading, so that even a run of a few seconds has one
    }
}
