package dev.latencylab.lab.run;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.latencylab.load.launch.LaunchFile;
import dev.latencylab.load.settings.TargetPorts;
import java.util.stream.Stream;

/**
 * A target service in its own JVM, started from its jar with the JDK this runner runs on, stopped by PID. It counts as
 * started only when the server answering on its ports is this very JVM (the PID its actuator reports), so that a
 * run never measures another process that holds the port.
 */
public final class TargetProcess implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private static final Pattern PID = Pattern.compile("\"pid\"\\s*:\\s*([0-9]+)");
    /** Every target JVM of this runner still alive, so that a signal can end them all, started or starting. */
    private static final Set<TargetProcess> LIVE = ConcurrentHashMap.newKeySet();

    private final Process process;
    private final int port;
    private final Path log;
    /** https when it serves TLS (its properties name a key store), else http. */
    private final String scheme;

    /** When its JVM was started. */
    private final java.time.Instant startedAt = java.time.Instant.now();

    private TargetProcess(Process process, int port, Path log, String scheme) {
        this.process = process;
        this.port = port;
        this.log = log;
        this.scheme = scheme;
    }

    /** The Spring property of the key store a target serves TLS with (RunCertificate). */
    static final String KEY_STORE = "server.ssl.key-store";

    /** No quiet period when the event loops end (measured: a WebFlux target exited 2.36 s after SIGTERM, with it 0.37 s). */
    static final String REACTOR_NETTY_QUIET_PERIOD = "-Dreactor.netty.ioShutdownQuietPeriod=0";
    /** How often a starting target's health is asked: its start ends at an unknown moment, and each wait adds to a run. */
    private static final long HEALTH_POLL_MS = 50;

    /**
     * Starts the module's jar with the given properties and environment, and waits until /actuator/health is UP.
     *
     * @throws TargetFailedException when the port is taken, the JVM exits, or it is not healthy in time
     */

    public static TargetProcess start(Path repo, String module, int port, Map<String, String> properties,
            Map<String, String> environment, List<String> jvmOptions, Path log, Duration startTimeout) {
        return start(repo, module, null, List.of(), port, properties, environment, jvmOptions, log, startTimeout);
    }

    /**
     * The same on another JDK than the build's (jdk; null: the build's): its jar, as java -jar, since the AOT cache the
     * build trained is only for the JDK that trained it; with jars put before its own on its class path (first: a JDBC
     * driver of another version, Target#classpathFirst), each of which must exist.
     */
    public static TargetProcess start(Path repo, String module, Jdk jdk, List<Path> first, int port, Map<String, String> properties,
            Map<String, String> environment, List<String> jvmOptions, Path log, Duration startTimeout) {
        for (Path jar : first) {
            if (!Files.isRegularFile(jar)) {
                throw new TargetFailedException("no " + jar + ": build it with ./mvnw -DskipTests package");
            }
        }
        requireFreePort(port);
        requireFreePort(managementPort(port));
        List<String> command = new ArrayList<>();
        // the JDK this runner runs on (the one the build selected, >= 21) unless another is given
        command.add(jdk == null ? LaunchFile.javaExecutable() : jdk.java().toString());
        // Reactor Netty (WebFlux, and its downstream client) waits a 2 s quiet period before its event loops end,
        // after the graceful shutdown has let every request finish: the lab waits for the JVM's exit, 2 s per stop
        command.add(REACTOR_NETTY_QUIET_PERIOD);
        command.addAll(jvmOptions);
        List<String> launch = jdk == null ? launch(repo, module) : List.of("-jar", jar(repo, module).toString());
        command.addAll(first.isEmpty() ? launch : withFirst(launch, first));
        command.add("--server.port=" + port);
        command.add("--management.server.port=" + managementPort(port));
        // the target ends itself when this runner is gone, even killed by SIGKILL (ParentWatch in hello-contract)
        command.add("--latency-lab.parent-pid=" + ProcessHandle.current().pid());
        properties.forEach((k, v) -> command.add("--" + k + "=" + v));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(environment);
        Process process;
        try {
            Files.createDirectories(log.toAbsolutePath().getParent());
            Files.writeString(log, String.join(" ", command) + System.lineSeparator()); // how it was started, as gatling.log
            process = builder.start();
        }
        catch (IOException e) {
            throw new TargetFailedException("cannot start " + String.join(" ", command) + ": " + e.getMessage());
        }
        TargetProcess target = new TargetProcess(process, port, log, properties.containsKey(KEY_STORE) ? "https" : "http");
        LIVE.add(target);
        try {
            target.awaitHealthy(startTimeout);
        }
        catch (RuntimeException e) {
            target.close();
            throw e;
        }
        return target;
    }

    /**
     * The JVM arguments that start the module's service, from its target/launch.txt (written by the build: its
     * extracted jar with an AOT cache on JDK 25+, else its jar; tools/TargetLaunch.java).
     */
    static List<String> launch(Path repo, String module) {
        Path file = repo.resolve(module).resolve("target").resolve("launch.txt");
        try {
            List<String> launch = Files.readAllLines(file);
            List<Path> jars = launch.stream().filter(a -> a.endsWith(".jar")).map(Path::of).toList();
            if (jars.isEmpty() || !jars.stream().allMatch(Files::isRegularFile)) {
                throw new TargetFailedException(file + " names no jar that exists: build again with ./mvnw -DskipTests package");
            }
            return launch;
        }
        catch (IOException e) {
            throw new TargetFailedException("no " + file + ": build it with ./mvnw -DskipTests package");
        }
    }

    /**
     * A launch as java -cp FIRST:JAR MAIN instead of java -jar JAR: the jars first are searched before the jar and the
     * jars its manifest names (a Spring Boot jar's launcher, or an extracted jar's lib/, load through the application
     * class loader's parent first). Without its AOT cache, which was trained on the jar's class path alone.
     */
    static List<String> withFirst(List<String> launch, List<Path> first) {
        int jarAt = launch.indexOf("-jar");
        Path jar = Path.of(launch.get(jarAt + 1));
        String main;
        try (java.util.jar.JarFile file = new java.util.jar.JarFile(jar.toFile())) {
            main = file.getManifest().getMainAttributes().getValue("Main-Class");
        }
        catch (IOException e) {
            throw new TargetFailedException("cannot read " + jar + "'s manifest: " + e.getMessage());
        }
        List<String> rewritten = new ArrayList<>(launch.subList(0, jarAt).stream().filter(a -> !a.startsWith("-XX:AOTCache=")).toList());
        List<String> classPath = new ArrayList<>(first.stream().map(Path::toString).toList());
        classPath.add(jar.toString());
        rewritten.addAll(List.of("-cp", String.join(java.io.File.pathSeparator, classPath), main));
        rewritten.addAll(launch.subList(jarAt + 2, launch.size()));
        return rewritten;
    }

    /** The module's jar, as a user starts it with java -jar. */
    public static Path jar(Path repo, String module) {
        Path targetDir = repo.resolve(module).resolve("target");
        try (Stream<Path> files = Files.list(targetDir)) {
            return files.filter(p -> p.getFileName().toString().matches(module + "-.*\\.jar"))
                    .filter(p -> !p.getFileName().toString().endsWith("-tests.jar"))
                    .findFirst()
                    .orElseThrow(() -> new TargetFailedException("no jar in " + targetDir + ": build it with ./mvnw -DskipTests package"));
        }
        catch (IOException e) {
            throw new TargetFailedException("no " + targetDir + ": build it with ./mvnw -DskipTests package");
        }
    }

    static void requireFreePort(int port) {
        // another process's check binds a free port for an instant (FreePorts.free): a port taken is asked again for
        // 2 s before it counts as another process's (seen once in CI: taken, and no process held it a moment later)
        for (int i = 0; i < 10 && !FreePorts.free(port); i++) {
            sleep(200);
        }
        if (!FreePorts.free(port)) {
            throw new TargetFailedException("port %d is in use by another process%s: stop it, or choose other ports".formatted(port,
                    PortHolder.of(port).map(holder -> " (" + holder + ")").orElse("")));
        }
    }

    private void awaitHealthy(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new TargetFailedException("target exited with code %d before it was healthy%s; see %s"
                        .formatted(process.exitValue(), whyInLog(), log));
            }
            try {
                HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(metricsUrl() + "/actuator/health"))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200 && r.body().contains("\"UP\"")) {
                    requireOwnPid();
                    return;
                }
            }
            catch (IOException e) {
                // not listening yet
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TargetFailedException("interrupted while waiting for the target");
            }
            sleep(HEALTH_POLL_MS);
        }
        throw new TargetFailedException("target not healthy after %d s; see %s".formatted(timeout.toSeconds(), log));
    }

    /** Spring Boot's "Description:" of a failed start (e.g. "Web server failed to start. Port 8092 was already in use."). */
    private String whyInLog() {
        try {
            List<String> lines = Files.readAllLines(log);
            int at = lines.indexOf("Description:");
            return at >= 0 && at + 2 < lines.size() ? ": " + lines.get(at + 2).strip() : "";
        }
        catch (IOException e) {
            return "";
        }
    }

    /** The healthy server must be this JVM: another process may have taken the ports between our check and its bind. */
    private void requireOwnPid() throws IOException, InterruptedException {
        HttpResponse<String> info = HTTP.send(HttpRequest.newBuilder(URI.create(metricsUrl() + "/actuator/info"))
                .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
        Matcher m = PID.matcher(info.body());
        String answering = info.statusCode() == 200 && m.find() ? "pid " + m.group(1) : "a server that does not report its PID";
        if (!answering.equals("pid " + process.pid())) {
            throw new TargetFailedException(("ports %d/%d are served by another process (%s), not by the target this run "
                    + "started (pid %d, which could not bind them; see %s): stop that process, or choose other ports")
                    .formatted(port, managementPort(port), answering, process.pid(), log));
        }
    }

    public String baseUrl() {
        return scheme + "://localhost:" + port;
    }

    /** The actuator's own port (the targets' convention; passed explicitly, so that it never depends on their defaults). */
    public static int managementPort(int port) {
        return TargetPorts.managementPort(port);
    }

    public String metricsUrl() {
        return TargetPorts.localUrl(managementPort(port));
    }

    public long pid() {
        return process.pid();
    }

    /** When its JVM was started (a moment after: the process had been started when this was made). */
    public java.time.Instant startedAt() {
        return startedAt;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Ends every target JVM this runner started and has not stopped yet (a signal to the runner). */
    public static void closeAll() {
        LIVE.forEach(TargetProcess::close);
    }

    /**
     * Ends the JVM at once (SIGKILL) and waits for it: for a target whose state after its measurement does not count,
     * where a graceful stop would wait out every request it still holds.
     */
    public void kill() {
        LIVE.remove(this);
        try {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the JVM (see {@link #stop}). */
    @Override
    public void close() {
        LIVE.remove(this);
        stop(process);
    }

    /** How long a target's JVM has to end on SIGTERM before it is killed: a jar's default, one owner for both. */
    static final Duration STOP_GRACE = ServiceSpec.stopTimeout(null);

    /** Stops a target's JVM (SIGTERM, then SIGKILL after STOP_GRACE) and waits for it; returns whether it had to be killed. */
    static boolean stop(Process process) {
        return stop(process, STOP_GRACE);
    }

    /**
     * Stops a JVM the lab started (SIGTERM, then SIGKILL after grace) and waits for it: a target's, or a user's jar.
     * Returns whether it had to be killed.
     */
    static boolean stop(Process process, Duration grace) {
        if (!process.isAlive()) {
            return false;
        }
        process.destroy();
        try {
            if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                return true;
            }
            return false;
        }
        catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            return true;
        }
    }

    public static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TargetFailedException("interrupted");
        }
    }

    /** Why a target could not be used; the sweep records it and goes on. */
    public static class TargetFailedException extends RuntimeException {
        public TargetFailedException(String message) {
            super(message);
        }
    }
}
