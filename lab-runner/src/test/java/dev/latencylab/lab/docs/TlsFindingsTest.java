package dev.latencylab.lab.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
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
 * What docs/findings.md says of the published quick sweep over TLS and HTTP/2 holds in its data: every run records
 * the protocol its id names and the run's own certificate as its trust; the pool of 20 serves T/L on every protocol;
 * at 1,000 users every response costs the server and the injector more CPU over TLS and over HTTP/2 than in clear
 * text, as the findings' table gives it; and WebFlux over HTTP/2 there is the one point this machine's CPU decided.
 * And of the sweep of users sharing connections: MVC over HTTP/2 is held at every load by Tomcat's HTTP/2 streams,
 * the pool its gauges show full, at its bound; over HTTP/1.1, and WebFlux over HTTP/2, follow the offered load; with
 * 100 streams at once on a connection MVC over HTTP/2 follows it too; and over HTTP/1.1 the server paid hundreds of
 * TLS handshakes a run at 1,000 users where HTTP/2 paid a dozen, as the findings give them.
 */
class TlsFindingsTest {

    private static final Path QUICK = Lab.repo().resolve("docs/results-tls/quick");
    private static final Path SHARED = Lab.repo().resolve("docs/results-tls/shared");
    private static final Path LEVER = Lab.repo().resolve("docs/results-tls/shared-s100");
    private static final List<String> STACKS = List.of("mvc-t20", "mvc-virtual", "webflux");
    static final List<String> PROTOCOLS = List.of("", "-tls", "-h2");

    private static Map<String, Summary.PointRow> points() {
        return points(QUICK);
    }

    /** A sweep's points by their id. */
    static Map<String, Summary.PointRow> points(Path sweep) {
        return Sweep.points(new SweepFolder(sweep)).stream().collect(Collectors.toMap(p -> p.identity().point(), Function.identity()));
    }

    static Summary.PointRow at(Map<String, Summary.PointRow> points, String target, int users) {
        return points.get("%s-l100-u%d".formatted(target, users));
    }

    /**
     * A stack's row of a findings' CPU table at a load, "| stack | server + injector | ..." over PROTOCOLS, each in ms per
     * response; over TLS and over HTTP/2 both sides are checked to cost more than in clear text.
     */
    static String cpuRow(Map<String, Summary.PointRow> points, String stack, int users) {
        Summary.PointRow clear = at(points, stack, users);
        StringBuilder row = new StringBuilder("| " + stack + " |");
        for (String protocol : PROTOCOLS) {
            Summary.PointRow p = at(points, stack + protocol, users);
            row.append(" %.2f + %.2f |".formatted(p.cpu().serverCpuMsPerRequest(), p.cpu().injectorCpuMsPerRequest()));
            if (!protocol.isEmpty()) {
                assertThat(p.cpu().serverCpuMsPerRequest()).as(stack + protocol + ": the server's").isGreaterThan(clear.cpu().serverCpuMsPerRequest());
                assertThat(p.cpu().injectorCpuMsPerRequest()).as(stack + protocol + ": the injector's")
                        .isGreaterThan(clear.cpu().injectorCpuMsPerRequest());
            }
        }
        return row.toString();
    }

    @Test
    void everyRunRecordsWhatWentOnTheWireAndTrustedTheRunsCertificate() throws IOException {
        try (Stream<Path> dirs = Files.list(QUICK.resolve("points"))) {
            List<Path> points = dirs.sorted().toList();
            assertThat(points).hasSize(81);
            for (Path point : points) {
                Result r = ResultFile.read(point.resolve(ResultFile.NAME));
                String id = r.target().id();
                String protocol = id.endsWith("-h2") ? "h2" : id.endsWith("-tls") ? "h1-tls" : "h1";
                assertThat(r.parameters().endpoint().protocol()).as(point.toString()).isEqualTo(protocol);
                assertThat(r.parameters().endpoint().trust()).as(point.toString()).isEqualTo(protocol.equals("h1") ? null : "trust store");
                assertThat(r.parameters().endpoint().baseUrl()).startsWith(protocol.equals("h1") ? "http://" : "https://");
                assertThat(r.injector().connections()).as("a connection per user").isEqualTo("per-user");
            }
        }
    }

    @Test
    void thePoolOfTwentyServesItsBoundOnEveryProtocol() {
        Map<String, Summary.PointRow> points = points();
        for (String protocol : PROTOCOLS) {
            for (int users : List.of(500, 1000)) {
                Summary.PointRow p = at(points, "mvc-t20" + protocol, users);
                assertThat(p.model().modelPoolBound()).isEqualTo(200);
                assertThat(p.rates().goodput().min()).as(p.identity().point()).isCloseTo(200, within(200 * 0.03));
            }
        }
    }

