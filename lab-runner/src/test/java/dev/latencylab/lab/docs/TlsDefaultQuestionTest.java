package dev.latencylab.lab.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import dev.latencylab.lab.Lab;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.summary.Stages;
import dev.latencylab.lab.summary.Summary;
import dev.latencylab.lab.sweep.Sweep;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;

/**
 * What docs/findings.md says of the default question over TLS and HTTP/2 holds in its two sweeps' data (the three
 * stacks over TLS with HTTP/1.1 and with HTTP/2, then in clear text, on one machine, one after the other): every run
 * records what went on the wire and how its users connected, and a connection of its own costs each user a handshake;
 * the pool of 200 holds MVC at T/L on every protocol; what decided each stack at each load; at 20,000 users sharing
 * connections HTTP/2 ends the KO of Tomcat's connection cap, Tomcat's streams asking for thousands of connections where
 * Reactor Netty's take a few dozen;
 * at 10,000 users this machine's CPU, not the model, decides WebFlux over TLS; and each response costs both sides more
 * CPU, as the findings' table gives it.
 */
class TlsDefaultQuestionTest {

    private static final Path SECURE = Lab.repo().resolve("docs/results-tls/default");
    private static final Path CLEAR = Lab.repo().resolve("docs/results-tls/default-h1");
    private static final List<String> STACKS = List.of("mvc-t200", "mvc-virtual", "webflux");
    private static final List<String> PROTOCOLS = TlsFindingsTest.PROTOCOLS;
    private static final String TOMCATS_CONNECTIONS = "Tomcat's connections";

    /** Both sweeps' points by their id (their targets' ids tell the protocols apart). */
    private static Map<String, Summary.PointRow> points() {
        Map<String, Summary.PointRow> all = new HashMap<>(TlsFindingsTest.points(SECURE));
        all.putAll(TlsFindingsTest.points(CLEAR));
        return all;
    }

    private static Summary.PointRow at(Map<String, Summary.PointRow> points, String target, int users) {
        return TlsFindingsTest.at(points, target, users);
    }

    /** The CPU probe of each run of a sweep (MiB/s, as its point.json records it), lowest first. */
    private static List<Double> probes(Path sweep) {
        return Sweep.rows(new SweepFolder(sweep)).stream().map(r -> r.cpu().cpuProbe()).sorted().toList();
    }

    /** Every run's result file of both sweeps. */
    private static List<Result> results() throws IOException {
        List<Result> results = new ArrayList<>();
        for (Path sweep : List.of(SECURE, CLEAR)) {
            try (Stream<Path> dirs = Files.list(sweep.resolve("points"))) {
                for (Path d : dirs.sorted().toList()) {
                    results.add(ResultFile.read(d.resolve(ResultFile.NAME)));
                }
            }
        }
        return results;
    }

    private static List<Result> runsOf(List<Result> results, String target, int users) {
        return results.stream().filter(r -> r.target().id().equals(target) && r.parameters().users() == users).toList();
    }

    /** "low to high" of a figure over runs, as the findings write a range of runs. */
    private static String range(List<Result> runs, ToDoubleFunction<Result> figure) {
        return "%,.0f to %,.0f".formatted(runs.stream().mapToDouble(figure).min().orElseThrow(), runs.stream().mapToDouble(figure).max().orElseThrow());
    }

    /** A point's median goodput and its runs' range, as the sweep's table writes them. */
    private static String goodput(Summary.PointRow p) {
        return "%,.0f (%,.0f–%,.0f)".formatted(p.rates().goodput().median(), p.rates().goodput().min(), p.rates().goodput().max());
    }

    private static double connectionsAtOnce(Result r) {
        return r.server().pools().published().stream().filter(p -> p.name().equals(TOMCATS_CONNECTIONS)).findFirst().orElseThrow().inUse().max();
    }

    private static String findings() throws IOException {
        return Files.readString(Lab.repo().resolve("docs/findings.md")).replaceAll("\\s+", " ");
    }

    @Test
    void everyRunRecordsItsWireAndHowItsUsersConnectedAndAConnectionOfItsOwnCostsAHandshake() throws IOException {
        List<Result> results = results();
        assertThat(results).hasSize(72 + 36);
        for (Result r : results) {
            String id = r.target().id();
            String protocol = id.endsWith("-h2") ? "h2" : id.endsWith("-tls") ? "h1-tls" : "h1";
            String run = id + " at " + r.parameters().users();
            assertThat(r.parameters().endpoint().protocol()).as(run).isEqualTo(protocol);
            assertThat(r.parameters().endpoint().trust()).as(run).isEqualTo(protocol.equals("h1") ? null : "trust store");
            boolean own = r.parameters().users() <= 10_000;
            assertThat(r.injector().connections()).as(run).isEqualTo(own ? "per-user" : "shared");
            assertThat(r.injector().connectionsSwitched()).as("%s: shared because the open files cannot hold one a user", run).isEqualTo(!own);
            if (!protocol.equals("h1") && own) {
                assertThat(r.jvm().tls().count()).as("%s: a handshake per user", run).isEqualTo(r.parameters().users());
            }
        }
    }

