package dev.latencylab.lab;

import static dev.latencylab.lab.LabCommand.assertNoStackTrace;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.lab.run.FreePorts;
import dev.latencylab.load.result.Result;
import dev.latencylab.lab.footprint.Footprint;
import dev.latencylab.lab.footprint.MemorySnapshot;
import dev.latencylab.lab.layout.FootprintFolder;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.lab.layout.Folders;
import dev.latencylab.lab.page.RunPage;
import dev.latencylab.lab.targets.Target;
import dev.latencylab.lab.flow.ExitCode;

/**
 * A service of the user's as the target of ./lab run --url, as a user points the lab at one (the example service of
 * example-service/, or a bare HTTP server): started by hand on loopback and loaded where it is, never started nor
 * stopped by the lab, or started from its jar and stopped by the lab; named as the user named it; its metrics read
 * where they answer, or said once to be unseen; a host that is not this machine refused.
 */
class OwnServiceIT {

    /** A tiny run: 4 users, 3 requests each. */
    private static final List<String> TINY = List.of("--users", "4", "--requests-per-user", "3", "--ramp-seconds", "1", "--think-min-ms", "10",
            "--think-max-ms", "20", "--warmup-seconds", "1", "--no-gatling-report");

    @TempDir
    Path tmp;

    /** The runs' folders, in the repository's results/runs: removed after each test. */
    private final List<Path> made = new ArrayList<>();

    @AfterEach
    void removeRuns() throws IOException {
        for (Path dir : made) {
            Folders.deleteTree(dir);
        }
    }

    private LabCommand.Finished run(String name, String... args) {
        List<String> all = new ArrayList<>(List.of("run"));
        all.addAll(List.of(args));
        all.addAll(TINY);
        LabCommand.Finished run = LabCommand.run(tmp.resolve(name + ".console"), all.toArray(String[]::new));
        run.runFolder().ifPresent(made::add);
        return run;
    }

