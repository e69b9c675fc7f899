package dev.latencylab.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;

import org.HdrHistogram.Histogram;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The machine-readable outcome of one simulation run (Gatling 3.16 writes none): parameters, counts, throughput,
 * percentiles and the encoded histogram, injector and server samples, and the model's numbers for the run.
 */
public final class ResultFile {

    public static final String SCHEMA = "latency-lab/result/1";
    public static final String NAME = "result.json";
    static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
    /** Percentiles reported, as (name, percentile). */
    /** Samples with at least this share of the peak of active users make up the plateau (full population). */
    static final double PLATEAU_SHARE = 0.95;
    private static final Object[][] PERCENTILES = {{"p50", 50.0}, {"p75", 75.0}, {"p95", 95.0}, {"p99", 99.0}, {"p999", 99.9}};

    private ResultFile() {
    }

    /** Everything the run learned, in the result file's layout. */
    public static Map<String, Object> build(SimulationSettings settings, Preflight preflight, RunRecorder run, Sampler sampler,
            long connectTimeoutMs, long requestTimeoutMs) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("schema", SCHEMA);
        root.put("simulation", "dev.latencylab.load.LoadSimulation");
        root.put("parameters", settings.asMap());
        root.put("start", run.startedAt().toString());
        root.put("end", run.endedAt().toString());
        double seconds = run.duration().toMillis() / 1000.0;
        root.put("durationSeconds", seconds);

        Map<String, Object> requests = new LinkedHashMap<>();
        requests.put("total", run.ok() + run.ko());
        requests.put("ok", run.ok());
        requests.put("ko", run.ko());
        requests.put("koPercent", run.ok() + run.ko() == 0 ? 0.0 : 100.0 * run.ko() / (run.ok() + run.ko()));
        requests.put("koByReason", run.koByReason());
        requests.put("timeoutsMs", Map.of("connect", connectTimeoutMs, "request", requestTimeoutMs));
        root.put("requests", requests);

        long[] perSecond = run.completedPerSecond();
        Predicate<Sampler.Tick> onPlateau = t -> run.peakActiveUsers() > 0 && t.activeUsers() >= PLATEAU_SHARE * run.peakActiveUsers();
        List<Sampler.Tick> plateauTicks = sampler.ticks().stream().filter(onPlateau).toList();
        Double plateauThroughput = null;
        Map<String, Object> plateau = null;
        if (!plateauTicks.isEmpty()) {
            int from = (int) Math.floor(plateauTicks.get(0).second());
            int to = Math.min((int) Math.floor(plateauTicks.get(plateauTicks.size() - 1).second()), perSecond.length);
            if (to > from) {
                plateauThroughput = Arrays.stream(perSecond, from, to).average().orElse(0);
            }
            plateau = new LinkedHashMap<>();
            plateau.put("fromSecond", from);
            plateau.put("toSecond", to);
            plateau.put("minActiveUsers", plateauTicks.stream().mapToInt(Sampler.Tick::activeUsers).min().orElse(0));
            plateau.put("throughputPerSecond", plateauThroughput);
            plateau.put("injectorCpu", sampler.series(Sampler.Tick::injectorCpu, onPlateau).mean());
            plateau.put("machineCpu", sampler.series(Sampler.Tick::machineCpu, onPlateau).mean());
            plateau.put("serverCpu", sampler.series(Sampler.Tick::serverCpu, onPlateau).mean());
        }
        Map<String, Object> throughput = new LinkedHashMap<>();
        throughput.put("meanPerSecond", seconds == 0 ? 0.0 : (run.ok() + run.ko()) / seconds);
        throughput.put("peakPerSecond", Arrays.stream(perSecond).max().orElse(0));
        throughput.put("plateauPerSecond", plateauThroughput);
        throughput.put("completedPerSecond", perSecond);
        root.put("throughput", throughput);
        root.put("plateau", plateau);

        Histogram h = run.responseTimes();
        root.put("responseTimeMs", percentiles(h));
        root.put("histogram", Map.of("unit", "ms", "encoding", "HdrHistogram compressed, base64", "data", encode(h)));

        Map<String, Object> injector = new LinkedHashMap<>();
        injector.put("cores", sampler.cores());
        injector.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        injector.put("peakActiveUsers", run.peakActiveUsers());
        injector.put("connections", preflight.connections().id());
        injector.put("connectionsSwitched", preflight.switched());
        injector.put("openFilesNeeded", preflight.openFilesNeeded());
        injector.put("openFilesLimit", preflight.openFilesLimit());
        injector.put("openFiles", sampler.series(Sampler.Tick::injectorOpenFiles).asMap());
        injector.put("cpu", sampler.series(Sampler.Tick::injectorCpu).asMap());
        injector.put("machineCpu", sampler.series(Sampler.Tick::machineCpu).asMap());
        root.put("injector", injector);