    /** The CPU probe of each sweep's runs, as results-tls/README.md gives them: the clear-text sweep's machine was the slower. */
    @Test
    void eachSweepsCpuProbeIsTheReadmesAndTheClearTextOneRanSlower() throws IOException {
        String[] said = new String[2];
        double[] medians = new double[2];
        for (int i = 0; i < 2; i++) {
            List<Double> probes = probes(i == 0 ? SECURE : CLEAR);
            int n = probes.size();
            medians[i] = (probes.get((n - 1) / 2) + probes.get(n / 2)) / 2;
            said[i] = "%,.0f to %,.0f".formatted(probes.getFirst(), probes.getLast()) + (i == 0 ? " MiB/s" : "")
                    + " (median %,.0f)".formatted(medians[i]);
        }
        assertThat(medians[1]).isLessThan(medians[0]);
        List<Double> before = probes(Lab.repo().resolve("docs/results"));
        assertThat(Files.readString(Lab.repo().resolve("docs/results-tls/README.md")).replaceAll("\\s+", " "))
                .contains("(%,.0f to %,.0f MiB/s on this machine's CPU probe when that one was made)".formatted(before.getFirst(), before.getLast()))
                .contains("%s in the TLS sweep, %s in the clear-text one, about %.0f%% slower".formatted(said[0], said[1],
                        100 * (1 - medians[1] / medians[0])));
    }

    @Test
    void thePoolOfTwoHundredHoldsMvcAtItsBoundOnEveryProtocol() throws IOException {
        Map<String, Summary.PointRow> points = points();
        for (String protocol : PROTOCOLS) {
            for (int users : List.of(5000, 10_000, 20_000)) {
                Summary.PointRow p = at(points, "mvc-t200" + protocol, users);
                assertThat(p.model().modelPoolBound()).isEqualTo(2000.0);
                assertThat(Stages.Cause.of(p)).as(p.identity().point()).isEqualTo(Stages.Cause.POOL);
            }
            Summary.PointRow p = at(points, "mvc-t200" + protocol, 5000);
            assertThat(p.rates().goodput().median()).as(p.identity().point()).isCloseTo(2000, within(2000 * 0.05));
        }
        assertThat(findings()).contains("at 5,000 users %s req/s in clear text, %s over TLS and %s over HTTP/2".formatted(
                goodput(at(points, "mvc-t200", 5000)), goodput(at(points, "mvc-t200-tls", 5000)), goodput(at(points, "mvc-t200-h2", 5000))));
    }

    /** What decided each stack at each load, protocol by protocol, as the findings' "stack by stack" tells it. */
    @Test
    void stackByStackWhatDecidedEachLoadIsWhatTheFindingsSay() throws IOException {
        Map<String, Summary.PointRow> points = points();
        for (String protocol : PROTOCOLS) {
            for (int users : List.of(1000, 2000, 3000, 5000)) {
                assertThat(Stages.Cause.of(at(points, "mvc-virtual" + protocol, users))).as("mvc-virtual%s at %d", protocol, users)
                        .isEqualTo(Stages.Cause.OFFERED_LOAD);
                assertThat(Stages.Cause.of(at(points, "webflux" + protocol, users))).as("webflux%s at %d", protocol, users)
                        .isEqualTo(Stages.Cause.OFFERED_LOAD);
            }
            Summary.PointRow virtual = at(points, "mvc-virtual" + protocol, 20_000);
            if (protocol.equals("-h2")) {
                assertThat(Stages.Cause.of(virtual)).isEqualTo(Stages.Cause.SERVICE_POOL);
                assertThat(virtual.evidence().fullPool()).isEqualTo("Tomcat's HTTP/2 streams");
            }
            else {
                assertThat(Stages.Cause.of(virtual)).as("mvc-virtual%s at 20,000", protocol).isEqualTo(Stages.Cause.MACHINE);
            }
            for (int users : List.of(10_000, 20_000)) {
                assertThat(Stages.Cause.of(at(points, "webflux" + protocol, users))).as("webflux%s at %d", protocol, users)
                        .isEqualTo(protocol.isEmpty() ? Stages.Cause.OFFERED_LOAD : Stages.Cause.MACHINE);
            }
        }
        assertThat(findings()).contains("MVC on 200 threads: nothing, its pool from 5,000 users on every protocol")
                .contains(
                        "WebFlux: the offered load up to 20,000 users in clear text, up to 5,000 over TLS and over HTTP/2, and this machine's CPU from 10,000");
    }

