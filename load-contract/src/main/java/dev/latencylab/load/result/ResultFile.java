package dev.latencylab.load.result;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The machine-readable outcome of one simulation run (Gatling 3.16 writes none): parameters, counts, throughput,
 * percentiles and the encoded histogram, injector and server samples, and the model's numbers for the run.
 */
public final class ResultFile {

    public static final String SCHEMA = "latency-lab/result/1";
    public static final String NAME = "result.json";
    /** Jackson 3 ignores a field it does not know by default: a result file's is refused (a misspelt edit, another schema's). */
    private static final tools.jackson.databind.ObjectReader STRICT = Json.MAPPER.readerFor(Result.class)
            .with(tools.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** The simulation's console line once the file is written (the target is no longer needed): this, then its path. */
    public static final String WRITTEN = "latency-lab: result file ";

    private ResultFile() {
    }

    /** The problems a result file records (none for files written before they were). */
    public static List<String> problems(Path file) {
        return read(file).problems();
    }

    /** rw-r--r--, as every other file the lab writes (a temporary file's default is rw-------). */
    static final java.nio.file.attribute.FileAttribute<?> READABLE = java.nio.file.attribute.PosixFilePermissions
            .asFileAttribute(java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));

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
            r = STRICT.readValue(file.toFile());
        }
        catch (tools.jackson.core.JacksonException e) {
            throw new BadResultFile(file, "not a result file of this version: " + why(e));
        }
        List<String> problems = ResultCheck.problems(r);
        if (!problems.isEmpty()) {
            throw new BadResultFile(file, String.join("; ", problems));
        }
        return r;
    }

    /**
     * What the reader found wrong, in the file's words: the field (its path) and why, without the reader's settings
     * that would allow it (a user edits the file, not the reader).
     */
    static String why(tools.jackson.core.JacksonException e) {
        String field = e.getPath().stream().map(r -> r.getPropertyName() != null ? r.getPropertyName() : "[" + r.getIndex() + "]")
                .collect(java.util.stream.Collectors.joining(".")).replace(".[", "[");
        String message = e.getOriginalMessage();
        String reason = message.startsWith("Non-standard token") ? "a number that is not one (%s); give a number"
                .formatted(message.replaceAll("^Non-standard token '([^']*)'.*", "$1"))
                : message.startsWith("Cannot map `null`") ? "missing, or null; it is required"
                : message.replaceAll(" ?\\(set `[^`]*` to '[^']*' to allow\\)| ?: enable `[^`]*` to allow", "").replace("`", "");
        String where = !field.isEmpty() ? field + ": "
                : e.getLocation() != null && e.getLocation().getLineNr() > 0 ? "line %d: ".formatted(e.getLocation().getLineNr()) : "";
        return where + reason;
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
