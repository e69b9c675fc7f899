package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.lab.layout.Folders;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.lab.flow.ExitCode;

/**
 * A service of the user's loaded as the fourth adversarial trial loaded one (issue 58), through ./lab: a secret
 * header reaches the service and nowhere else (no file of the run, no console, no process's command line), a service
 * that redirects gets no request followed to the other host, and a service without metrics that goes down mid-run
 * fails the run as one with metrics does.
 */
class OwnServiceTrustIT {

    @TempDir
    Path tmp;

    private final List<Path> made = new ArrayList<>();
    private final List<HttpServer> servers = new ArrayList<>();

    @AfterEach
    void removeRunsAndServers() throws IOException {
        servers.forEach(s -> s.stop(0));
        for (Path dir : made) {
            Folders.deleteTree(dir);
        }
    }

    private HttpServer serve(String address, String path, com.sun.net.httpserver.HttpHandler handler) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(address), 0), 0);
        server.createContext(path, handler);
        server.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()); // a handler that never ends holds no other
        server.start();
        servers.add(server);
        return server;
    }

    private static void answer(HttpExchange exchange, int status, String location) throws IOException {
        if (location != null) {
            exchange.getResponseHeaders().add("Location", location);
        }
        byte[] body = "ok".getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    /**
     * Two secrets, one typed (--header 'X-Api-Key: ...') and one from a file (--header @FILE), reach the service; the
     * service answers every other request with a 302 to another loopback address, which receives nothing. While the
     * run lasts, no process's command line holds the file's secret, and none but ./lab's own (where the user typed it)
     * the typed one; afterwards no file of the run and no line of the console holds either.
     */
    @Test
    void aSecretHeaderIsSentOnlyToTheServiceAndARedirectIsNotFollowed() throws Exception {
        String typed = "INLINE-SECRET-91c2e";
        String inFile = "FILE-SECRET-7f3a0";
        AtomicInteger elsewhere = new AtomicInteger();
        HttpServer other = serve("127.0.0.2", "/", exchange -> {
            elsewhere.incrementAndGet();
            answer(exchange, 200, null);
        });
        String otherUrl = "http://127.0.0.2:%d/owners".formatted(other.getAddress().getPort());
        Set<String> received = ConcurrentHashMap.newKeySet();
        AtomicInteger loadRequests = new AtomicInteger();
        HttpServer service = serve("127.0.0.1", "/owners", exchange -> {
            received.add(String.valueOf(exchange.getRequestHeaders().getFirst("X-Api-Key")));
            received.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            String agent = String.valueOf(exchange.getRequestHeaders().getFirst("User-Agent"));
            // the lab's warm-up and check (the JDK's client) are answered; of the load's, every other one is sent elsewhere
            answer(exchange, agent.startsWith("Java-http-client") || loadRequests.incrementAndGet() % 2 == 1 ? 200 : 302, otherUrl);
        });
        Path headers = tmp.resolve("token.txt");
        Files.writeString(headers, "# the service's token\nAuthorization: Bearer " + inFile + "\n");
        String url = "http://127.0.0.1:%d/owners".formatted(service.getAddress().getPort());

        Path console = tmp.resolve("secrets.console");
        LabCommand lab = LabCommand.start(console, "run", "--url", url, "--service", "secrets", "--header", "@" + headers,
                "--header", "X-Api-Key: " + typed, "--users", "4", "--requests-per-user", "6", "--ramp-seconds", "1", "--think-min-ms", "200",
                "--think-max-ms", "300", "--warmup-seconds", "1", "--no-gatling-report");
        long labPid = lab.pid();
        AtomicBoolean sawGatling = new AtomicBoolean();
        List<String> leaks = new ArrayList<>();
        int exit;
        Thread watch = Thread.ofPlatform().start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                commandLines(labPid, url, typed, inFile, sawGatling, leaks);
                try {
                    Thread.sleep(50);
                }
                catch (InterruptedException e) {
                    return;
                }
            }
        });
        try {
            exit = lab.await(java.time.Duration.ofMinutes(5));
        }
        finally {
            watch.interrupt();
            watch.join();
        }
        String output = lab.output();
        LabCommand.Finished run = new LabCommand.Finished(exit, output);
        run.runFolder().ifPresent(made::add);

        assertThat(exit).as(output).isZero();
        assertThat(received).as("the service got both secrets").containsExactlyInAnyOrder(typed, "Bearer " + inFile);
        assertThat(sawGatling).as("Gatling's command line was read while it ran").isTrue();
        assertThat(leaks).as("command lines holding a secret").isEmpty();
        assertThat(elsewhere).as("requests that reached the other host").hasValue(0);
        assertThat(output).doesNotContain(typed).doesNotContain(inFile).contains("latency-lab: secrets warmed up for 1 s");
        assertThat(output.lines().filter(l -> l.startsWith("latency-lab: the service redirected "))).singleElement().asString()
                .contains("HTTP 302").contains("the lab follows no redirect");
        Path folder = made.getFirst();
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
                assertThat(text).as(f.toString()).doesNotContain(typed).doesNotContain(inFile);
            }
        }
        Result r = ResultFile.read(folder.resolve("result.json"));
        assertThat(r.parameters().endpoint().headers()).containsExactly("Authorization", "X-Api-Key");
        assertThat(r.requests().koByReason()).containsKey("HTTP 302");
        assertThat(r.requests().ok()).isPositive();
    }

    /** Reads every process's command line, noting Gatling's for this run and any that holds a secret it must not. */
    private static void commandLines(long labPid, String url, String typed, String inFile, AtomicBoolean sawGatling, List<String> leaks) {
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path proc : procs.filter(p -> p.getFileName().toString().matches("[0-9]+")).toList()) {
                String line;
                try {
                    line = new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8).replace('\0', ' ');
                }
                catch (IOException e) {
                    continue; // ended meanwhile
                }
                if (line.contains("io.gatling.app.Gatling") && line.contains(url.substring(0, url.lastIndexOf('/')))) {
                    sawGatling.set(true);
                }
                // the typed secret is on the command line the user typed: ./lab's own process, the copies of the script's
                // shell its command substitutions fork before it becomes the runner's JVM, and the runner's own copies
                // between fork and exec when it starts a process (seen in CI: its command line, its temporary folder
                // named by ./lab's pid, under another pid)
                boolean lab = proc.getFileName().toString().equals(String.valueOf(labPid)) || line.startsWith("bash " + Lab.repo().resolve("lab") + " run ")
                        || line.contains("-Djava.io.tmpdir=" + Lab.repo().resolve("lab-runner/target/tmp").resolve(String.valueOf(labPid)) + " ");
                if (line.contains(inFile) || line.contains(typed) && !lab) {
                    synchronized (leaks) {
                        leaks.add(proc.getFileName() + ": " + line);
                    }
                }
            }
        }
        catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * A service without metrics that answers at the start and goes down a second into the run: the run fails (exit 1),
     * saying it was down, as it does for a service whose metrics stop answering.
     */
    @Test
    void aServiceWithoutMetricsThatGoesDownFailsTheRun() throws Exception {
        AtomicInteger served = new AtomicInteger();
        HttpServer[] holder = new HttpServer[1];
        holder[0] = serve("127.0.0.1", "/owners", exchange -> {
            answer(exchange, 200, null);
            if (served.incrementAndGet() == 12) {
                Thread.ofPlatform().start(() -> holder[0].stop(0)); // gone: its port refuses from now on
            }
        });
        String url = "http://127.0.0.1:%d/owners".formatted(holder[0].getAddress().getPort());
        LabCommand.Finished run = LabCommand.run(tmp.resolve("down.console"), "run", "--url", url, "--service", "down",
                "--users", "4", "--requests-per-user", "25", "--ramp-seconds", "1", "--think-min-ms", "150", "--think-max-ms", "250",
                "--warmup-seconds", "0", "--no-gatling-report");
        run.runFolder().ifPresent(made::add);

        assertThat(run.exitCode()).as(run.output()).isEqualTo(ExitCode.FAILED);
        assertThat(run.output()).contains("latency-lab: no server metrics: ").contains("refused connections from ").contains("it was down");
    }

    /**
     * A service that redirects every request is not warmed up by a thousand redirects: the warm-up ends at the first,
     * saying so, and the run's check refuses it before any load.
     */
    @Test
    void aServiceThatRedirectsIsNotWarmedUpAndIsRefused() throws Exception {
        AtomicInteger served = new AtomicInteger();
        HttpServer service = serve("127.0.0.1", "/owners", exchange -> {
            served.incrementAndGet();
            answer(exchange, 302, "http://127.0.0.2:9/owners");
        });
        String url = "http://127.0.0.1:%d/owners".formatted(service.getAddress().getPort());
        LabCommand.Finished run = LabCommand.run(tmp.resolve("moved.console"), "run", "--url", url, "--service", "moved", "--users", "2",
                "--requests-per-user", "1", "--ramp-seconds", "1", "--warmup-seconds", "3", "--no-gatling-report");
        run.runFolder().ifPresent(made::add);

        assertThat(run.exitCode()).as(run.output()).isEqualTo(ExitCode.FAILED);
        assertThat(run.output()).contains("latency-lab: moved not warmed up: GET " + url + " answered HTTP 302")
                .contains("with HTTP 302, a redirect: the load follows none").doesNotContain("Fix the path");
        assertThat(served.get()).as("requests the service answered with a redirect").isLessThan(100);
    }

    /**
     * A service whose answers never end (a chunked body without its last chunk) holds neither the warm-up nor the
     * check: both end, and the load's requests time out as Gatling's timeout says.
     */
    @Test
    void anAnswerThatNeverEndsHoldsNeitherTheWarmUpNorTheCheck() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        HttpServer service = serve("127.0.0.1", "/owners", exchange -> {
            exchange.sendResponseHeaders(200, 0); // chunked
            try (var body = exchange.getResponseBody()) {
                while (!stop.get()) {
                    body.write('x');
                    body.flush();
                    Thread.sleep(100);
                }
            }
            catch (IOException | InterruptedException e) {
                // the client gave up
            }
        });
        try {
            String url = "http://127.0.0.1:%d/owners".formatted(service.getAddress().getPort());
            LabCommand.Finished run = LabCommand.run(tmp.resolve("endless.console"), "run", "--url", url, "--service", "endless",
                    "--users", "2", "--requests-per-user", "1", "--ramp-seconds", "1", "-Dgatling.http.requestTimeout=1000", "--warmup-seconds", "1",
                    "--no-gatling-report");
            run.runFolder().ifPresent(made::add);

            assertThat(run.output()).contains("latency-lab: endless warmed up for 1 s");
            assertThat(run.exitCode()).as(run.output()).isEqualTo(ExitCode.FAILED);
            assertThat(run.output()).contains("every request failed").contains("request timeout (1 s)");
        }
        finally {
            stop.set(true);
        }
    }

    /** A service in a jar that floods its output and ignores SIGTERM: its source, compiled here into a jar (java -jar). */
    private static final String NOISY = """
            public class Noisy {
                public static void main(String[] args) throws Exception {
                    sun.misc.Signal.handle(new sun.misc.Signal("TERM"), signal -> { });
                    var server = com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", Integer.parseInt(args[0])), 0);
                    server.createContext("/", exchange -> {
                        byte[] body = "ok".getBytes();
                        exchange.sendResponseHeaders(200, body.length);
                        exchange.getResponseBody().write(body);
                        exchange.close();
                    });
                    server.start();
                    String line = "noise ".repeat(200);
                    for (int i = 0; i < 70_000; i++) { // 84 MB, then quiet: a flood without a core spent on it for the whole run
                        System.out.println(line);
                    }
                    while (true) {
                        Thread.sleep(1000);
                    }
                }
            }
            """;

    private Path noisyJar() throws IOException {
        Path src = Files.createDirectories(tmp.resolve("noisy"));
        Files.writeString(src.resolve("Noisy.java"), NOISY);
        int compiled = javax.tools.ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", src.toString(), src.resolve("Noisy.java").toString());
        assertThat(compiled).as("javac of the noisy service").isZero();
        java.util.jar.Manifest manifest = new java.util.jar.Manifest();
        manifest.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(java.util.jar.Attributes.Name.MAIN_CLASS, "Noisy");
        Path jar = tmp.resolve("noisy.jar");
        try (var out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar), manifest)) {
            out.putNextEntry(new java.util.jar.JarEntry("Noisy.class"));
            out.write(Files.readAllBytes(src.resolve("Noisy.class")));
            out.closeEntry();
        }
        return jar;
    }

    /**
     * A jar that floods its output and ignores SIGTERM: its log keeps the first 64 MB and says so, as the run does; the
     * run says it was killed after its --jar-stop-seconds and has no JVM events (running it again would not help), and the
     * jar is gone after.
     */
    @Test
    void aJarThatFloodsItsOutputAndIgnoresSigtermIsCappedAndSaidKilled() throws Exception {
        int port = Lab.freePort();
        String url = "http://127.0.0.1:%d/".formatted(port);
        LabCommand.Finished run = LabCommand.run(tmp.resolve("noisy.console"), "run", "--url", url, "--service", "noisy", "--jar",
                noisyJar().toString(), "--jar-arg=" + port, "--jar-start-seconds", "40", "--jar-stop-seconds", "2", "--users", "2", "--requests-per-user", "2",
                "--ramp-seconds", "1", "--think-min-ms", "500", "--think-max-ms", "600", "--warmup-seconds", "1", "--no-gatling-report");
        run.runFolder().ifPresent(made::add);

        assertThat(run.exitCode()).as(run.output()).isZero();
        Path log = made.getFirst().resolve("target.log");
        assertThat(run.output()).contains("latency-lab: noisy printed more than 64 MB: " + log + " keeps the first 64 MB")
                .contains("latency-lab: noisy ignored SIGTERM for 2 s and was killed (SIGKILL)").doesNotContain("run it again");
        assertThat(Files.size(log)).isBetween(64L << 20, (64L << 20) + (1 << 20));
        try (Stream<String> lines = Files.lines(log)) {
            assertThat(lines.filter(l -> l.startsWith("[latency-lab: the jar's output passed 64 MB"))).hasSize(1);
        }
        try (java.net.ServerSocket free = new java.net.ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
            assertThat(free.getLocalPort()).as("the jar's port, free again: the jar is gone").isEqualTo(port);
        }
    }

    /**
     * A host name whose answer changes once the lab has checked it (DNS rebinding, played here by a hosts file that every
     * JVM of the run reads, rewritten after the check to another loopback address) does not move the load: the load's
     * JVM is held to the address checked, and the other address receives nothing.
     */
    @Test
    void aNameWhoseAnswerChangesAfterTheCheckDoesNotMoveTheLoad() throws Exception {
        AtomicInteger checked = new AtomicInteger();
        HttpServer service = serve("127.0.0.1", "/owners", exchange -> {
            checked.incrementAndGet();
            answer(exchange, 200, null);
        });
        int port = service.getAddress().getPort();
        AtomicInteger elsewhere = new AtomicInteger();
        HttpServer other = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), port), 0);
        other.createContext("/", exchange -> {
            elsewhere.incrementAndGet();
            answer(exchange, 200, null);
        });
        other.start();
        servers.add(other);
        InetAddress self = InetAddress.getLocalHost();
        String common = "127.0.0.1 localhost\n::1 localhost\n%s %s\n".formatted(self.getHostAddress(), self.getHostName());
        Path hosts = Files.writeString(tmp.resolve("hosts"), "127.0.0.1 rebind.test\n" + common);
        String options = System.getenv().getOrDefault("JAVA_TOOL_OPTIONS", "") + " -Djdk.net.hosts.file=" + hosts;

        LabCommand lab = LabCommand.start(tmp.resolve("rebind.console"), List.of("env", "JAVA_TOOL_OPTIONS=" + options.strip()), "run", "--url",
                "http://rebind.test:%d/owners".formatted(port), "--service", "rebind", "--users", "4", "--requests-per-user", "3",
                "--ramp-seconds", "1", "--think-min-ms", "100", "--think-max-ms", "200", "--warmup-seconds", "2", "--no-gatling-report");
        lab.awaitLine("^latency-lab: loading rebind at ", java.time.Duration.ofMinutes(1));
        Files.writeString(hosts, "127.0.0.2 rebind.test\n" + common); // the name's answer, changed after the check
        int exit = lab.await(java.time.Duration.ofMinutes(5));
        LabCommand.Finished run = new LabCommand.Finished(exit, lab.output());
        run.runFolder().ifPresent(made::add);

        assertThat(exit).as(run.output()).isZero();
        assertThat(elsewhere).as("requests that reached the address the name had after the check").hasValue(0);
        assertThat(checked.get()).as("requests to the address checked").isGreaterThan(12);
        assertThat(made.getFirst().resolve("hosts")).content().contains("127.0.0.1 rebind.test");
    }

    /**
     * A JVM option that is a system property passes the parser (it was 'Expected parameter'), and an unknown command
     * beside --help is refused as without it (it printed the top help and exited 0).
     */
    @Test
    void aDashedOptionValuePassesAndAnUnknownCommandIsRefusedBesideHelp() {
        LabCommand.Finished dashed = LabCommand.inThisJvm("run", "--url", "http://127.0.0.1:1/", "--jvm-option=-Dx.y=1");
        assertThat(dashed.exitCode()).as(dashed.output()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(dashed.output()).contains("go with --jar: give the jar that starts the service").doesNotContain("Expected parameter");
        LabCommand.Finished typo = LabCommand.inThisJvm("histroy", "--help");
        assertThat(typo.exitCode()).as(typo.output()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(typo.output()).contains("latency-lab: Unmatched argument at index 0: 'histroy'").doesNotContain("Usage:");
    }

    /** A mistyped option or a malformed --header never prints the value it carried: it may be a secret. */
    @Test
    void aRefusalNeverEchoesAHeaderValue() throws IOException {
        Path headerFile = Files.writeString(tmp.resolve("header.txt"), "X-Key: SECRET-4\u0001abc\n");
        Path requests = Files.writeString(tmp.resolve("requests.txt"), "GET /owners\nAuthorization: Bearer SECRET-6\n");
        for (String[] args : new String[][] {{"compare", "a", "b", "-Dsim.header.X-Key=SECRET-1"},
                {"run", "--url", "http://127.0.0.1:1/", "--headr", "Authorization: Bearer SECRET-2"},
                {"run", "--url", "http://127.0.0.1:1/", "--header", "Bearer SECRET-3"},
                {"run", "--url", "http://127.0.0.1:1/", "--header", "@" + tmp.resolve("none.txt")},
                // a value with a control character, from a file and typed; a requests file's line shaped as a header
                {"run", "--url", "http://127.0.0.1:1/", "--header", "@" + headerFile},
                {"sweep", "--url", "http://127.0.0.1:1/", "--header", "X-Key: SECRET-5\u0001x", "--users", "1", "--results", tmp.resolve("s").toString()},
                {"run", "--url", "http://127.0.0.1:1/", "--requests-file", requests.toString()}}) {
            LabCommand.Finished refused = LabCommand.inThisJvm(args);
            assertThat(refused.exitCode()).as(refused.output()).isEqualTo(ExitCode.BAD_INPUT);
            assertThat(refused.output()).startsWith("latency-lab: ").doesNotContain("SECRET");
        }
    }

    /**
     * A sweep of a service with a secret header from a file keeps no secret in any file it writes (its one point fails at
     * once: nothing listens at the URL), and a resume without the header asks for it by name (exit 2) instead of calling
     * the sweep one of other settings (given again, the same sweep: ServiceSpecTest).
     */
    @Test
    void aSweepKeepsNoSecretAndAResumeAsksForItAgain() throws Exception {
        String secret = "SWEEP-SECRET-5d1e";
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        Path key = tmp.resolve("key.txt");
        Files.writeString(key, "X-Api-Key: " + secret + "\n");
        String results = tmp.resolve("results").toString();
        List<String> sweep = List.of("sweep", "--url", "http://127.0.0.1:%d/owners".formatted(port), "--service", "keyed", "--users", "2",
                "--warmup-seconds", "1", "--drain-seconds", "1", "--no-gatling-report", "--results", results, "--name", "keyed");

        List<String> first = new ArrayList<>(sweep);
        first.addAll(List.of("--header", "@" + key));
        LabCommand.Finished swept = LabCommand.inThisJvm(first.toArray(String[]::new));
        assertThat(swept.exitCode()).as(swept.output()).isEqualTo(ExitCode.FAILED);
        assertThat(Path.of(results, "keyed", "sweep.json")).content().contains("X-Api-Key").doesNotContain(secret);
        try (Stream<Path> files = Files.walk(Path.of(results))) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                assertThat(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1)).as(f.toString()).doesNotContain(secret);
            }
        }

        LabCommand.Finished without = LabCommand.inThisJvm(sweep.toArray(String[]::new));
        assertThat(without.exitCode()).as(without.output()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(without.output()).contains("its requests carried header X-Api-Key, whose value is never kept: give it again, "
                + "--header 'X-Api-Key: ...' or --header @FILE").doesNotContain("other settings");
    }
}