    @Test
    void atTwentyThousandUsersHttp2EndsTheConnectionCapsKoWhileTomcatsStreamsAskForThousandsOfConnections() throws IOException {
        Map<String, Summary.PointRow> points = points();
        List<Result> results = results();
        for (String target : List.of("mvc-t200", "mvc-t200-tls")) {
            Summary.PointRow p = at(points, target, 20_000);
            assertThat(p.requests().koPercent()).as(target).isGreaterThan(20);
            assertThat(p.requests().topKoReason()).as(target).contains("connect timeout");
            assertThat(runsOf(results, target, 20_000)).hasSize(3).allSatisfy(r -> assertThat(connectionsAtOnce(r)).as("at the cap").isEqualTo(8192));
        }
        Summary.PointRow h1 = at(points, "mvc-t200", 20_000);
        Summary.PointRow tls = at(points, "mvc-t200-tls", 20_000);
        Summary.PointRow h2 = at(points, "mvc-t200-h2", 20_000);
        assertThat(h2.requests().koPercent()).isLessThan(1);
        assertThat(h2.latency().p50Ms().median()).as("the requests wait instead").isGreaterThan(tls.latency().p50Ms().median());
        List<Result> webflux = runsOf(results, "webflux-h2", 20_000);
        List<Result> mvc = runsOf(results, "mvc-t200-h2", 20_000);
        List<Result> virtual = runsOf(results, "mvc-virtual-h2", 20_000);
        assertThat(webflux).allSatisfy(r -> assertThat(r.jvm().tls().count()).as("Reactor Netty's: few connections").isLessThan(100));
        assertThat(mvc).allSatisfy(r -> assertThat(r.jvm().tls().count()).as("Tomcat's: thousands").isGreaterThan(1000));
        assertThat(findings())
                .contains("KO %.1f%% in clear text and %.1f%% over TLS with HTTP/1.1, %.1f%% over HTTP/2".formatted(h1.requests().koPercent(),
                        tls.requests().koPercent(), h2.requests().koPercent()))
                .contains("p50 %,.0f ms against %,.0f".formatted(h2.latency().p50Ms().median(), tls.latency().p50Ms().median()))
                .contains("%s TLS handshakes a run for mvc-t200-h2 and %s for mvc-virtual-h2".formatted(range(mvc, r -> r.jvm().tls().count()),
                        range(virtual, r -> r.jvm().tls().count())))
                .contains("%s connections open at once".formatted(range(mvc, TlsDefaultQuestionTest::connectionsAtOnce)))
                .contains("webflux-h2 paid %s".formatted(range(webflux, r -> r.jvm().tls().count())));
        // README's rule of thumb, where HTTP/2 cut this KO and where it did not: ReadmeRulesTest
    }

    @Test
    void atTenThousandUsersThisMachinesCpuDecidesWebfluxOverTlsNotTheModel() throws IOException {
        Map<String, Summary.PointRow> points = points();
        Summary.PointRow clear = at(points, "webflux", 10_000);
        assertThat(Stages.Cause.of(clear)).isEqualTo(Stages.Cause.OFFERED_LOAD);
        StringBuilder said = new StringBuilder("webflux served %s req/s in clear text".formatted(goodput(clear)));
        for (String protocol : List.of("-tls", "-h2")) {
            Summary.PointRow p = at(points, "webflux" + protocol, 10_000);
            assertThat(Stages.Cause.of(p)).as(p.identity().point()).isEqualTo(Stages.Cause.MACHINE);
            assertThat(p.requests().topKoReason()).as(p.identity().point()).contains("connect timeout");
            said.append(", %s (KO %.1f%%) over %s".formatted(goodput(p), p.requests().koPercent(), protocol.equals("-tls") ? "TLS" : "HTTP/2"));
        }
        assertThat(findings()).contains(said);
    }

    @Test
    void atFiveThousandUsersEveryResponseCostsBothSidesMoreCpuAsTheFindingsTableSays() throws IOException {
        Map<String, Summary.PointRow> points = points();
        String findings = Files.readString(Lab.repo().resolve("docs/findings.md"));
        for (String stack : STACKS) {
            assertThat(findings).as("the findings' table row of " + stack).contains(TlsFindingsTest.cpuRow(points, stack, 5000));
        }
    }
}