        Map<String, Object> server = new LinkedHashMap<>();
        Map<String, Double> last = sampler.lastServerValues();
        server.put("sampled", settings.sampleServer());
        server.put("missedSamples", sampler.serverMisses());
        server.put("refusedSamples", sampler.serverRefusals());
        server.put("firstRefusedSecond", sampler.firstRefusalSecond());
        server.put("pid", settings.targetPid().isPresent() ? settings.targetPid().getAsLong() : null);
        server.put("exitedAtSecond", sampler.targetExitedSecond());
        server.put("poolThreads", preflight.targetThreads().isPresent() ? preflight.targetThreads().getAsInt() : null);
        server.put("peakLiveThreads", last.get("jvm_threads_peak_threads"));
        server.put("liveThreads", sampler.series(Sampler.Tick::serverLiveThreads).asMap());
        server.put("busyThreads", sampler.series(Sampler.Tick::serverBusyThreads).asMap());
        server.put("heapUsedBytes", sampler.series(Sampler.Tick::serverHeapUsedBytes).asMap());
        server.put("cpu", sampler.series(Sampler.Tick::serverCpu).asMap());
        server.put("openFiles", sampler.series(Sampler.Tick::serverOpenFiles).asMap());
        server.put("openFilesLimit", last.get("process_files_max_files"));
        server.put("waitingRequests", sampler.series(Sampler.Tick::serverWaitingRequests).asMap());
        server.put("peakWaitingRequests", last.get("hello_waiting_peak"));
        root.put("server", server);

        root.put("model", model(settings, preflight.targetThreads()).map(QueueingModel::asMap).orElse(null));
        root.put("timeline", timeline(sampler.ticks()));
        root.put("problems", problems(settings, run, sampler));
        return root;
    }

    /**
     * What makes this run's numbers not the server's: the target died or refused connections, or no request
     * succeeded. Empty for a run that counts; ./lab fails a run (or sweep point) with any.
     */
    static List<String> problems(SimulationSettings settings, RunRecorder run, Sampler sampler) {
        List<String> problems = new ArrayList<>();
        if (sampler.targetExitedSecond() != null) {
            problems.add("the target JVM (pid %d) exited %.0f s into the run".formatted(settings.targetPid().getAsLong(),
                    sampler.targetExitedSecond()));
        }
        if (sampler.serverRefusals() > 0) {
            problems.add("the target refused connections from %.0f s into the run on (%d of its samples): it was down"
                    .formatted(sampler.firstRefusalSecond(), sampler.serverRefusals()));
        }
        long total = run.ok() + run.ko();
        if (total == 0) {
            problems.add("no request completed");
        }
        else if (run.ok() == 0) {
            problems.add("every request failed (%,d KO: %s)".formatted(run.ko(), run.koByReason()));
        }
        return problems;
    }

    /** The problems a result file records (none for files written before they were). */
    public static List<String> problems(Path file) {
        List<String> problems = new ArrayList<>();
        read(file).path("problems").forEach(p -> problems.add(p.asString()));
        return problems;
    }

    /** The samples as columns and rows; NaN (no reading) becomes null. */
    private static Map<String, Object> timeline(List<Sampler.Tick> ticks) {
        List<String> columns = Arrays.stream(Sampler.Tick.class.getRecordComponents()).map(RecordComponent::getName).toList();
        List<List<Object>> rows = new ArrayList<>();
        for (Sampler.Tick t : ticks) {
            List<Object> row = new ArrayList<>();
            for (RecordComponent c : Sampler.Tick.class.getRecordComponents()) {
                try {
                    Object v = c.getAccessor().invoke(t);
                    row.add(v instanceof Double d ? (d.isNaN() ? null : Math.round(d * 1000) / 1000.0) : v);
                }
                catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            }
            rows.add(row);
        }
        return Map.of("columns", columns, "rows", rows);
    }

    /** The model for these settings, when the path names a latency. */
    public static Optional<QueueingModel> model(SimulationSettings s, OptionalInt threads) {
        if (s.latencyMs().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new QueueingModel(s.users(), s.latencyMs().getAsLong(), s.thinkMean().toMillis(), threads,
                s.ramp().toSeconds(), s.repeat()));
    }

    static Map<String, Object> percentiles(Histogram h) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("count", h.getTotalCount());
        for (Object[] p : PERCENTILES) {
            m.put((String) p[0], h.getTotalCount() == 0 ? null : h.getValueAtPercentile((Double) p[1]));
        }
        m.put("max", h.getTotalCount() == 0 ? null : h.getMaxValue());
        m.put("mean", h.getTotalCount() == 0 ? null : h.getMean());
        return m;
    }

    public static String encode(Histogram h) {
        ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int length = h.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length));
    }

    public static Histogram decode(String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        }
        catch (java.util.zip.DataFormatException e) {
            throw new IllegalArgumentException("not an encoded HdrHistogram", e);
        }
    }

    public static void write(Map<String, Object> result, Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            JSON.writeValue(file.toFile(), result);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static JsonNode read(Path file) {
        return JSON.readTree(file.toFile());
    }

    /**
     * Where a run's result goes unless sim.result.file says otherwise: into the report folder Gatling made for this
     * run (the newest folder under target/gatling holding a simulation.log started after the run began), so the HTML
     * report and result.json sit side by side.
     */
    public static Path defaultLocation(Path resultsRoot, Instant runStart) {
        try (Stream<Path> runs = Files.list(resultsRoot)) {
            return runs.filter(d -> Files.isRegularFile(d.resolve("simulation.log")))
                    .filter(d -> modified(d.resolve("simulation.log")) >= runStart.toEpochMilli() - 1000)
                    .max(Comparator.comparingLong(d -> modified(d.resolve("simulation.log"))))
                    .map(d -> d.resolve(NAME))
                    .orElse(resultsRoot.resolve("result-" + runStart.toEpochMilli() + ".json"));
        }
        catch (IOException e) {
            return resultsRoot.resolve("result-" + runStart.toEpochMilli() + ".json");
        }
    }

    private static long modified(Path p) {
        try {
            return Files.getLastModifiedTime(p).toMillis();
        }
        catch (IOException e) {
            return 0;
        }
    }
}
