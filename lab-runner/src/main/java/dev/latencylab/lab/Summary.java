package dev.latencylab.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;
import tools.jackson.databind.JsonNode;

/**
 * One row per sweep point, every headline number taken from the point's result.json, plus the flags that say how far
 * to trust it. Written as summary.csv; the page is drawn from the same rows.
 */
public final class Summary {

    /** Machine CPU at or above this share of all cores, on the plateau, counts as CPU-bound. */
    static final double CPU_BOUND = 0.90;
    /** Open files at or above this share of the limit count as near it. */
    static final double FILES_NEAR_LIMIT = 0.90;
    /** Throughput further than this from the model, with nothing saturated, is a disagreement to explain. */
    static final double MODEL_TOLERANCE = 0.10;

    /**
     * @param throughput      req/s on the plateau (all users active), or the run's mean when it never had one
     * @param modelThroughput the model's figure for the same: N/(L+Z) capped at T/L on the plateau, else the run's mean bound
     */
    public record Row(String point, String target, int users, long latencyMs, String status, String reason,
            Integer poolThreads, String connectionSettings, String connections, Double throughput, Double throughputMean,
            Long throughputPeak, Long p50Ms, Long p75Ms, Long p95Ms, Long p99Ms, Long p999Ms, Long maxMs, Long requests,
            Long ko, Double koPercent, String topKoReason, Double serverPeakThreads, Double serverPeakBusyThreads,
            Double serverCpu, Double injectorCpu, Double machineCpu, Double serverPeakHeapMb, Double injectorPeakOpenFiles,
            Double serverPeakOpenFiles, Double modelOfferedLoad, Double modelPoolBound, Double modelThroughput,
            Double modelKneeUsers, Double modelResponseMs, Boolean modelSaturated, String flags, String report,
            Long wallSeconds) {
    }

    private Summary() {
    }

