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

import dev.latencylab.lab.cli.LatencyLab;
import dev.latencylab.lab.layout.Folders;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;

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
        AtomicInteger withHeaders = new AtomicInteger();
        HttpServer service = serve("127.0.0.1", "/owners", exchange -> {
            String key = exchange.getRequestHeaders().getFirst("X-Api-Key");
            String auth = exchange.getRequestHeaders().getFirst("Authorization");
            if (key == null) {
                answer(exchange, 200, null); // the warm-up's requests carry no header
                return;
            }
            received.add(key);
            received.add(String.valueOf(auth));
            // the preflight's request (the first) is answered, then every other one is sent elsewhere
            answer(exchange, withHeaders.incrementAndGet() % 2 == 1 ? 200 : 302, otherUrl);
        });
        Path headers = tmp.resolve("token.txt");
        Files.writeString(headers, "# the service's token\nAuthorization: Bearer " + inFile + "\n");
        String url = "http://127.0.0.1:%d/owners".formatted(service.getAddress().getPort());

        Path console = tmp.resolve("secrets.console");
        LabCommand lab = LabCommand.start(console, "run", "--url", url, "--service", "secrets", "--header", "@" + headers,
                "--header", "X-Api-Key: " + typed, "-Dsim.users=4", "-Dsim.repeat=6", "-Dsim.ramp.seconds=1", "-Dsim.think.min.ms=200",
                "-Dsim.think.max.ms=300", "--warmup-seconds", "1", "--no-gatling-report");
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
        assertThat(output).doesNotContain(typed).doesNotContain(inFile);
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
                boolean lab = proc.getFileName().toString().equals(String.valueOf(labPid));
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
                "-Dsim.users=4", "-Dsim.repeat=25", "-Dsim.ramp.seconds=1", "-Dsim.think.min.ms=150", "-Dsim.think.max.ms=250",
                "--warmup-seconds", "0", "--no-gatling-report");
        run.runFolder().ifPresent(made::add);

        assertThat(run.exitCode()).as(run.output()).isEqualTo(LatencyLab.FAILED);
        assertThat(run.output()).contains("latency-lab: no server metrics: ").contains("refused connections from ").contains("it was down");
    }

    /** A mistyped option or a malformed --header never prints the value it carried: it may be a secret. */
    @Test
    void aRefusalNeverEchoesAHeaderValue() {
        for (String[] args : new String[][] {{"compare", "a", "b", "-Dsim.header.X-Key=SECRET-1"},
                {"run", "--url", "http://127.0.0.1:1/", "--headr", "Authorization: Bearer SECRET-2"},
                {"run", "--url", "http://127.0.0.1:1/", "--header", "Bearer SECRET-3"},
                {"run", "--url", "http://127.0.0.1:1/", "--header", "@" + tmp.resolve("none.txt")}}) {
            LabCommand.Finished refused = LabCommand.inThisJvm(args);
            assertThat(refused.exitCode()).as(refused.output()).isEqualTo(LatencyLab.BAD_INPUT);
            assertThat(refused.output()).startsWith("latency-lab: ").doesNotContain("SECRET");
        }
    }
}
