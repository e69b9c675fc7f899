package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.load.result.Json;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.lab.flow.ExitCode;

/**
 * A Gatling simulation of the user's run through ./lab (issue 60): a flow the lab's code never saw (a CSV feeder, an id
 * extracted from an answer and carried, checks) against a service on loopback, by run and by sweep, its redirect to
 * another host not followed; its counts as Gatling's own report counts them; a simulation that ignores the lab's users fails; what it cannot
 * go with, or a host in it that is not this machine, is refused before any load.
 */
class OwnSimulationIT {

    private static final Path FLOW = Path.of("src/test/resources/simulations/owners");

    @TempDir
    Path tmp;

    private HttpServer service;
    /** Another host (another loopback address) where the service redirects the visits: it must receive nothing. */
    private HttpServer elsewhere;
    private final AtomicInteger redirectedThere = new AtomicInteger();
    private final AtomicInteger registered = new AtomicInteger();
    private final Map<Integer, String> owners = new ConcurrentHashMap<>();

    /**
     * The owners service: POST /owners registers one (201, its id), GET /owners/ID reads it, GET /owners/ID/visits
     * redirects (302) to another host.
     */
    @BeforeEach
    void startService() throws IOException {
        elsewhere = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0), 0);
        elsewhere.createContext("/", exchange -> {
            redirectedThere.incrementAndGet();
            answer(exchange, 200, "{\"count\": 3}");
        });
        elsewhere.start();
        service = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        service.createContext("/owners", exchange -> {
            String[] path = exchange.getRequestURI().getPath().replaceFirst("^/+", "").split("/");
            if (exchange.getRequestMethod().equals("POST")) {
                int id = registered.incrementAndGet();
                String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                owners.put(id, body.replaceAll(".*\"name\"\\s*:\\s*\"([^\"]*)\".*", "$1"));
                answer(exchange, 201, "{\"id\": %d}".formatted(id));
            }
            else if (path.length == 3 && path[2].equals("visits")) {
                exchange.getResponseHeaders().add("Location", "http://127.0.0.2:%d/visits".formatted(elsewhere.getAddress().getPort()));
                answer(exchange, 302, "{}");
            }
            else if (path.length == 2) {
                answer(exchange, 200, "{\"name\": \"%s\"}".formatted(owners.get(Integer.parseInt(path[1]))));
            }
            else {
                answer(exchange, 200, "{\"owners\": %d}".formatted(owners.size()));
            }
        });
        service.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        service.start();
    }

    @AfterEach
    void stopService() {
        service.stop(0);
        elsewhere.stop(0);
    }

    private static void answer(HttpExchange exchange, int status, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    private String url() {
        return "http://127.0.0.1:%d/owners".formatted(service.getAddress().getPort());
    }

    /** The user's folder: the flow in Gatling's Java DSL and its feeder's file, copied where the lab has never seen them. */
    private Path usersFlow() throws IOException {
        return usersFlow("OwnersFlow.java");
    }

    /** The same of this file of the flow: OwnersFlow.java, or OwnersScalaFlow.scala in Gatling's Scala DSL. */
    private Path usersFlow(String flow) throws IOException {
        Path folder = Files.createDirectories(tmp.resolve("my-gatling"));
        for (String file : List.of(flow, "owners.csv")) {
            Files.copy(FLOW.resolve(file), folder.resolve(file));
        }
        return folder.resolve(flow);
    }

    @Test
    void aFlowOfYoursRunsAndItsRequestsAreCountedAsGatlingsReportCountsThem() throws Exception {
        LabCommand.Finished run = LabCommand.run(tmp.resolve("run.console"), "run", "--url", url(), "--service", "owners",
                "--simulation", usersFlow().toString(), "--users", "4", "--ramp-seconds", "1", "--warmup-seconds", "1",
                "--results", tmp.resolve("results").toString());

        assertThat(run.exitCode()).as(run.output()).isEqualTo(ExitCode.OK);
        Path dir = run.runFolder().orElseThrow();
        Result r = ResultFile.read(dir.resolve("result.json"));
        assertThat(r.simulation()).isEqualTo("flows.OwnersFlow");
        String sha256 = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(Files.readString(FLOW.resolve(
                "OwnersFlow.java")).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        assertThat(r.target().properties()).as("the simulation by its source's digest: a history's series is one simulation")
                .containsEntry("simulation", "OwnersFlow.java sha256:" + sha256);
        assertThat(r.model()).as("a flow's think time is its own: no model").isNull();
        Map<String, long[]> byRequest = new LinkedHashMap<>();
        r.byRequest().forEach(q -> byRequest.put(q.name(), new long[] {q.ok() + q.ko(), q.ok(), q.ko()}));
        assertThat(byRequest.keySet()).containsExactly("register owner", "read owner", "count visits");
        // what Gatling's own report of the same run says, request by request and all together
        Map<String, long[]> report = reportTable(dir.resolve("report/index.html"));
        byRequest.forEach((name, counts) -> assertThat(report.get(name)).as(name).containsExactly(counts));
        assertThat(report.get("All Requests")).containsExactly(r.requests().total(), r.requests().ok(), r.requests().ko());
        // each user registered one owner from the feeder, read it twice by the id its answer gave, and counted its visits
        assertThat(registered.get()).isEqualTo(4);
        assertThat(byRequest.get("read owner")).containsExactly(8, 8, 0);
        assertThat(owners.values()).allMatch(List.of("Davis", "Franklin", "Rodriquez", "Black")::contains);
        // LabLoad.http() follows no redirect: each 302 a KO in Gatling's words, and the other host got nothing
        assertThat(r.requests().koByReason()).as("the failed check's KO in Gatling's words").containsOnlyKeys("status.find.in([200, 209], 304), found 302");
        assertThat(redirectedThere.get()).isZero();
        assertThat(r.injector().peakActiveUsers()).isBetween(1, 4);
        assertThat(run.output()).contains("your simulation flows.OwnersFlow: 4 users");
        // its classes hold its source's strings: none is left once the run is over
        try (Stream<Path> left = Files.walk(Lab.repo().resolve("lab-runner/target/tmp"))) {
            assertThat(left.filter(p -> p.getFileName().toString().startsWith("simulation-"))).isEmpty();
        }
    }

    /** The sweep runs the flow in Gatling's Scala DSL: the other form --simulation takes. */
    @Test
    void aSweepVariesItsUsersAndASimulationThatIgnoresThemFailsItsRun() throws Exception {
        Path flow = usersFlow("OwnersScalaFlow.scala");
        LabCommand.Finished sweep = LabCommand.run(tmp.resolve("sweep.console"), "sweep", "--url", url(), "--service", "owners",
                "--simulation", flow.toString(), "--users", "2,5", "--ramp-seconds", "1", "--warmup-seconds", "0", "--drain-seconds", "1",
                "--no-gatling-report", "--results", tmp.resolve("results").toString(), "--name", "flow");

        assertThat(sweep.exitCode()).as(sweep.output()).isEqualTo(ExitCode.OK);
        assertThat(registered.get()).as("2 users, then 5").isEqualTo(7);
        Path sweepDir = tmp.resolve("results/flow");
        assertThat(Json.MAPPER.readTree(sweepDir.resolve("sweep.json").toFile()).at("/service/simulation/sha256").asString()).hasSize(64);
        assertThat(sweepDir.resolve("points/owners-l0-u5-r1/gatling.log")).content().contains("your simulation flows.OwnersScalaFlow: 5 users");
        for (int users : new int[] {2, 5}) {
            try (Stream<Path> points = Files.walk(sweepDir.resolve("points"))) {
                Path file = points.filter(p -> p.getFileName().toString().equals("result.json") && p.toString().contains("-u" + users + "-"))
                        .findFirst().orElseThrow();
                assertThat(ResultFile.read(file).requests().total()).as("%d users, 4 requests each", users).isEqualTo(4L * users);
            }
        }

        // in Kotlin (Gatling's Java DSL), the third form --simulation takes
        Path own = tmp.resolve("own/OwnUsers.kt");
        Files.createDirectories(own.getParent());
        Files.copy(Path.of("src/test/resources/simulations/ownusers/OwnUsers.kt"), own);
        LabCommand.Finished ignoring = LabCommand.run(tmp.resolve("ignoring.console"), "run", "--url", url(), "--simulation", own.toString(),
                "--users", "4", "--ramp-seconds", "1", "--warmup-seconds", "0", "--no-gatling-report", "--results", tmp.resolve("results").toString());
        assertThat(ignoring.exitCode()).as(ignoring.output()).isEqualTo(ExitCode.FAILED);
        assertThat(ignoring.output()).contains("the simulation started 2 users where the lab gave it 4").doesNotContain("WARNING");
    }

    /**
     * A capacity search varies the flow's arrival rate: each arrival a user that runs the flow once, each level judged by
     * the requests sent while it was held; every planned user registered one owner. A simulation that injects its own
     * users instead is not the lab's load, and its run fails saying so.
     */
    @Test
    void aCapacitySearchVariesTheRateOfUsersRunningTheFlow() throws Exception {
        LabCommand.Finished search = LabCommand.run(tmp.resolve("capacity.console"), "capacity", "--url", url(), "--service", "owners",
                "--simulation", usersFlow().toString(), "--slo", "p99:2000,ko:30", "--start-rate", "2", "--max-rate", "4", "--level-seconds", "5",
                "--ramp-seconds", "1", "--refine-rounds", "0", "--warmup-seconds", "0", "--no-gatling-report", "--results",
                tmp.resolve("results").toString(), "--name", "flow");

        assertThat(search.exitCode()).as(search.output()).isEqualTo(ExitCode.OK);
        assertThat(search.output()).contains("ladder 1: 2, 4 users/s").contains("at least 4 users/s").contains("p99 of its requests");
        Result ladder = ResultFile.read(tmp.resolve("results/flow/round-1/result.json"));
        assertThat(ladder.open().flows()).isTrue();
        assertThat(ladder.open().levels()).extracting(Result.Level::ratePerSecond).containsExactly(2.0, 4.0);
        assertThat(ladder.open().levels()).extracting(l -> l.counts().plannedArrivals()).containsExactly(10L, 20L);
        assertThat(registered.get()).as("each planned user registered one owner: the flow took the lab's rates")
                .isEqualTo((int) ladder.open().sent().plannedArrivals());
        // four requests to a flow, the last a redirect not followed (KO): a level holds more requests than arrivals
        assertThat(ladder.open().levels()).allSatisfy(l -> assertThat(l.counts().ok() + l.counts().ko()).isGreaterThan(l.counts().arrivals()));
        assertThat(redirectedThere.get()).isZero();
        assertThat(Json.MAPPER.readTree(tmp.resolve("results/flow/capacity.json").toFile()).at("/arrivalSends").asString()).isEqualTo("flow");
        // a flow's requests have no due time: nothing from due is written, the levels are timed by the requests' own clock
        assertThat(ladder.open().fromDueMs()).isNull();
        assertThat(ladder.open().levels()).allSatisfy(l -> assertThat(l.times().fromDueMs()).isNull());
        assertThat(dev.latencylab.lab.capacity.Capacity.read(tmp.resolve("results/flow")).levels()).isNotEmpty().allSatisfy(l -> {
            assertThat(l.latency().p99FromDueMs()).isNull();
            assertThat(l.latency().p50FromDueMs()).isNull();
            assertThat(l.latency().p99Ms()).isNotNull();
            assertThat(l.latency().p99JudgedMs()).isEqualTo(l.latency().p99Ms());
        });

        Path own = tmp.resolve("own/OwnUsers.kt");
        Files.createDirectories(own.getParent());
        Files.copy(Path.of("src/test/resources/simulations/ownusers/OwnUsers.kt"), own);
        LabCommand.Finished ignoring = LabCommand.run(tmp.resolve("ignoring.console"), "run", "--url", url(), "--simulation", own.toString(),
                "--rates", "2", "--level-seconds", "5", "--ramp-seconds", "1", "--slo", "p99:2000", "--warmup-seconds", "0", "--no-gatling-report",
                "--results", tmp.resolve("results").toString());
        assertThat(ignoring.exitCode()).as(ignoring.output()).isEqualTo(ExitCode.FAILED);
        assertThat(ignoring.output()).contains("it never asked for the lab's arrival rates (sim.rates)");
    }

    /**
     * A flow that sends to another host however its source spells it (a text block, Unicode escapes, a URL built at run
     * time; in Kotlin a raw string and an upper-case base URL) passes the text check, and its connections there are
     * refused where Gatling makes them: the counting server on 127.0.0.2 receives nothing, each refusal is a KO in the
     * lab's words, and the run fails saying how many and where.
     */
    @Test
    void aRequestToAnotherHostIsRefusedWhereItsConnectionIsMadeHoweverItIsSpelt() throws Exception {
        int port = elsewhere.getAddress().getPort();
        for (String flow : List.of("Elsewhere.java", "ElsewhereKt.kt")) {
            Path file = Files.createDirectories(tmp.resolve("elsewhere")).resolve(flow);
            Files.writeString(file, Files.readString(Path.of("src/test/resources/simulations/elsewhere", flow)).replace("PORT", String.valueOf(port)));
            LabCommand.Finished run = LabCommand.run(tmp.resolve(flow + ".console"), "run", "--url", url(), "--simulation", file.toString(), "--users",
                    "2", "--ramp-seconds", "1", "--warmup-seconds", "0", "--no-gatling-report", "--results", tmp.resolve("results-" + flow).toString());

            assertThat(run.exitCode()).as(run.output()).isEqualTo(ExitCode.FAILED);
            assertThat(redirectedThere.get()).as(flow + ": the other host received nothing").isZero();
            Result r = ResultFile.read(run.runFolder().orElseThrow().resolve("result.json"));
            String refused = "latency-lab refused a connection to 127.0.0.2:" + port + ": not the checked host 127.0.0.1";
            assertThat(r.requests().koByReason()).as(flow).hasSize(1).allSatisfy((reason, count) -> assertThat(reason).endsWith(refused));
            long sentThere = r.requests().koByReason().values().iterator().next();
            assertThat(r.problems()).as(flow).anySatisfy(p -> assertThat(p).startsWith("%d connections to hosts other than the checked one were refused"
                    .formatted(sentThere)).contains("(127.0.0.2:%d ×%d)".formatted(port, sentThere)));
            assertThat(run.output()).contains("RUN FAILED: %d connections to hosts other than the checked one".formatted(sentThere));
            // each flow's requests to the service itself reached it: only the other host's were refused
            assertThat(r.byRequest()).filteredOn(q -> q.name().equals("here")).allSatisfy(q -> assertThat(q.ok()).isEqualTo(2));
        }
    }

    /** A simulation whose setUp injects no user fails in the lab's words, not Gatling's "Run crashed" alone. */
    @Test
    void aSimulationThatStartsNoUserSaysSo() throws Exception {
        Path none = tmp.resolve("none/NoUsers.java");
        Files.createDirectories(none.getParent());
        Files.writeString(none, """
                import static io.gatling.javaapi.core.CoreDsl.*;
                import static io.gatling.javaapi.http.HttpDsl.*;

                public class NoUsers extends io.gatling.javaapi.core.Simulation {
                    {
                        setUp(scenario("none").exec(http("root").get("/owners")).injectOpen(nothingFor(1)))
                                .protocols(dev.latencylab.load.LabLoad.http());
                    }
                }
                """);
        // with Gatling's report, whose making crashes on a run of no user ("Run crashed"); without it the result's problems say the same
        LabCommand.Finished run = LabCommand.run(tmp.resolve("none.console"), "run", "--url", url(), "--simulation", none.toString(), "--users", "2",
                "--warmup-seconds", "0", "--results", tmp.resolve("results").toString());
        assertThat(run.exitCode()).as(run.output()).isEqualTo(ExitCode.FAILED);
        assertThat(run.output()).contains("RUN FAILED: the simulation exited with 1: latency-lab: cannot run: your simulation NoUsers started no "
                + "user: its setUp injects none. Give it the lab's load, setUp(LabLoad.load(scenario))");
    }

    @Test
    void whatASimulationCannotGoWithIsRefusedBeforeAnyLoad() throws Exception {
        Path flow = usersFlow();
        Path broken = tmp.resolve("Broken.java");
        Files.writeString(broken, "public class Broken extends io.gatling.javaapi.core.Simulation {\n  int x = ;\n}\n");
        Path elsewhere = tmp.resolve("Elsewhere.java");
        Files.writeString(elsewhere, Files.readString(flow).replace("public class OwnersFlow", "public class Elsewhere")
                .replace("LabLoad.http()", "io.gatling.javaapi.http.HttpDsl.http.baseUrl(\"http://192.0.2.1:8080\")"));
        Path kotlin = tmp.resolve("Flow.kt");
        Files.writeString(kotlin, "class Flow : io.gatling.javaapi.core.Simulation() { val x: Int = \"no\" }\n");
        String results = tmp.resolve("refused").toString();
        Map<String[], String> refusals = new LinkedHashMap<>();
        refusals.put(new String[] {"run", "--url", url(), "--simulation", broken.toString()}, "does not compile against the lab's Gatling");
        refusals.put(new String[] {"run", "--url", url(), "--simulation", elsewhere.toString()},
                "line 34: http://192.0.2.1:8080: 192.0.2.1 is not this machine");
        refusals.put(new String[] {"run", "--url", url(), "--simulation", kotlin.toString()}, "Flow.kt:1:");
        Path groovy = tmp.resolve("Flow.groovy");
        Files.writeString(groovy, "class Flow");
        refusals.put(new String[] {"run", "--url", url(), "--simulation", groovy.toString()}, "give a .java or .kt file of Gatling's Java DSL");
        Path brokenScala = tmp.resolve("Broken.scala");
        Files.writeString(brokenScala, "class Broken extends io.gatling.core.Predef.Simulation { val x: Int = \"no\" }\n");
        refusals.put(new String[] {"run", "--url", url(), "--simulation", brokenScala.toString()}, "type mismatch");
        refusals.put(new String[] {"run", "--url", url(), "--simulation", flow.toString(), "--header", "X-Key: k"}, "--simulation and --header");
        refusals.put(new String[] {"run", "--url", url(), "--simulation", flow.toString(), "--rates", "5"},
                "--rates and --url: give the SLO each level is judged by with --slo p99:MS");
        refusals.put(new String[] {"sweep", "--url", url(), "--simulation", flow.toString(), "--rates", "5", "--slo", "p99:500"},
                "--simulation and --rates on a sweep: not yet");
        refusals.put(new String[] {"sweep", "--url", url(), "--simulation", flow.toString(), "--users", "2", "--injectors", "2"},
                "--simulation and --injectors 2");
        refusals.forEach((args, why) -> {
            String[] withResults = Stream.concat(Stream.of(args), Stream.of("--results", results)).toArray(String[]::new);
            LabCommand.Finished refused = LabCommand.inThisJvm(withResults);
            assertThat(refused.exitCode()).as(refused.output()).isEqualTo(ExitCode.BAD_INPUT);
            assertThat(refused.output()).contains(why);
        });
        if (Files.exists(Path.of(results))) { // the folder of folders a sweep checks it can write to, empty
            try (Stream<Path> made = Files.walk(Path.of(results))) {
                assertThat(made.filter(p -> !p.equals(Path.of(results)))).as("nothing made, no request sent").isEmpty();
            }
        }
        assertThat(registered.get()).isZero();
    }

    private static final Pattern ROW = Pattern.compile(
            "class=\"ellipsed-name\">([^<]+)</span>.*?col-2\">([0-9]+)</td>\\s*<td class=\"value ok col-3\">([0-9]+)</td>\\s*<td class=\"value ko col-4\">([0-9]+)</td>",
            Pattern.DOTALL);

    /** The statistics table of Gatling's HTML report: each request's (and "All Requests") total, OK and KO. */
    private static Map<String, long[]> reportTable(Path index) throws IOException {
        Map<String, long[]> rows = new LinkedHashMap<>();
        Matcher m = ROW.matcher(Files.readString(index));
        while (m.find()) {
            rows.put(m.group(1), new long[] {Long.parseLong(m.group(2)), Long.parseLong(m.group(3)), Long.parseLong(m.group(4))});
        }
        assertThat(rows).as("the report's statistics table").isNotEmpty();
        return rows;
    }
}
