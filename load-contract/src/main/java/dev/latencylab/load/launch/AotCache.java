package dev.latencylab.load.launch;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.sun.net.httpserver.HttpServer;

/**
 * An AOT cache (JEP 483, made in one step as JEP 514 allows) for a JVM a launch file starts, trained on a run of that
 * JVM's own program, for the build (package phase) to add to the launch file: the classes it loads and links, and the
 * profiles of its start, then come from the cache. An AOT cache reads classes from jars only ({@link #jarsFor}). It is
 * trained again only when a jar on its classpath is written again (its size or time, which the JVM checks) or the
 * classpath changes; a training that fails or hangs leaves no cache, and the JVM starts without one as before.
 */
public final class AotCache {

    /** A training is one short run of the program: seconds here; a hang ends the training, not the build. */
    private static final Duration TRAINING_TIMEOUT = Duration.ofMinutes(3);

    /** The cache, and whether it was already up to date (false: trained now). */
    public record Trained(Path file, boolean upToDate) {

        /** The launch it was trained for, starting from it: the launch file the build writes. */
        public LaunchFile.Launch launch(LaunchFile.Launch trainedFor) {
            List<String> options = new ArrayList<>(trainedFor.jvmOptions());
            options.add("-XX:AOTCache=" + file);
            return new LaunchFile.Launch(trainedFor.java(), trainedFor.classpath(), options);
        }
    }

    private AotCache() {
    }

    /** Why the build makes no cache (empty: it does): -Dlatency-lab.aot=false, or a JDK before 25. */
    public static Optional<String> unavailable(boolean wanted) {
        return !wanted ? Optional.of("latency-lab.aot=false")
                : Runtime.version().feature() < 25 ? Optional.of("it needs JDK 25+; this is " + Runtime.version().feature()) : Optional.empty();
    }

    /** A service on loopback that answers every request at once with a short body: the load a training runs against. */
    public static HttpServer standIn(Executor threads) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = "hello".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.setExecutor(threads);
        server.start();
        return server;
    }

    /**
     * A classpath with the build's class folders replaced by their jars.
     *
     * @param jars each class folder (target/classes, target/test-classes) and the jar holding the same classes
     */
    public static String jarsFor(String classpath, Map<Path, Path> jars) {
        return Arrays.stream(classpath.split(File.pathSeparator))
                .map(entry -> jars.getOrDefault(Path.of(entry).toAbsolutePath(), Path.of(entry)).toString())
                .collect(Collectors.joining(File.pathSeparator));
    }

    /**
     * The cache in this folder, trained now when the launch's jars or classpath changed since its training: the launch's
     * java, its options and classpath, running these arguments (a main class and its arguments).
     *
     * @param launch a launch whose classpath names jars only
     * @param folder the cache's own folder: emptied before a training, which leaves its log there (training.log: the
     *               command, then what the JVM printed)
     * @param name   the cache's file name
     * @return empty when the training failed (its log says why)
     */
    public static Optional<Trained> trained(LaunchFile.Launch launch, Path folder, String name, List<String> program)
            throws IOException, InterruptedException {
        Path cache = folder.resolve(name);
        Path digestFile = folder.resolve(name + ".sha256");
        String digest = digest(launch.classpath());
        if (Files.isRegularFile(cache) && Files.isRegularFile(digestFile) && Files.readString(digestFile).equals(digest)) {
            return Optional.of(new Trained(cache, true));
        }
        deleteTree(folder);
        Files.createDirectories(folder);
        List<String> command = new ArrayList<>(List.of(launch.java()));
        command.addAll(launch.jvmOptions());
        command.addAll(List.of("-XX:AOTCacheOutput=" + cache, "-cp", launch.classpath()));
        command.addAll(program);
        Path log = folder.resolve("training.log");
        Files.writeString(log, String.join(" ", command) + System.lineSeparator());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        boolean ended = process.waitFor(TRAINING_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        if (!ended) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor();
        }
        if (!ended || process.exitValue() != 0 || !Files.isRegularFile(cache)) {
            Files.deleteIfExists(cache); // what a failed program's exit wrote is not a training
            return Optional.empty();
        }
        Files.writeString(digestFile, digest);
        return Optional.of(new Trained(cache, false));
    }

    /**
     * What a cache is valid for, as the JVM checks it when it opens one: the classpath, and each jar's size and time of
     * writing. A jar written again, even with the same bytes, makes the JVM refuse the cache ("[error][aot] ... timestamp
     * has changed", printed on every start, each start then without it): such a jar trains the cache again.
     */
    private static String digest(String classpath) throws IOException {
        StringBuilder key = new StringBuilder(classpath);
        for (String entry : classpath.split(File.pathSeparator)) {
            Path p = Path.of(entry);
            if (Files.isRegularFile(p)) {
                key.append('\n').append(Files.size(p)).append(' ').append(Files.getLastModifiedTime(p).toMillis());
            }
        }
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.toString().getBytes(StandardCharsets.UTF_8)));
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void deleteTree(Path folder) throws IOException {
        if (!Files.exists(folder)) {
            return;
        }
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