    @Test
    void aServiceWithoutMetricsIsLoadedNamedAndSaysOnceWhatItCannotSee() throws Exception {
        HttpServer plain = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        plain.createContext("/owners", exchange -> {
            byte[] body = "Davis".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        plain.start();
        try {
            String url = "http://127.0.0.1:%d/owners?lastName=Davis".formatted(plain.getAddress().getPort());
            LabCommand.Finished run = run("plain", "--url", url, "--service", "petclinic", "--slo", "p99:5000,ko:0");

            assertThat(run.exitCode()).as(run.output()).isZero();
            assertThat(run.output()).contains("latency-lab: SLO met (p99, ko)");
            assertThat(made).singleElement().asString().contains("/results/runs/run-petclinic-u4-");
            assertThat(run.output().lines().filter(l -> l.startsWith("latency-lab: no server metrics: "))).singleElement().asString()
                    .contains("/actuator/prometheus").contains("the run goes on without them");
            assertThat(run.output()).doesNotContain("refused").contains("latency-lab: petclinic: goodput ");
            // its verdict says what it could not see, not that it publishes none; your-service.md shows the same words
            String verdict = run.output().lines().filter(l -> l.startsWith("latency-lab: petclinic: goodput ")).findFirst().orElseThrow()
                    .replaceAll(".*  0 KO  ", "").replaceAll("  flags: .*", "");
            assertThat(verdict).isEqualTo("no model (the path names no latency); unseen: its pools (no metrics read)");
            assertThat(Files.readString(Lab.repo().resolve("docs/your-service.md"))).as("your-service.md's line of a service without metrics")
                    .contains("  0 KO  " + verdict + "\n");
            Result r = ResultFile.read(made.get(0).resolve("result.json"));
            assertThat(r.target().id()).isEqualTo("petclinic");
            assertThat(r.target().module()).isEqualTo(Target.SERVICE_MODULE);
            assertThat(r.target().properties()).containsEntry("url", url);
            assertThat(r.parameters().endpoint().path()).isEqualTo("/owners?lastName=Davis");
            assertThat(r.requests().ok()).isEqualTo(12);
            assertThat(r.problems()).isEmpty();
            assertThat(r.server().sampling().sampled()).isFalse();
            // the verdict is kept in the result, on its page, and said by report as it was judged
            assertThat(r.slo().met()).isTrue();
            assertThat(r.slo().objectives())
                    .extracting(dev.latencylab.load.result.SloVerdict.Objective::metric, dev.latencylab.load.result.SloVerdict.Objective::limit,
                            dev.latencylab.load.result.SloVerdict.Objective::met)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("p99", 5000.0, true), org.assertj.core.groups.Tuple.tuple("ko", 0.0, true));
            assertThat(Files.readString(made.get(0).resolve("result.html"))).contains("petclinic").contains("met: p99 ");
            LabCommand.Finished report = LabCommand.inThisJvm("report", made.get(0).toString());
            assertThat(report.output()).contains("SLO met: p99 ").contains(" ms <= 5000 ms, ko 0 % <= 0 %");
        }
        finally {
            plain.stop(0);
        }
    }

    /**
     * The example service (not one of the lab's targets), started by hand as a user starts theirs: its Prometheus
     * registry found on its own port and sampled; an objective its 100-ms visits cannot meet fails the run with exit 5,
     * saying by how much; the service left running.
     */
    @Test
    void aServiceStartedByHandIsSampledWhereItsMetricsAnswerAndLeftRunning() throws Exception {
        try (ExampleServiceJar mine = ExampleServiceJar.start(tmp.resolve("mine.log"))) {
            LabCommand.Finished run = run("mine", "--url", mine.url("/owners/2/visits"), "--slo", "p99:5");

            assertThat(run.exitCode()).as(run.output()).isEqualTo(ExitCode.SLO_MISSED);
            assertThat(run.output()).containsPattern("latency-lab: SLO MISSED: p99 [0-9]+ ms > 5 ms \\(by [0-9]+ ms\\)");
            assertThat(run.output()).doesNotContain("no server metrics").doesNotContain("/actuator/metrics JSON");
            Result r = ResultFile.read(made.get(0).resolve("result.json"));
            assertThat(r.slo().met()).as("kept as judged").isFalse();
            assertThat(r.slo().objectives().get(0).value()).isGreaterThan(5.0);
            assertThat(r.target().id()).isEqualTo("service-" + mine.port);
            assertThat(r.requests().ok()).isEqualTo(12);
            assertThat(r.responseTimeMs().p50()).as("each visit waits 100 ms in PostgreSQL").isGreaterThanOrEqualTo(100);
            assertThat(r.server().sampling().sampled()).isTrue();
            assertThat(r.server().cpu().samples()).as("the service's CPU").isPositive();
            assertThat(r.server().heapUsedBytes().samples()).as("its heap, from its Prometheus registry").isPositive();
            assertThat(r.server().connectionPool()).as("the pool it publishes, read though its path is none of the lab's").isNotNull();
            assertThat(r.server().connectionPool().library()).isEqualTo("HikariCP");
            assertThat(r.server().connectionPool().maxConnections()).isEqualTo(10);
            assertThat(r.server().connectionPool().active().samples()).isPositive();
            assertThat(r.server().pools().published()).extracting(Result.Pool::name, Result.Pool::size).as("Boot's task executor: 8 core "
                    + "threads, its queue without bound, so never more").containsExactly(org.assertj.core.groups.Tuple.tuple("HikariCP", 10.0),
                            org.assertj.core.groups.Tuple.tuple("executor applicationTaskExecutor", 8.0));
            assertThat(r.server().pools().unseen()).extracting(Result.Unseen::pool).as("no mbean registry").containsExactly("Tomcat's threads");
            assertThat(Files.readString(made.get(0).resolve("result.html"))).contains("<h2>Pools</h2>")
                    .contains("Unseen: Tomcat's threads (Spring Boot publishes them only with server.tomcat.mbeanregistry.enabled=true)");
            assertThat(ProcessHandle.of(mine.pid()).filter(ProcessHandle::isAlive)).as("not stopped by the lab").isPresent();

            // the same service, a mix of requests: two searches, a visit and a new owner (a body, a header) each turn,
            // sent by two injectors
            Files.writeString(tmp.resolve("owner.json"), "{\"firstName\":\"Jean\",\"lastName\":\"Coleman\",\"city\":\"Monona\"}");
            Path requests = Files.writeString(tmp.resolve("requests.txt"), """
                    # a morning at the clinic
                    2 GET /owners?lastName=Davis
                    GET /owners/2/visits
                    POST /owners @owner.json
                    """);
            LabCommand.Finished mixed = run("mixed", "--url", mine.url(""), "--service", "clinic", "--requests-file", requests.toString(),
                    "--header", "X-Tenant: lab", "--injectors", "2");

            assertThat(mixed.exitCode()).as(mixed.output()).isZero();
            assertThat(mixed.output()).contains("latency-lab: 3 requests sent in turn from " + requests.toAbsolutePath()
                    + ": 2 x GET /owners?lastName=Davis, 1 x GET /owners/2/visits, 1 x POST /owners");
            Result m = ResultFile.read(made.get(1).resolve("result.json"));
            assertThat(m.parts()).as("two injectors, two users each, merged").hasSize(2);
            assertThat(m.target().id()).as("each injector's file named, and so the merge").isEqualTo("clinic");
            assertThat(m.byRequest()).extracting(Result.ByRequest::name).containsExactly("GET /owners?lastName=Davis", "GET /owners/2/visits",
                    "POST /owners");
            assertThat(m.byRequest()).as("12 requests; each injector sends its 6 in turn from the turn's start (search, visit, search, "
                    + "post): a whole turn and two of the next").extracting(Result.ByRequest::ok).containsExactly(6L, 4L, 2L);
            assertThat(m.byRequest().get(1).responseTimeMs().p50()).as("a visit waits 100 ms in PostgreSQL").isGreaterThanOrEqualTo(100);
            assertThat(m.byRequest().get(0).responseTimeMs().p50()).as("a search does not").isLessThan(m.byRequest().get(1).responseTimeMs().p50());
            assertThat(m.parameters().endpoint().requestMix()).containsExactly("2 GET /owners?lastName=Davis", "1 GET /owners/2/visits",
                    "1 POST /owners");
            assertThat(m.parameters().endpoint().headers()).containsExactly("X-Tenant");
            assertThat(Files.readString(made.get(1).resolve("result.html"))).contains("<h2>By request</h2>").contains("POST /owners");
            assertThat(Lab.get(mine.url("/owners?lastName=Coleman")).body()).as("the posts reached the service").contains("Monona");

            LabCommand.Finished pathAndFile = LabCommand.run(tmp.resolve("path-and-file.console"), "run", "--url", mine.url("/owners"),
                    "--requests-file", requests.toString());
            assertThat(pathAndFile.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
            assertThat(pathAndFile.output()).contains("and a requests file: each request names its path; give the service's base URL, e.g. "
                    + mine.url(""));
        }
    }

    /**
     * The example service's jar given as a user gives theirs: started by the lab with its arguments and JVM options
     * (its own PostgreSQL inside), loaded once its URL answers, recorded (its flight recording's events in result.json,
     * its actuator sampled), and stopped after the run. Its actuator is told to leave out the Prometheus registry, as
     * many services have none: its metrics, its pools among them, are read from Spring Boot's own /actuator/metrics JSON.
     * It serves HTTPS and HTTP/2 with a certificate of its own, which the load trusts as told (--ca-cert): Tomcat's
     * access log shows every request of the load on HTTP/2, and its metrics are read over TLS on its own port.
     */
    @Test
    void aJarOfYoursIsStartedLoadedRecordedAndStopped() throws Exception {
        int port = FreePorts.port();
        TestCertificate certificate = TestCertificate.in(tmp);
        Path accessLog = tmp.resolve("access");
        List<String> args = new java.util.ArrayList<>(List.of("--url", "https://127.0.0.1:%d/owners?lastName=Davis".formatted(port), "--service",
                "my-jar", "--ca-cert", certificate.certificate().toString(), "--http2", "--jar", ExampleServiceJar.jar().toString(),
                "--jar-arg=--server.port=" + port, "--jar-arg=--management.endpoints.web.exposure.include=health,info,metrics",
                "--jar-arg=--server.tomcat.mbeanregistry.enabled=true", "--jvm-option=-Xmx256m",
                "--jar-arg=--server.tomcat.accesslog.enabled=true", "--jar-arg=--server.tomcat.accesslog.directory=" + accessLog,
                "--jar-arg=--server.tomcat.accesslog.pattern=%H %{User-Agent}i", "--jar-arg=--server.tomcat.accesslog.buffered=false"));
        args.addAll(certificate.jarArgs(true));
        LabCommand.Finished run = run("jar", args.toArray(String[]::new));

        assertThat(run.exitCode()).as(run.output()).isZero();
        Matcher started = Pattern.compile("latency-lab: my-jar started from .+ \\(pid ([0-9]+);").matcher(run.output());
        assertThat(started.find()).as(run.output()).isTrue();
        assertThat(ProcessHandle.of(Long.parseLong(started.group(1))).filter(ProcessHandle::isAlive)).as("stopped after the run").isEmpty();
        assertThat(run.output()).contains("latency-lab: stopped my-jar").doesNotContain("no server metrics");
        Result r = ResultFile.read(made.get(0).resolve("result.json"));
        assertThat(r.target().id()).isEqualTo("my-jar");
        assertThat(r.target().properties()).as("the jar, its arguments and JVM options, as a compare reads them")
                .containsEntry("jar", ExampleServiceJar.jar().getFileName().toString()).containsEntry("jvmOptions", "-Xmx256m")
                .hasEntrySatisfying("jarArgs", a -> assertThat(a).startsWith("--server.port=" + port + " ").contains("mbeanregistry.enabled=true"));
        assertThat(r.requests().ok()).isEqualTo(12);
        assertThat(run.output()).contains("latency-lab: server metrics from Spring Boot's /actuator/metrics JSON (no Prometheus registry)");
        assertThat(r.server().sampling().sampled()).isTrue();
        assertThat(r.server().threads().liveThreads().samples()).as("its threads, from the JSON").isPositive();
        assertThat(r.server().heapUsedBytes().samples()).as("its heap, from the JSON").isPositive();
        assertThat(r.server().pools().published()).as("its pools, from the JSON, Tomcat's threads and connection cap with the mbean registry on")
                .extracting(Result.Pool::name, Result.Pool::size).containsExactly(org.assertj.core.groups.Tuple.tuple("Tomcat's threads", 50.0),
                        org.assertj.core.groups.Tuple.tuple("Tomcat's connections", 8192.0), org.assertj.core.groups.Tuple.tuple("HikariCP", 10.0),
                        org.assertj.core.groups.Tuple.tuple("executor applicationTaskExecutor", 8.0));
        assertThat(r.server().pools().unseen()).as("Tomcat publishes nothing of its HTTP/2 streams").extracting(Result.Unseen::pool)
                .containsExactly("Tomcat's HTTP/2 streams");
        assertThat(r.server().threads().peakLiveThreads()).isPositive();
        assertThat(r.jvm()).as("its flight recording's events").isNotNull();
        assertThat(r.jvm().gc()).isNotNull();
        assertThat(r.problems()).isEmpty();
        assertThat(r.parameters().endpoint().protocol()).isEqualTo("h2");
        assertThat(r.parameters().endpoint().negotiated()).as("what each of the load's TLS connections agreed on by ALPN, counted where Netty "
                + "makes it").containsOnlyKeys("h2").allSatisfy((protocol, connections) -> assertThat(connections).isPositive());
        assertThat(r.parameters().endpoint().trust()).isEqualTo("trust store");
        assertThat(r.parameters().endpoint().metricsUrl()).as("its metrics on its own port, over TLS").isEqualTo("https://127.0.0.1:" + port);
        List<String> logged;
        try (java.util.stream.Stream<Path> files = Files.list(accessLog)) {
            logged = files.flatMap(f -> {
                try {
                    return Files.readAllLines(f).stream();
                }
                catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).toList();
        }
        // the lab's own checks, warm-up and sampling send the JDK's client's name; the load's requests, Gatling's (none)
        assertThat(logged.stream().filter(l -> !l.contains("Java-http-client"))).as("the load's requests, each on HTTP/2").hasSize(12)
                .allMatch(l -> l.startsWith("HTTP/2.0 "));
        assertThat(Files.readString(RunPage.of(made.get(0).resolve("result.json"))))
                .contains("HTTP/2 over TLS, trusting the certificates of its trust store alone");
    }

    /**
     * HTTP/2 asked of a service whose TLS offers HTTP/1.1 alone (ALPN): every connection agrees on HTTP/1.1, so the run
     * is recorded as what went on the wire (h1-tls, the connections counted) and fails saying so, not as HTTP/2's.
     */
    @Test
    void http2AskedOfAServiceThatOffersHttp11AloneIsRecordedAsItWasAndFails() throws Exception {
        int port = FreePorts.port();
        TestCertificate certificate = TestCertificate.in(tmp);
        List<String> args = new ArrayList<>(List.of("--url", "https://127.0.0.1:%d/owners?lastName=Davis".formatted(port), "--service", "h1-only",
                "--ca-cert", certificate.certificate().toString(), "--http2", "--jar", ExampleServiceJar.jar().toString(),
                "--jar-arg=--server.port=" + port, "--jvm-option=-Xmx256m"));
        args.addAll(certificate.jarArgs(false));
        LabCommand.Finished run = run("h1-only", args.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.output()).isEqualTo(ExitCode.FAILED);
        assertThat(run.output()).containsPattern("RUN FAILED: .*HTTP/2 was asked for, but [0-9]+ of its [0-9]+ TLS connections agreed on HTTP/1.1 by ALPN");
        Result r = ResultFile.read(made.get(0).resolve("result.json"));
        assertThat(r.parameters().endpoint().protocol()).as("what went on the wire").isEqualTo("h1-tls");
        assertThat(r.parameters().endpoint().negotiated()).containsOnlyKeys("http/1.1");
        assertThat(Files.readString(RunPage.of(made.get(0).resolve("result.json")))).doesNotContain("HTTP/2 over TLS");
    }

    /**
     * The footprint of the example service's jar: started fresh for 0 and 200 idle keep-alive connections, each after one
     * answered search (chunked JSON); each connection one of its sockets and no thread of its own (Tomcat's poller
     * holds them); its heap and threads read through its management agent; the page names the service.
     */
    @Test
    void theFootprintOfYourJarCountsItsIdleConnections() throws Exception {
        int port = FreePorts.port();
        LabCommand.Finished c = LabCommand.run(tmp.resolve("footprint.console"), "footprint", "--url",
                "http://127.0.0.1:%d/owners?lastName=Davis".formatted(port), "--service", "clinic", "--jar", ExampleServiceJar.jar().toString(),
                "--jar-arg=--server.port=" + port, "--counts", "0,200", "--repeats", "1", "--settle-seconds", "0", "--results", tmp.toString(),
                "--name", "clinic");

        assertThat(c.exitCode()).as(c.output()).isZero();
        FootprintFolder folder = new FootprintFolder(tmp.resolve("clinic"));
        Footprint f = Footprint.read(folder.dir());
        assertThat(f.settings().service().name()).isEqualTo("clinic");
        assertThat(f.settings().modes()).as("idle by default for a jar").containsExactly(Footprint.Mode.IDLE);
        assertThat(f.measurements()).as(c.output()).hasSize(2).allMatch(Footprint.Measurement::done);
        MemorySnapshot none = f.measurement("clinic", Footprint.Mode.IDLE, 0, 1).orElseThrow().memory();
        MemorySnapshot held = f.measurement("clinic", Footprint.Mode.IDLE, 200, 1).orElseThrow().memory();
        assertThat(held.sockets() - none.sockets()).as("each connection one of its sockets").isBetween(190, 210);
        // a thread a connection would be 200 more; Tomcat's pool may add a few workers for the 200 searches that opened
        // them (16 seen in a busy verify, under 10 alone)
        assertThat(held.osThreads() - none.osThreads()).as("no thread for an idle connection").isLessThan(50);
        assertThat(none.heapUsedBytes()).as("its heap, through its management agent").isPositive();
        assertThat(none.liveThreads()).isPositive();
        assertThat(Files.readString(folder.page())).contains("The service clinic, started from " + ExampleServiceJar.jar().getFileName())
                .contains("<b>clinic</b>");
    }

    /** Refused before anything starts, so the command line runs in this JVM (LabCommand.inThisJvm). */
    @Test
    void aHostThatIsNotThisMachineATargetBesideTheUrlABadObjectiveOrAJarElsewhereIsRefused() {
        LabCommand.Finished elsewhere = LabCommand.inThisJvm("run", "--url", "http://192.0.2.10:8080/");
        assertThat(elsewhere.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(elsewhere.output()).contains("--url http://192.0.2.10:8080/: 192.0.2.10 is not this machine")
                .contains("give --host-is-mine if it is yours");
        assertNoStackTrace(elsewhere.output());

        LabCommand.Finished slo = LabCommand.inThisJvm("run", "--url", "http://127.0.0.1:1/", "--slo", "p99:5,p99:6");
        assertThat(slo.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(slo.output()).contains("--slo p99:5,p99:6: p99 is given twice");

        LabCommand.Finished both = LabCommand.inThisJvm("run", "--url", "http://127.0.0.1:1/", "--target", "mvc-t200");
        assertThat(both.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(both.output()).contains("--target mvc-t200 and --url");

        LabCommand.Finished jarElsewhere = LabCommand.inThisJvm("run", "--url", "http://192.0.2.10:8080/",
                "--host-is-mine", "--jar", tmp.resolve("service.jar").toString());
        assertThat(jarElsewhere.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(jarElsewhere.output()).contains("--jar and --host-is-mine: a jar the lab starts runs on this machine");

        LabCommand.Finished sweepTargets = LabCommand.inThisJvm("sweep", "--url", "http://127.0.0.1:1/",
                "--targets", "webflux", "--users", "5");
        assertThat(sweepTargets.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(sweepTargets.output()).contains("--targets and --url: the service at the URL is the sweep's one target");
        LabCommand.Finished noLoads = LabCommand.inThisJvm("sweep", "--url", "http://127.0.0.1:1/");
        assertThat(noLoads.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(noLoads.output()).contains("--url: give the loads to sweep your service at, --users (e.g. 10,50,100) or --rates");
        LabCommand.Finished ourName = LabCommand.inThisJvm("sweep", "--url", "http://127.0.0.1:1/",
                "--service", "mvc-t200", "--users", "5");
        assertThat(ourName.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(ourName.output()).contains("--service mvc-t200: that is the id of one of the lab's targets");
        LabCommand.Finished poolSize = LabCommand.inThisJvm("run", "--url", "http://127.0.0.1:1/", "--pool",
                "tomcat-threads=many");
        assertThat(poolSize.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(poolSize.output()).contains("--pool tomcat-threads=many: give NAME=SIZE, a whole number above 0, e.g. --pool tomcat-threads=200");
        LabCommand.Finished poolTwice = LabCommand.inThisJvm("sweep", "--url", "http://127.0.0.1:1/", "--users", "5",
                "--pool", "hikaricp=10", "--pool", "HikariCP=20");
        assertThat(poolTwice.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(poolTwice.output()).contains("--pool HikariCP=20: HikariCP given twice; give each pool once");
        LabCommand.Finished footprintNoJar = LabCommand.inThisJvm("footprint", "--url", "http://127.0.0.1:1/",
                "--results", tmp.toString());
        assertThat(footprintNoJar.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(footprintNoJar.output()).contains("--url http://127.0.0.1:1/ without --jar: a footprint starts the service fresh for each count");
        LabCommand.Finished inFlight = LabCommand.inThisJvm("footprint", "--url", "http://127.0.0.1:1/",
                "--jar", ExampleServiceJar.jar().toString(), "--modes", "in-flight", "--results", tmp.toString());
        assertThat(inFlight.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(inFlight.output()).contains("--modes in-flight and --url: a service's requests in flight cannot be held here");
        assertThat(tmp.toFile().listFiles(f -> f.isDirectory() && f.getName().startsWith("footprint-"))).as("nothing started, no experiment's folder")
                .isEmpty();
        LabCommand.Finished noSlo = LabCommand.inThisJvm("capacity", "--url", "http://127.0.0.1:1/");
        assertThat(noSlo.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(noSlo.output()).contains("--url: give the SLO's p99 with --slo p99:MS");
        LabCommand.Finished p50 = LabCommand.inThisJvm("capacity", "--slo", "p50:3");
        assertThat(p50.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(p50.output()).contains("--slo p50:3: p50 is not a metric of a capacity search's objective; give p99, ko, capacity");
    }
}
