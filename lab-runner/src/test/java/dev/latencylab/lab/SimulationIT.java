package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.HistogramCodec;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.lab.run.GatlingLauncher;
import dev.latencylab.lab.run.TargetProcess;
import dev.latencylab.lab.run.TargetRun;
import dev.latencylab.lab.targets.Target;

/** The simulation as the runner starts it (Gatling without Maven) and as a user runs it (./mvnw gatling:test -D...), against real targets. */
class SimulationIT {

    private static final Pattern GATLING_COUNT = Pattern.compile("> request count\\s+\\|\\s+([0-9,]+)\\s+\\|");

    @TempDir
    Path dir;

    private static Map<String, String> smoke(String baseUrl, Path resultFile) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("base.url", baseUrl);
        p.put("test.path", "hello/100");
        p.put("sim.users", "6");
        p.put("sim.ramp.seconds", "2");
        p.put("sim.repeat", "4");
        p.put("sim.think.min.ms", "20");
        p.put("sim.think.max.ms", "60");
        p.put("sim.result.file", resultFile.toString());
        return p;
    }

    /** One WebFlux target for the tests that only need something to answer (MVC's smoke run starts its own). */
    private static TargetProcess webflux;

    @BeforeAll
    static void startWebflux(@TempDir Path logs) {
        webflux = Lab.start(Target.WEBFLUX_MODULE, Lab.freePort(), Map.of(), Map.of(), logs.resolve("webflux.log"));
    }

    @AfterAll
    static void stopWebflux() {
        webflux.close();
    }

    /** The runner's way: Gatling's JVM from the launch file, against MVC (WebFlux: the seeds' workflow, below). */
    @Test
    void smokeRunLeavesAReportAndAResultFileThatAgreesWithGatling() throws Exception {
        Path result = dir.resolve("result.json");
        try (TargetProcess target = Lab.start(Target.MVC_MODULE, Lab.freePort(), Map.of(), Map.of(), dir.resolve("target.log"))) {
            GatlingLauncher.Exit run = new GatlingLauncher(Lab.repo()).run(smoke(target.baseUrl(), result), "smoke mvc", dir.resolve("gatling.log"),
                    TargetRun.SILENT);

            assertThat(run.exitCode()).as("exit code; see " + dir.resolve("gatling.log")).isZero();
            assertThat(run.resultFile()).isEqualTo(result);
            assertThat(run.reportDir().resolve("index.html")).isRegularFile();
            assertAgreesWithGatling(result, dir.resolve("gatling.log"));
        }
    }

    /** The result file counts what Gatling's own console summary counted, and says what a smoke run should. */
    private static void assertAgreesWithGatling(Path result, Path log) throws Exception {
        Matcher gatling = GATLING_COUNT.matcher(Files.readString(log));
        assertThat(gatling.find()).as("Gatling's request count in its console summary, in " + log).isTrue();
        long gatlingCount = Long.parseLong(gatling.group(1).replace(",", ""));

        Result r = ResultFile.read(result);
        assertThat(r.schema()).isEqualTo(ResultFile.SCHEMA);
        assertThat(r.requests().total()).isEqualTo(gatlingCount).isEqualTo(6 * 4);
        assertThat(r.requests().ko()).isZero();
        assertThat(r.responseTimeMs().p50()).isGreaterThanOrEqualTo(100);
        assertThat(r.responseTimeMs().p99()).isGreaterThanOrEqualTo(100);
        assertThat(HistogramCodec.decode(r.histogram().data()).getTotalCount()).isEqualTo(gatlingCount);
        assertThat(r.parameters().users()).isEqualTo(6);
        assertThat(r.injector().peakActiveUsers()).isBetween(1, 6);
        assertThat(r.model().offeredLoadPerSecond()).isEqualTo(6 / 0.14, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(r.server().threads().liveThreads().samples()).isPositive();
        assertThat(r.injector().cpu().samples()).isPositive();
        assertThat(r.problems()).isEmpty();
        assertThat(r.timeline().columns()).as("the machine's steal and load are sampled").contains("machineSteal", "loadAverage");
        assertThat(ResultSchema.problems(result)).as("the published schema accepts it").isEmpty();
    }

    /**
     * The seeds' workflow exactly as a user types it, through Maven (the runner starts Gatling without it):
     * {@code ./mvnw gatling:test -Dsim.users=N} from the root, and {@code mvn gatling:test} inside gatling-scripts once
     * load-contract is installed ({@code ./mvnw install -pl load-contract -am}: a module alone resolves its siblings
     * only from the local Maven repository).
     */
    @Test
    void theSeedsWorkflowRunsThroughMavenFromTheRootAndInsideTheModule() throws Exception {
        for (String way : List.of("root", "module")) {
            if (way.equals("module")) {
                maven(List.of("./mvnw", "-B", "-q", "install", "-pl", "load-contract", "-am", "-DskipTests"), Lab.repo(), dir.resolve("install.log"));
            }
            Path result = dir.resolve(way + ".json");
            List<String> command = new ArrayList<>(way.equals("root") ? List.of("./mvnw", "-B", "gatling:test") : List.of("mvn", "-B", "gatling:test"));
            smoke(webflux.baseUrl(), result).forEach((k, v) -> command.add("-D" + k + "=" + v));
            Path log = dir.resolve(way + ".log");
            maven(command, way.equals("root") ? Lab.repo() : Lab.repo().resolve("gatling-scripts"), log);
            assertAgreesWithGatling(result, log);
            Matcher report = Pattern.compile("please open the following file: file://(.+)").matcher(Files.readString(log));
            assertThat(report.find()).as("Gatling's report line in " + log).isTrue();
            assertThat(Path.of(report.group(1).trim())).as("its report, under gatling-scripts/target/gatling")
                    .startsWith(Lab.repo().resolve("gatling-scripts/target/gatling")).isRegularFile();
        }
    }

    private static void maven(List<String> command, Path folder, Path log) throws Exception {
        Process maven = new ProcessBuilder(command).directory(folder.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(maven.waitFor(5, java.util.concurrent.TimeUnit.MINUTES)).as("Maven ends; see " + log).isTrue();
        assertThat(maven.exitValue()).as(String.join(" ", command) + "; see " + log).isZero();
    }

    @Test
    void badPropertiesStopBeforeAnyRequestWithTheReason() throws Exception {
        double served = Lab.metric(webflux, "hello.waited");
        Map<String, String> p = smoke(webflux.baseUrl(), dir.resolve("result.json"));
        p.put("sim.users", "lots");
        p.put("sim.think.min.ms", "500");
        p.put("sim.think.max.ms", "100");
        p.put("sim.thinkmax.ms", "100");
        GatlingLauncher.Exit run = new GatlingLauncher(Lab.repo(), false, GatlingLauncher.INJECTOR_LEAD).run(p, "SimulationIT", dir.resolve("gatling.log"),
                TargetRun.SILENT);

        assertThat(run.exitCode()).isNotZero();
        assertThat(run.resultFile()).isNull();
        assertThat(run.lastError()).isEqualTo("latency-lab: cannot run: invalid simulation parameters:");
        assertThat(Files.readString(dir.resolve("gatling.log")))
                .contains("sim.users=lots is not a whole number; allowed: a whole number >= 1")
                .contains("sim.thinkmax.ms is not a property of the simulation (a typo?); did you mean sim.think.max.ms?")
                .as("a refused run is not a failed assertion").doesNotContain("assertions failed");
        assertThat(Lab.metric(webflux, "hello.waited")).as("requests the target served").isEqualTo(served);
    }

    @Test
    void aBreachedAssertionFailsTheRun() throws Exception {
        Map<String, String> p = smoke(webflux.baseUrl(), dir.resolve("result.json"));
        p.put("sim.assert.p95.ms", "50"); // every request waits 100 ms
        GatlingLauncher.Exit run = new GatlingLauncher(Lab.repo(), false, GatlingLauncher.INJECTOR_LEAD).run(p, "SimulationIT", dir.resolve("gatling.log"),
                TargetRun.SILENT);

        assertThat(run.exitCode()).isNotZero();
        assertThat(ResultFile.read(dir.resolve("result.json")).parameters().assertions().assertP95Ms()).isEqualTo(50);
        assertThat(Files.readString(dir.resolve("gatling.log"))).contains("95th percentile of response time").contains("false");
    }

    @Test
    void nothingAnsweringSaysHowToStartIt() throws Exception {
        Map<String, String> p = smoke("http://localhost:" + Lab.freePort(), dir.resolve("result.json"));
        GatlingLauncher.Exit run = new GatlingLauncher(Lab.repo(), false, GatlingLauncher.INJECTOR_LEAD).run(p, "SimulationIT", dir.resolve("gatling.log"),
                TargetRun.SILENT);

        assertThat(run.exitCode()).isNotZero();
        assertThat(Files.readString(dir.resolve("gatling.log"))).contains("latency-lab: cannot run: nothing answers at http://localhost:")
                .contains("start it with").as("a refused run is not a failed assertion").doesNotContain("assertions failed");
    }

    /**
     * A service of the user's without an actuator (here a plain HTTP server of this JVM on loopback): no false failure
     * ("refused connections ... it was down" on every sample, as before), and said once why its metrics are unseen.
     */
    @Test
    void aServiceWithoutMetricsRunsAndSaysOnceWhatItCannotSee() throws Exception {
        com.sun.net.httpserver.HttpServer plain = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        plain.createContext("/plain", exchange -> {
            byte[] body = "hello".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        plain.start();
        try {
            Path result = dir.resolve("result.json");
            Map<String, String> p = smoke("http://127.0.0.1:" + plain.getAddress().getPort(), result);
            p.put("test.path", "plain");
            GatlingLauncher.Exit run = new GatlingLauncher(Lab.repo(), false, GatlingLauncher.INJECTOR_LEAD).run(p, "SimulationIT",
                    dir.resolve("gatling.log"), TargetRun.SILENT);

            assertThat(run.exitCode()).as("see " + dir.resolve("gatling.log")).isZero();
            Result r = ResultFile.read(result);
            assertThat(r.problems()).as("not a server that went down").isEmpty();
            assertThat(r.requests().ok()).isEqualTo(6 * 4);
            assertThat(r.server().sampling().sampled()).as("the server is recorded as not sampled").isFalse();
            assertThat(Files.readString(dir.resolve("gatling.log")).lines().filter(l -> l.startsWith("latency-lab: no server metrics: ")))
                    .singleElement().asString().contains("nothing listens at http://127.0.0.1:" + (plain.getAddress().getPort() + 1000)
                            + "/actuator/prometheus")
                    .contains("the run goes on without them");
        }
        finally {
            plain.stop(0);
        }
    }
}