    /** The rows of every point folder under the sweep, sorted by latency, target, users. */
    public static List<Row> rows(SweepFolder sweep) {
        if (!Files.isDirectory(sweep.points())) {
            return List.of();
        }
        try (Stream<Path> dirs = Files.list(sweep.points())) {
            return dirs.map(RunFolder::new).filter(d -> Files.isRegularFile(d.pointRecord()))
                    .map(d -> row(sweep, d))
                    .sorted(Comparator.comparingLong(Row::latencyMs).thenComparing(Row::target).thenComparingInt(Row::users))
                    .toList();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Row row(SweepFolder sweep, RunFolder pointDir) {
        JsonNode point = Point.read(pointDir);
        String report = Files.isRegularFile(pointDir.reportPage()) ? sweep.dir().relativize(pointDir.reportPage()).toString() : null;
        Long wall = point.path("wallSeconds").isMissingNode() ? null : point.path("wallSeconds").asLong();
        if (!"done".equals(point.path("status").asString())) {
            return new Row(point.path("id").asString(), point.path("target").asString(), point.path("users").asInt(),
                    point.path("latencyMs").asLong(), point.path("status").asString(), point.path("reason").asString(),
                    null, point.path("connectionSettings").asString(), null, null, null, null, null, null, null, null, null,
                    null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                    null, null, "failed", report, wall);
        }
        JsonNode r = dev.latencylab.load.ResultFile.read(pointDir.resultFile());
        JsonNode model = r.path("model");
        JsonNode plateau = r.path("plateau");
        boolean onPlateau = !r.path("throughput").path("plateauPerSecond").isNull()
                && !r.path("throughput").path("plateauPerSecond").isMissingNode();
        Double throughput = onPlateau ? num(r.at("/throughput/plateauPerSecond")) : num(r.at("/throughput/meanPerSecond"));
        Double modelThroughput = model.isNull() || model.isMissingNode() ? null
                : num(model.path(onPlateau ? "throughputAtFullPopulationPerSecond" : "meanThroughputBoundPerSecond"));
        Double machineCpu = onPlateau ? num(plateau.path("machineCpu")) : num(r.at("/injector/machineCpu/mean"));
        Double injectorCpu = onPlateau ? num(plateau.path("injectorCpu")) : num(r.at("/injector/cpu/mean"));
        Double serverCpu = onPlateau ? num(plateau.path("serverCpu")) : num(r.at("/server/cpu/mean"));
        long ko = r.at("/requests/ko").asLong();
        String topReason = null;
        long topCount = 0;
        for (Map.Entry<String, JsonNode> e : r.at("/requests/koByReason").properties()) {
            if (e.getValue().asLong() > topCount) {
                topCount = e.getValue().asLong();
                topReason = e.getKey();
            }
        }
        Boolean saturated = model.isObject() ? model.path("saturated").asBoolean() : null;

        List<String> flags = new ArrayList<>();
        boolean machineBound = machineCpu != null && machineCpu >= CPU_BOUND;
        if (machineBound) {
            flags.add("machine-cpu-bound");
            if (injectorCpu != null && serverCpu != null && injectorCpu >= serverCpu) {
                flags.add("injector-cpu-bound");
            }
        }
        if (r.at("/injector/connectionsSwitched").asBoolean()) {
            flags.add("connections-switched");
        }
        if (near(num(r.at("/injector/openFiles/max")), num(r.at("/injector/openFilesLimit")))
                || near(num(r.at("/server/openFiles/max")), num(r.at("/server/openFilesLimit")))) {
            flags.add("descriptors-near-limit");
        }
        if (ko > 0) {
            flags.add("ko %.1f%% (%s)".formatted(r.at("/requests/koPercent").asDouble(), topReason));
        }
        if (throughput != null && modelThroughput != null && modelThroughput > 0 && !Boolean.TRUE.equals(saturated)
                && !machineBound && Math.abs(throughput - modelThroughput) / modelThroughput > MODEL_TOLERANCE) {
            flags.add("disagrees-with-model");
        }
        Double heap = num(r.at("/server/heapUsedBytes/max"));
        return new Row(point.path("id").asString(), point.path("target").asString(), point.path("users").asInt(),
                point.path("latencyMs").asLong(), "done", null,
                model.isObject() && !model.path("threads").isNull() ? model.path("threads").asInt() : null,
                point.path("connectionSettings").asString(), r.at("/injector/connections").asString(),
                throughput, num(r.at("/throughput/meanPerSecond")), r.at("/throughput/peakPerSecond").asLong(),
                lng(r.at("/responseTimeMs/p50")), lng(r.at("/responseTimeMs/p75")), lng(r.at("/responseTimeMs/p95")),
                lng(r.at("/responseTimeMs/p99")), lng(r.at("/responseTimeMs/p999")), lng(r.at("/responseTimeMs/max")),
                r.at("/requests/total").asLong(), ko, r.at("/requests/koPercent").asDouble(), topReason,
                num(r.at("/server/peakLiveThreads")), num(r.at("/server/busyThreads/max")), serverCpu, injectorCpu,
                machineCpu, heap == null ? null : heap / 1024 / 1024, num(r.at("/injector/openFiles/max")),
                num(r.at("/server/openFiles/max")), model.isObject() ? num(model.path("offeredLoadPerSecond")) : null,
                model.isObject() ? num(model.path("poolBoundPerSecond")) : null, modelThroughput,
                model.isObject() ? num(model.path("kneeUsers")) : null,
                model.isObject() ? num(model.path("responseTimeMsAtFullPopulation")) : null, saturated,
                String.join("; ", flags), report, wall);
    }

    private static boolean near(Double value, Double limit) {
        return value != null && limit != null && limit > 0 && value >= FILES_NEAR_LIMIT * limit;
    }

    private static Double num(JsonNode n) {
        return n == null || n.isNull() || n.isMissingNode() ? null : n.asDouble();
    }

    private static Long lng(JsonNode n) {
        return n == null || n.isNull() || n.isMissingNode() ? null : n.asLong();
    }

    /** One column per Row component, in declaration order; empty cells for missing values. */
    public static void writeCsv(List<Row> rows, Path file) {
        RecordComponent[] columns = Row.class.getRecordComponents();
        CSVFormat format = CSVFormat.DEFAULT.builder()
                .setHeader(Arrays.stream(columns).map(RecordComponent::getName).toArray(String[]::new)).get();
        try (CSVPrinter csv = new CSVPrinter(Files.newBufferedWriter(file), format)) {
            for (Row row : rows) {
                List<Object> values = new ArrayList<>();
                for (RecordComponent c : columns) {
                    values.add(c.getAccessor().invoke(row));
                }
                csv.printRecord(values);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** summary.csv as one map per row, column name to cell. */
    public static List<Map<String, String>> readCsv(Path file) {
        CSVFormat format = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get();
        try (CSVParser csv = CSVParser.parse(file, java.nio.charset.StandardCharsets.UTF_8, format)) {
            return csv.getRecords().stream().map(CSVRecord::toMap).toList();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
