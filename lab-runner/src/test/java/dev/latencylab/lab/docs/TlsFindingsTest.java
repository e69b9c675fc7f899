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
import dev.latencylab.lab.summary.MachineCeiling;
import dev.latencylab.lab.summary.Points;
import dev.latencylab.lab.summary.Summary;
import dev.latencylab.lab.sweep.Sweep;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;

/**
 * What docs/findings.md says of the published quick sweep over TLS and HTTP/2 holds in its data: every run records
 * the protocol its id names and the run's own certificate as its trust; the pool of 20 serves T/L on every protocol;
 * at 1,000 users every response costs the server and the injector more CPU over TLS and over HTTP/2 than in clear
 * text, as the findings' table gives it; and WebFlux over HTTP/2 there is the one point this machine's CPU decided.
 */
class TlsFindingsTest {

    private static final Path QUICK = Lab.repo().resolve("docs/results-tls/quick");
    private static final List<String> STACKS = List.of("mvc-t20", "mvc-virtual", "webflux");
    private static final List<String> PROTOCOLS = List.of("", "-tls", "-h2");

    private static Map<String, Summary.PointRow> points() {
        List<Summary.RunRow> runs = Sweep.rows(new SweepFolder(QUICK));
        return Points.of(runs, MachineCeiling.of(runs)).stream().collect(Collectors.toMap(p -> p.identity().point(), Function.identity()));
    }

    private static Summary.PointRow at(Map<String, Summary.PointRow> points, String target, int users) {
        return points.get("%s-l100-u%d".formatted(target, users));
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
            Summary.PointRow clear = at(points, stack, 1000);
            StringBuilder row = new StringBuilder("| " + stack + " |");
            for (String protocol : PROTOCOLS) {
                Summary.PointRow p = at(points, stack + protocol, 1000);
                row.append(" %.2f + %.2f |".formatted(p.cpu().serverCpuMsPerRequest(), p.cpu().injectorCpuMsPerRequest()));
                if (!protocol.isEmpty()) {
                    assertThat(p.cpu().serverCpuMsPerRequest()).as(stack + protocol + ": the server's").isGreaterThan(clear.cpu().serverCpuMsPerRequest());
                    assertThat(p.cpu().injectorCpuMsPerRequest()).as(stack + protocol + ": the injector's")
                            .isGreaterThan(clear.cpu().injectorCpuMsPerRequest());
                }
            }
            assertThat(findings).as("the findings' table row of " + stack).contains(row.toString());
        }
    }

    @Test
    void webfluxOverHttp2AtAThousandUsersIsTheOnePointThisMachinesCpuDecided() {
        assertThat(points().values().stream().filter(p -> p.notes().flags().contains("machine-cpu-bound")).map(p -> p.identity().point()))
                .containsExactly("webflux-h2-l100-u1000");
    }
}