    @Test
    void atAThousandUsersEveryResponseCostsBothSidesMoreCpuAsTheFindingsTableSays() throws IOException {
        Map<String, Summary.PointRow> points = points();
        String findings = Files.readString(Lab.repo().resolve("docs/findings.md"));
        for (String stack : STACKS) {
            assertThat(findings).as("the findings' table row of " + stack).contains(cpuRow(points, stack, 1000));
        }
    }

    @Test
    void webfluxOverHttp2AtAThousandUsersIsTheOnePointThisMachinesCpuDecided() {
        assertThat(points().values().stream().filter(p -> p.flags().has("machine-cpu-bound")).map(p -> p.identity().point()))
                .containsExactly("webflux-h2-l100-u1000");
    }

    @Test
    void sharingConnectionsOverHttp2MvcIsHeldByTomcatsStreamsAndTheOthersFollowTheOfferedLoad() throws IOException {
        Map<String, Summary.PointRow> points = points(SHARED);
        assertThat(points).hasSize(9);
        for (Summary.PointRow p : points.values()) {
            String target = p.identity().target();
            Stages.Cause cause = Stages.Cause.of(p);
            if (target.equals("mvc-virtual-h2")) {
                assertThat(p.evidence().fullPool()).as(p.identity().point()).isEqualTo("Tomcat's HTTP/2 streams");
                assertThat(cause).as(p.identity().point()).isEqualTo(Stages.Cause.SERVICE_POOL);
                assertThat(p.rates().goodput().max()).as("far below the offered load").isLessThan(p.model().modelThroughput() * 0.9);
                assertThat(p.flags().all()).doesNotContain(dev.latencylab.lab.summary.Flags.DISAGREES_WITH_MODEL);
            }
            else {
                assertThat(cause).as(p.identity().point()).isEqualTo(Stages.Cause.OFFERED_LOAD);
            }
        }
        Summary.PointRow held = points.get("mvc-virtual-h2-l1000-u1000");
        assertThat(Files.readString(Lab.repo().resolve("README.md")).replaceAll("\\s+", " ")).as("README's rule of thumb")
                .contains("MVC on virtual threads served %,.0f req/s of the %,.0f offered at 1,000 users; with 100 at once it followed the offered load"
                        .formatted(held.rates().goodput().median(), held.model().modelOfferedLoad()));
        for (Summary.PointRow p : points(LEVER).values()) {
            assertThat(Stages.Cause.of(p)).as("100 at once: " + p.identity().point()).isEqualTo(Stages.Cause.OFFERED_LOAD);
        }
        long[] h1 = {Long.MAX_VALUE, 0};
        long[] h2 = {Long.MAX_VALUE, 0};
        try (Stream<Path> dirs = Stream.concat(Files.list(SHARED.resolve("points")), Files.list(LEVER.resolve("points")))) {
            for (Path point : dirs.toList()) {
                Result r = ResultFile.read(point.resolve(ResultFile.NAME));
                assertThat(r.injector().connections()).as(point.toString()).isEqualTo("shared");
                assertThat(r.jvm().tls()).as("%s: its TLS handshakes counted", point).isNotNull();
                if (point.startsWith(SHARED) && r.parameters().users() == 1000) {
                    long[] range = r.parameters().endpoint().protocol().equals("h2") ? h2 : h1;
                    range[0] = Math.min(range[0], r.jvm().tls().count());
                    range[1] = Math.max(range[1], r.jvm().tls().count());
                }
            }
        }
        String findings = Files.readString(Lab.repo().resolve("docs/findings.md")).replaceAll("\\s+", " ");
        assertThat(findings).as("the handshakes of the runs at 1,000 users")
                .contains("%,d to %,d in a run at 1,000 users (its flight recording counts them), against %,d to %,d over HTTP/2"
                        .formatted(h1[0], h1[1], h2[0], h2[1]));
    }

