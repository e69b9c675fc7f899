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

import dev.latencylab.load.Result;
import dev.latencylab.load.ResultFile;

/**
 * One row per sweep point, every headline number taken from the point's result.json, plus the flags that say how far
 * to trust it. Written as summary.csv; the page is drawn from the same rows.
 */
public final class Summary {

    /** Machine CPU at or above this share of all cores, on the plateau, counts as CPU-bound. */
    static final double CPU_BOUND = 0.90;
    /** Open files at or above this share of the limit count as near it. */
    static final double FILES_NEAR_LIMIT = 0.90;
    /** CPU (share of all cores) that neither injector nor server used, from which another process counts as busy. */
    static final double ELSEWHERE = 0.10;
    /** Throughput further than this from the model, with nothing saturated, is a disagreement to explain. */
    static final double MODEL_TOLERANCE = 0.10;

    /**
     * @param goodput         OK responses per second on the plateau (all users active), or the run's mean when it never
     *                        had one; null for a file written before goodput
     * @param throughput      completions (OK and KO) per second, the same way
     * @param modelThroughput the model's figure for the same: N/(L+Z) capped at T/L on the plateau, else the run's mean bound
     */
    public record Row(String point, String target, int users, long latencyMs, int run, String status, String reason,
            Integer poolThreads, String connectionSettings, String connections, Double goodput, Double throughput, Double throughputMean,
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
                    point.path("latencyMs").asLong(), point.path("run").asInt(1), point.path("status").asString(),
                    point.path("reason").asString(), null, point.path("connectionSettings").asString(), null, null, null, null, null,
                    null, null, null, null, null,
                    null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                    null, null, "failed", report, wall);
        }
        Result r = ResultFile.read(pointDir.resultFile());
        Result.Model model = r.model();
        Result.Plateau plateau = r.plateau();
        boolean onPlateau = r.throughput().plateauPerSecond() != null;
        Double throughput = onPlateau ? r.throughput().plateauPerSecond() : r.throughput().meanPerSecond();
        Double goodput = onPlateau ? r.throughput().goodputPlateauPerSecond() : r.throughput().goodputMeanPerSecond();
        Double modelThroughput = model == null ? null
                : onPlateau ? model.throughputAtFullPopulationPerSecond() : model.meanThroughputBoundPerSecond();
        Double machineCpu = onPlateau ? plateau.machineCpu() : r.injector().machineCpu().mean();
        Double injectorCpu = onPlateau ? plateau.injectorCpu() : r.injector().cpu().mean();
        Double serverCpu = onPlateau ? plateau.serverCpu() : r.server().cpu().mean();
        long ko = r.requests().ko();
        String topReason = null;
        long topCount = 0;
        for (Map.Entry<String, Long> e : r.requests().koByReason().entrySet()) {
            if (e.getValue() > topCount) {
                topCount = e.getValue();
                topReason = e.getKey();
            }
        }
        Boolean saturated = model == null ? null : model.saturated();

        List<String> flags = new ArrayList<>();
        boolean machineBound = machineCpu != null && machineCpu >= CPU_BOUND;
        if (machineBound) {
            flags.add("machine-cpu-bound");
        }
        if (busyElsewhere(machineCpu, injectorCpu, serverCpu)) {
            flags.add("machine-busy-elsewhere"); // the injector is not to blame then
        }
        else if (machineBound && injectorCpu != null && serverCpu != null && injectorCpu >= serverCpu) {
            flags.add("injector-cpu-bound");
        }
        if (r.injector().connectionsSwitched()) {
            flags.add("connections-switched");
        }
        if (near(r.injector().openFiles().max(), (double) r.injector().openFilesLimit())
                || near(r.server().openFiles().max(), r.server().openFilesLimit())) {
            flags.add("descriptors-near-limit");
        }
        if (ko > 0) {
            flags.add("ko %.1f%% (%s)".formatted(r.requests().koPercent(), topReason));
        }
        if (throughput != null && modelThroughput != null && modelThroughput > 0 && !Boolean.TRUE.equals(saturated)
                && !machineBound && Math.abs(throughput - modelThroughput) / modelThroughput > MODEL_TOLERANCE) {
            flags.add("disagrees-with-model");
        }
        Double heap = r.server().heapUsedBytes().max();
        Result.ResponseTimes ms = r.responseTimeMs();
        return new Row(point.path("id").asString(), point.path("target").asString(), point.path("users").asInt(),
                point.path("latencyMs").asLong(), point.path("run").asInt(1), "done", null, model == null ? null : model.threads(),
                point.path("connectionSettings").asString(), r.injector().connections(),
                goodput, throughput, r.throughput().meanPerSecond(), r.throughput().peakPerSecond(),
                ms.p50(), ms.p75(), ms.p95(), ms.p99(), ms.p999(), ms.max(),
                r.requests().total(), ko, r.requests().koPercent(), topReason,
                r.server().peakLiveThreads(), r.server().busyThreads().max(), serverCpu, injectorCpu,
                machineCpu, heap == null ? null : heap / 1024 / 1024, r.injector().openFiles().max(),
                r.server().openFiles().max(), model == null ? null : model.offeredLoadPerSecond(),
                model == null ? null : model.poolBoundPerSecond(), modelThroughput,
                model == null ? null : model.kneeUsers(),
                model == null ? null : model.responseTimeMsAtFullPopulation(), saturated,
                String.join("; ", flags), report, wall);
    }

    /** Another process used at least ELSEWHERE of the machine, and more than injector and server together. */
    static boolean busyElsewhere(Double machineCpu, Double injectorCpu, Double serverCpu) {
        if (machineCpu == null || injectorCpu == null || serverCpu == null) {
            return false;
        }
        double ours = injectorCpu + serverCpu;
        double elsewhere = machineCpu - ours;
        return elsewhere >= ELSEWHERE && elsewhere > ours;
    }

    private static boolean near(Double value, Double limit) {
        return value != null && limit != null && limit > 0 && value >= FILES_NEAR_LIMIT * limit;
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
