package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.HistogramCodec;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.load.settings.SimulationSettings;
import dev.latencylab.lab.page.RunPage;
import dev.latencylab.lab.run.GatlingLauncher;
import dev.latencylab.lab.run.TargetProcess;
import dev.latencylab.lab.run.TargetRun;
import dev.latencylab.lab.targets.Target;

/**
 * A run split over two Gatling processes against WebFlux: by hand, as on two machines (two ./mvnw gatling:test with
 * their index and a common start, then ./lab merge), and through ./lab run --injectors 2. The merged count is the sum
 * of the parts and what the target itself counted.
 */
class InjectorsIT {

    private static final int USERS = 11;
    private static final int REPEAT = 3;

    @TempDir
    Path dir;

    private static Map<String, String> load() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put(SimulationSettings.PATH, "hello/100");
        p.put(SimulationSettings.USERS, String.valueOf(USERS));
        p.put(SimulationSettings.RAMP_SECONDS, "2");
        p.put(SimulationSettings.REPEAT, String.valueOf(REPEAT));
        p.put(SimulationSettings.THINK_MIN_MS, "50");
        p.put(SimulationSettings.THINK_MAX_MS, "150");
        return p;
    }

    /** Two injectors of one run by hand, as on two machines: each its index and the common start, then ./lab merge. */
    private record ByHand(Result merged, Result zero, Result one, double served, LabCommand.Finished merge, Path mergedFile) {
    }

    /** The target of the runs by hand, as a user would leave it running for both (./lab run starts its own). */
    private static TargetProcess target;

    @BeforeAll
    static void startTarget(@TempDir Path logs) {
        target = Lab.start(Target.WEBFLUX_MODULE, Lab.freePort(), Map.of(), Map.of(), logs.resolve("target.log"));
    }

    @AfterAll
    static void stopTarget() {
        target.close();
    }

    private ByHand splitByHand(Map<String, String> load) throws Exception {
        double before = Lab.metric(target, WAITED);
        long startAt = System.currentTimeMillis() + 8_000; // both Gatling JVMs up by then
        List<CompletableFuture<GatlingLauncher.Exit>> runs = new ArrayList<>();
        // a thread each: the common pool has one thread on two cores, which would run the injectors one after the other
        ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
        for (int i = 0; i < 2; i++) {
            Map<String, String> p = new LinkedHashMap<>(load);
            p.put(SimulationSettings.BASE_URL, target.baseUrl());
            p.put(SimulationSettings.INJECTORS, "2");
            p.put(SimulationSettings.INJECTOR_INDEX, String.valueOf(i));
            p.put(SimulationSettings.START_AT, String.valueOf(startAt));
            p.put(SimulationSettings.RESULT_FILE, dir.resolve("injector-" + i).resolve(ResultFile.NAME).toString());
            Path log = dir.resolve("gatling-" + i + ".log");
            runs.add(CompletableFuture.supplyAsync(
                    () -> new GatlingLauncher(Lab.repo()).run(p, "by hand, injector " + p.get(SimulationSettings.INJECTOR_INDEX), log, TargetRun.SILENT),
                    threads));
        }
        for (CompletableFuture<GatlingLauncher.Exit> run : runs) {
            assertThat(run.get().succeeded()).as("see " + dir).isTrue();
        }
        threads.close();
        double served = Lab.metric(target, WAITED) - before;

        Path merged = dir.resolve("merged").resolve(ResultFile.NAME);
        LabCommand.Finished merge = LabCommand.inThisJvm("merge", dir.resolve("injector-0").toString(),
                dir.resolve("injector-1").toString(), "--out", merged.getParent().toString());
        assertThat(merge.exitCode()).as(merge.output()).isZero();
        assertThat(ResultSchema.problems(merged)).as("the published schema accepts it").isEmpty();
        return new ByHand(ResultFile.read(merged), ResultFile.read(dir.resolve("injector-0").resolve(ResultFile.NAME)),
                ResultFile.read(dir.resolve("injector-1").resolve(ResultFile.NAME)), served, merge, merged);
    }

    @Test
    void twoInjectorsByHandMergeIntoWhatTheTargetCounted() throws Exception {
        ByHand run = splitByHand(load());
        Result r = run.merged();
        Result zero = run.zero();
        Result one = run.one();
        assertThat(zero.injector().peakActiveUsers()).as("6 of 11 users").isLessThanOrEqualTo(6);
        assertThat(zero.requests().total()).isEqualTo(6 * REPEAT);
        assertThat(one.requests().total()).isEqualTo(5 * REPEAT);
        assertThat(r.requests().total()).isEqualTo(zero.requests().total() + one.requests().total()).isEqualTo(USERS * REPEAT);
        // the target counted the load and each injector's one preflight request of the same path
        assertThat((long) run.served()).as("requests the target served").isEqualTo(r.requests().ok() + 2);
        assertThat(HistogramCodec.decode(r.histogram().data()).getTotalCount()).isEqualTo(USERS * REPEAT);
        assertThat(r.parts()).extracting(Result.Part::file).containsExactly("../injector-0/result.json", "../injector-1/result.json");
        assertThat(r.problems()).isEmpty();
        assertThat(run.merge().output()).contains("Merged 2 injectors: 33 requests (18 + 15)");
        // the merged run's page, beside it, with each injector's part
        String page = Files.readString(RunPage.of(run.mergedFile()));
        assertThat(run.merge().output()).contains("Run page: " + RunPage.of(run.mergedFile()).toAbsolutePath());
        assertThat(page).as("a run by hand: no target, the server's address").contains("<h1>a server at http://").contains(" users on 2 injectors, ")
                .contains("33 requests (18 + 15)").contains("../injector-1/result.json");
        assertThat(RunPage.chartOf(run.mergedFile())).isRegularFile();

        LabCommand.Finished again = LabCommand.inThisJvm("merge", dir.resolve("injector-0").toString(), "--out",
                dir.resolve("half").toString());
        assertThat(again.exitCode()).isEqualTo(2);
        assertThat(again.output()).contains("missing the result file of injector 1");
        assertThat(dir.resolve("half")).as("nothing written, not even its folder").doesNotExist();
        assertThat(again.output()).doesNotContain("--out is now");
    }

    @Test
    void anOpenRunSplitByHandSendsEachItsShareOfTheRateAndMergesItsLevels() throws Exception {
        Map<String, String> open = new LinkedHashMap<>();
        open.put(SimulationSettings.PATH, "hello/100");
        open.put(SimulationSettings.INJECTION, "open");
        open.put(SimulationSettings.RATE, "20");
        open.put(SimulationSettings.RAMP_SECONDS, "2");
        open.put(SimulationSettings.LEVEL_SECONDS, "5");
        ByHand run = splitByHand(open);
        Result r = run.merged();
        Result.Level level = r.open().levels().get(0);
        Result.Level zero = run.zero().open().levels().get(0);
        Result.Level one = run.one().open().levels().get(0);

        assertThat(zero.ratePerSecond()).as("each injector's share").isEqualTo(10.0).isEqualTo(one.ratePerSecond());
        assertThat(level.ratePerSecond()).as("the whole run's").isEqualTo(20.0);
        assertThat(level.counts().plannedArrivals()).isEqualTo(zero.counts().plannedArrivals() + one.counts().plannedArrivals()).isEqualTo(100);
        assertThat(level.counts().arrivals()).isEqualTo(zero.counts().arrivals() + one.counts().arrivals());
        assertThat(level.times().fromDueMs().count()).isEqualTo(zero.times().fromDueMs().count() + one.times().fromDueMs().count());
        assertThat(r.open().sent().plannedArrivals()).isEqualTo(run.zero().open().sent().plannedArrivals() + run.one().open().sent().plannedArrivals());
        assertThat(r.requests().total()).isEqualTo(run.zero().requests().total() + run.one().requests().total())
                .isEqualTo(r.open().sent().arrivalsStarted());
        assertThat((long) run.served()).as("requests the target served: the load and the two preflight requests").isEqualTo(r.requests().ok() + 2);
        assertThat(level.verdict()).as("judged again on the merged level").isNotBlank();
        assertThat(Files.readString(RunPage.of(run.mergedFile()))).contains("Levels (open model)").contains(" req/s on 2 injectors, ");
    }

    /**
     * ./lab run splits a run of WebFlux over HTTP/2 between two injectors and merges them: each injector trusts the
     * run's own certificate, which the target served and which is gone when ./lab has ended, its password never on a
     * command line.
     */
    @Test
    void labRunWithTwoInjectorsMergesIntoTheRunsResult() throws Exception {
        List<String> args = new ArrayList<>(List.of("run", "--target", "webflux-h2", "--port", String.valueOf(Lab.freePort()),
                "--warmup-seconds", "1", "--injectors", "2", "--injector-lead-seconds", "3"));
        // the same load by ./lab's options
        args.addAll(List.of("-D" + SimulationSettings.PATH + "=hello/100", "--users", String.valueOf(USERS), "--ramp-seconds", "2",
                "--requests-per-user", String.valueOf(REPEAT), "--think-min-ms", "50", "--think-max-ms", "150"));
        LabCommand.Finished run = LabCommand.run(dir.resolve("run.txt"), args.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.output()).isZero();

        Path folder = Path.of(run.output().lines().filter(l -> l.startsWith("Result file: ")).findFirst().orElseThrow()
                .substring("Result file: ".length())).getParent();
        Result r = ResultFile.read(folder.resolve(ResultFile.NAME));
        assertThat(r.parts()).hasSize(2);
        assertThat(r.target()).as("the merge and each part name the target").isEqualTo(Target.parse("webflux-h2").settings())
                .isEqualTo(ResultFile.read(folder.resolve("injector-1").resolve(ResultFile.NAME)).target());
        assertThat(r.requests().total()).isEqualTo(r.parts().get(0).requests().total() + r.parts().get(1).requests().total())
                .isEqualTo(USERS * REPEAT);
        assertThat(folder.resolve("injector-0/report/index.html")).isRegularFile();
        assertThat(folder.resolve("injector-1/report/index.html")).isRegularFile();
        assertThat(Files.readString(folder.resolve("injector-1/gatling.log"))).contains("injector 1 of 2: 5 of them");
        assertThat(run.output()).contains("merged 2 injectors' results: 33 requests (18 + 15)");
        for (Path part : List.of(folder, folder.resolve("injector-0"), folder.resolve("injector-1"))) {
            Result.Endpoint endpoint = ResultFile.read(part.resolve(ResultFile.NAME)).parameters().endpoint();
            assertThat(endpoint.protocol()).as(part.toString()).isEqualTo("h2");
            assertThat(endpoint.trust()).isEqualTo("trust store");
            assertThat(endpoint.baseUrl()).startsWith("https://localhost:");
            assertThat(endpoint.negotiated()).as(part + ": its connections, each agreed on h2 by ALPN").containsOnlyKeys("h2");
        }
        assertThat(r.parameters().endpoint().negotiated().get("h2")).as("the merge counts both injectors' connections")
                .isEqualTo(ResultFile.read(folder.resolve("injector-0/result.json")).parameters().endpoint().negotiated().get("h2")
                        + ResultFile.read(folder.resolve("injector-1/result.json")).parameters().endpoint().negotiated().get("h2"));
        assertThat(Files.readString(folder.resolve("injector-1/gatling.log"))).contains("-Dsim.http2=true")
                .contains("-Dgatling.ssl.useInsecureTrustManager=false");
        String started = Files.readAllLines(folder.resolve("target.log")).getFirst();
        Matcher keyStore = Pattern.compile("--server\\.ssl\\.key-store=file:(\\S+)").matcher(started);
        assertThat(keyStore.find()).as(started).isTrue();
        assertThat(started).as("the key store's password: in the target's environment alone").doesNotContain("password");
        assertThat(Path.of(keyStore.group(1))).as("the run's key is not kept").doesNotExist();
        try (java.util.stream.Stream<Path> files = Files.walk(folder)) {
            assertThat(files.map(Path::getFileName).map(Path::toString)).as("no key store among the run's files").noneMatch(n -> n.endsWith(".p12"));
        }
    }

    @Test
    void aSplitGivenAsPropertiesToLabRunIsRefused() {
        LabCommand.Finished run = LabCommand.inThisJvm("run", "--target", "webflux", "-Dsim.injectors=2");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains("-Dsim.injectors: ./lab run splits a run with --injectors K");
        LabCommand.Finished few = LabCommand.inThisJvm("run", "--target", "webflux", "--injectors", "3", "--users", "2");
        assertThat(few.exitCode()).isEqualTo(2);
        assertThat(few.output()).contains("sim.users=2 over sim.injectors=3 leaves an injector without a user");
    }

    /** The target's counter of requests that waited out their latency (hello-contract's WaitingRequests). */
    private static final String WAITED = "hello.waited";
}
