import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Writes a target's launch file (package phase, on the JDK the toolchain selected, which the runner and its targets run
 * on too): the JVM arguments that start the service, one a line, read by the runner's TargetProcess.
 *
 * <p>On JDK 25 or newer, the service starts from its jar as Spring Boot's tools jar mode extracts it, with an AOT cache
 * (JEP 483, made in one step as JEP 514 allows) trained on the start of its context, as Spring Boot's documentation
 * describes: measured here, the MVC target was up in 1.8 s instead of 4.2 s. The cache holds the classes loaded and
 * linked while the context starts, not the code that serves requests, which the JIT compiles as before. The cache is
 * made again only when the jar's bytes change. On an older JDK, with -Dlatency-lab.aot=false, or when the training fails
 * (a warning says why), the service starts from its jar as {@code java -jar} starts it.
 *
 * <p>A single-file program run with {@code java TargetLaunch.java}: both targets use it, neither ships it.
 *
 * @see <a href="https://docs.spring.io/spring-boot/reference/packaging/class-data-sharing.html">Spring Boot: CDS and AOT cache</a>
 */
public final class TargetLaunch {

    /**
     * The database and downstream a target is given by the runner, at a port where nothing listens: the training loads
     * their clients' classes as the db and http targets do (a pool connects at the first request, not at the start).
     */
    private static final String NOWHERE_JDBC = "jdbc:postgresql://127.0.0.1:1/postgres";
    private static final String NOWHERE_R2DBC = "r2dbc:postgresql://127.0.0.1:1/postgres";
    private static final String NOWHERE_HTTP = "http://127.0.0.1:1";
    /** The training starts the context once: seconds here; a hang ends the training, not the build. */
    private static final Duration TRAINING_TIMEOUT = Duration.ofMinutes(3);

    /**
     * @param args the service's jar, the launch file to write, whether to use an AOT cache (true/false), and the flight
     *             recording's settings the runner starts every target with (jvm-events.jfc)
     */
    public static void main(String[] args) throws Exception {
        Path jar = Path.of(args[0]).toAbsolutePath();
        Path file = Path.of(args[1]).toAbsolutePath();
        boolean aot = Boolean.parseBoolean(args[2]);
        Path recording = Path.of(args[3]).toAbsolutePath();
        Path folder = file.resolveSibling("aot");
        List<String> launch = List.of("-jar", jar.toString());
        if (!aot) {
            delete(folder);
            System.out.println("[INFO] " + jar.getFileName() + ": starts from its jar (latency-lab.aot=false)");
        }
        else if (Runtime.version().feature() < 25) {
            delete(folder);
            System.out.println("[INFO] " + jar.getFileName() + ": starts from its jar (an AOT cache needs JDK 25+; this is "
                    + Runtime.version().feature() + ")");
        }
        else {
            launch = trained(jar, folder, recording);
        }
        Files.write(file, launch);
    }

    /**
     * The extracted jar with its cache, made again only when the jar or the recording's settings changed; the jar alone
     * if the training fails. The training runs with the flight recording the runner starts targets with: JFR's own
     * classes then come from the cache too (measured: WebFlux up in 3.3–3.6 s with the recording and a cache trained
     * without it, 1.7 s with one trained with it, 1.8 s without the recording). Such a cache holds the module jdk.jfr,
     * so every start from it names the module, recording or not (a start without it refuses the cache: "Mismatched
     * values for property jdk.module.addmods").
     */
    private static List<String> trained(Path jar, Path folder, Path recording) throws IOException, InterruptedException {
        Path extracted = folder.resolve("app");
        Path app = extracted.resolve(jar.getFileName());
        Path cache = folder.resolve("app.aot");
        Path digestFile = folder.resolve("jar.sha256");
        String digest = sha256(jar) + " " + sha256(recording);
        // the cache's module graph holds jdk.jfr (the training recorded): a start without it would refuse the cache
        List<String> launch = List.of("-XX:AOTCache=" + cache, "--add-modules=jdk.jfr", "-jar", app.toString());
        if (Files.isRegularFile(cache) && Files.isRegularFile(app) && Files.isRegularFile(digestFile)
                && Files.readString(digestFile).equals(digest)) {
            System.out.println("[INFO] " + jar.getFileName() + ": AOT cache up to date (" + cache + ")");
            return launch;
        }
        delete(folder);
        Files.createDirectories(folder);
        Path log = folder.resolve("training.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        if (!ran(log, java, "-Djarmode=tools", "-jar", jar.toString(), "extract", "--destination", extracted.toString())
                || !ran(log, java, "-XX:AOTCacheOutput=" + cache, "-XX:StartFlightRecording=settings=" + recording,
                        "-Dspring.context.exit=onRefresh", "-jar", app.toString(),
                        "--server.port=0", "--management.server.port=0", "--spring.datasource.url=" + NOWHERE_JDBC,
                        "--spring.r2dbc.url=" + NOWHERE_R2DBC, "--downstream.url=" + NOWHERE_HTTP)
                || !Files.isRegularFile(cache)) {
            System.out.println("[WARNING] " + jar.getFileName() + ": no AOT cache (see " + log + "); the service starts from its"
                    + " jar, about 2 s slower");
            return List.of("-jar", jar.toString());
        }
        Files.writeString(digestFile, digest);
        System.out.println("[INFO] " + jar.getFileName() + ": AOT cache trained on the context's start (" + cache + ")");
        return launch;
    }

    private static boolean ran(Path log, String... command) throws IOException, InterruptedException {
        Files.writeString(log, String.join(" ", command) + System.lineSeparator(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        if (!process.waitFor(TRAINING_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            return false;
        }
        return process.exitValue() == 0;
    }

    private static String sha256(Path file) throws IOException {
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest());
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void delete(Path folder) throws IOException {
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