    /**
     * HTTP/2 to the downstream: over HTTP/1.1 WebFlux's 16 connections bound it from 400 users, the rest refused fast;
     * over HTTP/2 the same connections carry every call and it follows the offered load, no call waiting for one; the
     * findings' gauge ranges are the result files'.
     */
    @Test
    void overHttp2TheDownstreamsConnectionsNoLongerBoundWebFlux() throws IOException {
        Path sweep = Lab.repo().resolve("docs/results-http2");
        Map<String, Summary.PointRow> points = points(sweep);
        assertThat(points).hasSize(6);
        for (Summary.PointRow p : points.values()) {
            boolean h2c = p.identity().target().endsWith("-h2c");
            Stages.Cause cause = Stages.Cause.of(p);
            if (h2c || p.identity().users() == 100) {
                assertThat(cause).as(p.identity().point()).isEqualTo(Stages.Cause.OFFERED_LOAD);
            }
            else {
                assertThat(cause).as(p.identity().point()).isEqualTo(Stages.Cause.POOL);
                assertThat(p.requests().topKoReason()).isEqualTo("HTTP 503");
            }
            if (h2c) {
                assertThat(p.requests().koPercent()).as(p.identity().point()).isZero();
            }
        }
        List<Result> http = new java.util.ArrayList<>();
        List<Result> h2c = new java.util.ArrayList<>();
        try (Stream<Path> dirs = Files.list(sweep.resolve("points"))) {
            for (Path d : dirs.filter(d -> !d.getFileName().toString().contains("-u100-")).sorted().toList()) {
                Result r = ResultFile.read(d.resolve("result.json"));
                (d.getFileName().toString().contains("-h2c-") ? h2c : http).add(r);
            }
        }
        assertThat(h2c).hasSize(6).allSatisfy(r -> assertThat(r.server().connectionPool().pending().max()).as("no call waited").isZero());
        long waitingLow = http.stream().mapToLong(r -> Math.round(r.server().connectionPool().pending().max())).min().orElseThrow();
        long waitingHigh = http.stream().mapToLong(r -> Math.round(r.server().connectionPool().pending().max())).max().orElseThrow();
        long activeLow = h2c.stream().mapToLong(r -> Math.round(r.server().connectionPool().active().max())).min().orElseThrow();
        long activeHigh = h2c.stream().mapToLong(r -> Math.round(r.server().connectionPool().active().max())).max().orElseThrow();
        String findings = Files.readString(Lab.repo().resolve("docs/findings.md")).replaceAll("\\s+", " ");
        assertThat(findings).contains("16 connections in use, %d to %d calls waiting for one".formatted(waitingLow, waitingHigh))
                .contains("connections in use read %d to %d at its highest, above the pool's 16".formatted(activeLow, activeHigh));
        assertThat(http).allSatisfy(r -> assertThat(r.server().connectionPool().active().max()).isEqualTo(16.0));
    }

    /**
     * HTTP/2 to the downstream from MVC: over HTTP/1.1 HttpClient 5's 5 connections hold it at T/L from the first load;
     * over HTTP/2 the JDK's client carries the offered load at 1,000 users and fails the calls past its 100 streams at
     * 2,000 (fast 503s, served under T/L). Each figure the findings give, from the runs' result files.
     */
    @Test
    void overHttp2MvcIsHeldByItsConnectionsStreamsAndFailsPastThem() throws IOException {
        Path sweep = Lab.repo().resolve("docs/results-http2-mvc");
        Map<String, Summary.PointRow> points = points(sweep);
        assertThat(points).hasSize(6);
        for (int users : List.of(100, 1000, 2000)) {
            Summary.PointRow http = at(points, "mvc-virtual-http", users);
            assertThat(Stages.Cause.of(http)).as("HttpClient 5's pool at %d users", users).isEqualTo(Stages.Cause.POOL);
            assertThat(http.rates().goodput().median()).isLessThanOrEqualTo(50 * 1.05);
        }
        assertThat(Stages.Cause.of(at(points, "mvc-virtual-http-h2c", 1000))).isEqualTo(Stages.Cause.OFFERED_LOAD);
        Map<Integer, List<Result>> h2c = new java.util.TreeMap<>();
        try (Stream<Path> dirs = Files.list(sweep.resolve("points"))) {
            for (Path d : dirs.filter(d -> d.getFileName().toString().startsWith("mvc-virtual-http-h2c-")).sorted().toList()) {
                Result r = ResultFile.read(d.resolve("result.json"));
                h2c.computeIfAbsent(r.parameters().users(), u -> new java.util.ArrayList<>()).add(r);
            }
        }
        List<Result> at1000 = h2c.get(1000);
        List<Result> at2000 = h2c.get(2000);
        assertThat(at2000).hasSize(3).allSatisfy(r -> {
            assertThat(r.requests().koByReason()).as("each call past the streams: a 503").containsOnlyKeys("HTTP 503");
            assertThat(r.throughput().goodputPlateauPerSecond()).as("under T/L").isLessThan(r.model().poolBoundPerSecond());
        });
        String findings = Files.readString(Lab.repo().resolve("docs/findings.md")).replaceAll("\\s+", " ");
        assertThat(findings).contains("%,d KO in %,d requests".formatted(at1000.stream().mapToLong(r -> r.requests().ko()).sum(),
                at1000.stream().mapToLong(r -> r.requests().total()).sum()))
                .contains("%.1f%% to %.1f%% of the requests".formatted(at2000.stream().mapToDouble(r -> r.requests().koPercent()).min().orElseThrow(),
                        at2000.stream().mapToDouble(r -> r.requests().koPercent()).max().orElseThrow()))
                .contains(
                        "served %,.0f to %,.0f req/s".formatted(at2000.stream().mapToDouble(r -> r.throughput().goodputPlateauPerSecond()).min().orElseThrow(),
                                at2000.stream().mapToDouble(r -> r.throughput().goodputPlateauPerSecond()).max().orElseThrow()))
                .contains("%.0f calls at once on average".formatted(at2000.get(0).model().offeredLoadPerSecond() * 0.1));
    }
}
