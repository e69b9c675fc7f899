package dev.latencylab.load;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;

import com.sun.management.OperatingSystemMXBean;
import com.sun.management.UnixOperatingSystemMXBean;

/**
 * Samples both sides about once a second during a run: this injector's CPU, the machine's CPU and open files, and the
 * target's threads, heap, CPU and open files from its actuator (one /actuator/prometheus scrape per sample).
 */
public final class Sampler implements AutoCloseable {

    /** Series names, as the result file has them. */
    public static final String INJECTOR_CPU = "injectorCpu", MACHINE_CPU = "machineCpu", INJECTOR_OPEN_FILES = "injectorOpenFiles",
            ACTIVE_USERS = "activeUsers", SERVER_CPU = "serverCpu", SERVER_LIVE_THREADS = "serverLiveThreads",
            SERVER_BUSY_THREADS = "serverBusyThreads", SERVER_HEAP_USED = "serverHeapUsedBytes",
            SERVER_OPEN_FILES = "serverOpenFiles", SERVER_WAITING = "serverWaitingRequests";

    private final OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final Map<String, Series> series = new LinkedHashMap<>();
    private final AtomicLong serverMisses = new AtomicLong();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "latency-lab-sampler");
        t.setDaemon(true);
        return t;
    });
    private final String prometheusUrl;
    private final IntSupplier activeUsers;
    private volatile Map<String, Double> lastServer = Map.of();

    /** @param baseUrl the target, or null to sample this side only */
    public Sampler(String baseUrl, IntSupplier activeUsers) {
        this.prometheusUrl = baseUrl == null ? null : baseUrl + "/actuator/prometheus";
        this.activeUsers = activeUsers;
        for (String name : new String[] {INJECTOR_CPU, MACHINE_CPU, INJECTOR_OPEN_FILES, ACTIVE_USERS, SERVER_CPU,
                SERVER_LIVE_THREADS, SERVER_BUSY_THREADS, SERVER_HEAP_USED, SERVER_OPEN_FILES, SERVER_WAITING}) {
            series.put(name, new Series());
        }
    }

    public void start() {
        os.getProcessCpuLoad(); // the first reading of each is 0 or undefined: prime them
        os.getCpuLoad();
        timer.scheduleAtFixedRate(this::sample, 1, 1, TimeUnit.SECONDS);
    }

    private void sample() {
        series.get(INJECTOR_CPU).add(os.getProcessCpuLoad());
        series.get(MACHINE_CPU).add(os.getCpuLoad());
        series.get(ACTIVE_USERS).add(activeUsers.getAsInt());
        if (os instanceof UnixOperatingSystemMXBean unix) {
            series.get(INJECTOR_OPEN_FILES).add(unix.getOpenFileDescriptorCount());
        }
        if (prometheusUrl != null) {
            sampleServer();
        }
    }

    private void sampleServer() {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(prometheusUrl)).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                serverMisses.incrementAndGet();
                return;
            }
            Map<String, Double> m = parsePrometheus(r.body());
            lastServer = m;
            series.get(SERVER_CPU).add(m.getOrDefault("process_cpu_usage", Double.NaN));
            series.get(SERVER_LIVE_THREADS).add(m.getOrDefault("jvm_threads_live_threads", Double.NaN));
            double busy = m.getOrDefault("tomcat_threads_busy_threads", Double.NaN);
            series.get(SERVER_BUSY_THREADS).add(busy < 0 ? Double.NaN : busy); // -1: no pool (virtual threads)
            series.get(SERVER_HEAP_USED).add(m.getOrDefault("jvm_memory_used_bytes{area=\"heap\"}", Double.NaN));
            series.get(SERVER_OPEN_FILES).add(m.getOrDefault("process_files_open_files", Double.NaN));
            series.get(SERVER_WAITING).add(m.getOrDefault("hello_waiting", Double.NaN));
        }
        catch (Exception e) {
            serverMisses.incrementAndGet(); // a saturated or overloaded target answers late: that is data too
        }
    }

    /**
     * Sums the samples of each metric name over its label sets, except heap memory, which keeps only area="heap".
     * Enough of the Prometheus text format for the handful of gauges read here.
     */
    static Map<String, Double> parsePrometheus(String text) {
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
            if (name.equals("jvm_memory_used_bytes")) {
                name = line.contains("area=\"heap\"") ? "jvm_memory_used_bytes{area=\"heap\"}" : "jvm_memory_used_bytes{area=\"nonheap\"}";
            }
            values.merge(name, value, Double::sum);
        }
        return values;
    }

    /** The last values the target reported (e.g. jvm_threads_peak_threads, process_files_max_files). */
    public Map<String, Double> lastServerValues() {
        return lastServer;
    }

    public long serverMisses() {
        return serverMisses.get();
    }

    public Series series(String name) {
        return series.get(name);
    }

    public int cores() {
        return os.getAvailableProcessors();
    }

    public long maxOpenFiles() {
        return os instanceof UnixOperatingSystemMXBean unix ? unix.getMaxFileDescriptorCount() : -1;
    }

    @Override
    public void close() {
        timer.shutdownNow();
        sample(); // one last reading, so that even a run of a few seconds has one
    }
}
