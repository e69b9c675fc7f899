package dev.latencylab.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.stream.Stream;

import org.HdrHistogram.Histogram;

/**
 * The machine-readable outcome of one simulation run (Gatling 3.16 writes none): parameters, counts, throughput,
 * percentiles and the encoded histogram, injector and server samples, and the model's numbers for the run.
 */
public final class ResultFile {

    public static final String SCHEMA = "latency-lab/result/1";
    public static final String NAME = "result.json";
    /** The simulation's console line once the file is written (the target is no longer needed): this, then its path. */
    public static final String WRITTEN = "latency-lab: result file ";
    /** Samples with at least this share of the peak of active users make up the plateau (full population). */
    static final double PLATEAU_SHARE = 0.95;

    private ResultFile() {
    }

    /** The model's throughput at another rate of the same run (a level of a ladder). */
    static double modelThroughput(OpenModel model, double rate) {
        return new OpenModel(rate, model.latencyMs(), model.threads(), model.levelSeconds()).throughput();
    }

    /**
     * The whole seconds of a plateau, from the second of its first sample up to (not including) that of its last, and
     * the mean completions and OK responses per second in them (null when that is no whole second). One rule for a
     * run's plateau and for a merged one (ResultMerge).
     */
    record PlateauSeconds(int from, int to, Double throughput, Double goodput) {

        static final PlateauSeconds NONE = new PlateauSeconds(0, 0, null, null);

        static PlateauSeconds of(double firstSample, double lastSample, long[] perSecond, long[] okPerSecond) {
            int from = (int) Math.floor(firstSample);
            int to = Math.min((int) Math.floor(lastSample), perSecond.length);
            return to > from ? new PlateauSeconds(from, to, Arrays.stream(perSecond, from, to).average().orElse(0),
                    Arrays.stream(okPerSecond, from, to).average().orElse(0)) : new PlateauSeconds(from, to, null, null);
        }
    }

    /** The mean of a per-second series over the whole seconds within from..to (those the run reached); null if none. */
    public static Double meanOfWholeSeconds(long[] perSecond, double from, double to) {
        int first = (int) Math.ceil(from);
        int end = Math.min((int) Math.floor(to), perSecond.length);
        return end <= first ? null : Arrays.stream(perSecond, first, end).average().orElse(0);
    }

    /** An open run's plateau: the highest level it reached, the seconds its arrivals were due in. */
    /** Whether a sample (its second on the run's clock, its active users if known) is on the plateau. */
    interface PlateauRule {
        boolean test(double second, Double activeUsers);
    }

    /**
     * The plateau's one rule, for a run's samples here and for a merge's summed rows (ResultMerge): an open run's is its
     * highest level reached (the seconds its arrivals were due in), a closed run's the samples with at least
     * {@link #PLATEAU_SHARE} of the peak of active users (its full population).
     */
    static PlateauRule plateauRule(Result.Open open, double peakActiveUsers) {
        if (open != null) {
            Result.Level top = open.topLevel();
            return (second, active) -> top != null && second >= top.window().fromSecond() && second <= top.window().toSecond();
        }
        return (second, active) -> peakActiveUsers > 0 && active != null && active >= PLATEAU_SHARE * peakActiveUsers;
    }

    static Result.ResponseTimes percentiles(Histogram h) {
        boolean none = h.getTotalCount() == 0;
        return new Result.ResponseTimes(h.getTotalCount(), none ? null : h.getValueAtPercentile(50),
                none ? null : h.getValueAtPercentile(75), none ? null : h.getValueAtPercentile(95),
                none ? null : h.getValueAtPercentile(99), none ? null : h.getValueAtPercentile(99.9),
                none ? null : h.getMaxValue(), none ? null : h.getMean());
    }

    /** The problems a result file records (none for files written before they were). */
    public static List<String> problems(Path file) {
        return read(file).problems();
    }

    /** A histogram as the result file stores it. */
    static Result.EncodedHistogram encoded(Histogram h) {
        return new Result.EncodedHistogram(ResultCheck.UNIT, ResultCheck.ENCODING, encode(h));
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

    /** rw-r--r--, as every other file the lab writes (a temporary file's default is rw-------). */
    static final java.nio.file.attribute.FileAttribute<?> READABLE =
            java.nio.file.attribute.PosixFilePermissions.asFileAttribute(java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));

    /** Writes the whole file or nothing: a sibling file, renamed over the target once complete. */
    public static void write(Result result, Path file) {
        write(result, file, true);
    }

    /**
     * Writes a file that must not exist: the whole file or nothing, and never over a file another process wrote in
     * the meantime (the complete sibling is hard-linked to the name, which fails when the name is taken).
     *
     * @throws java.nio.file.FileAlreadyExistsException (unchecked, as UncheckedIOException's cause) when it exists
     */
    public static void writeNew(Result result, Path file) {
        write(result, file, false);
    }

    private static void write(Result result, Path file, boolean replace) {
        try {
            Path dir = file.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path partial = Files.createTempFile(dir, file.getFileName().toString(), ".partial", READABLE);
            try {
                Json.MAPPER.writeValue(partial.toFile(), result);
                if (replace) {
                    Files.move(partial, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                }
                else {
                    Files.createLink(file, partial);
                }
            }
            finally {
                Files.deleteIfExists(partial);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A result file of this schema or an earlier one of the same major version, whose arithmetic holds (see
     * {@link ResultCheck}); unknown fields are refused.
     *
     * @throws BadResultFile naming the file and what is wrong with it
     */
    public static Result read(Path file) {
        Result r;
        try {
            r = Json.MAPPER.readValue(file.toFile(), Result.class);
        }
        catch (tools.jackson.core.JacksonException e) {
            throw new BadResultFile(file, "not a result file of this version: " + e.getOriginalMessage());
        }
        List<String> problems = ResultCheck.problems(r);
        if (!problems.isEmpty()) {
            throw new BadResultFile(file, String.join("; ", problems));
        }
        return r;
    }

    /** A result file that cannot be read or does not add up: one line, naming the file and the field. */
    public static final class BadResultFile extends IllegalArgumentException {
        BadResultFile(Path file, String why) {
            super(file + ": " + why);
        }
    }

    /**
     * gatling:test's results folder (gatling-scripts/pom.xml), given to Maven and passed on to the simulation's JVM:
     * each injector of a split run on one file system needs its own.
     */
    public static final String RESULTS_FOLDER = "gatling.resultsFolder";
    private static final String DEFAULT_RESULTS_FOLDER = "target/gatling";

    /**
     * Where a run's result goes unless sim.result.file says otherwise: into the report folder Gatling made for this
     * run (the newest folder under gatling.resultsFolder holding a simulation.log started after the run began), so the
     * HTML report and result.json sit side by side.
     */
    public static Path defaultLocation(Instant runStart) {
        Path resultsRoot = Path.of(System.getProperty(RESULTS_FOLDER, DEFAULT_RESULTS_FOLDER));
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
