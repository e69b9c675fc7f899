package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import dev.latencylab.load.Result;
import dev.latencylab.load.ResultFile;

/** Tiny real sweeps: the page and CSV from real result files, a failing point (interruption and resume: LabCommandLineIT). */
class SweepIT {

    @TempDir
    Path results;

    private final int mvcPort = Lab.freePort();
    private final int webfluxPort = Lab.freePort();

    private int sweep(String name, String targets, String users) {
        return LatencyLab.commandLine().execute("--repo", Lab.repo().toString(), "sweep",
                "--targets", targets, "--users", users, "--ramp-seconds", "1", "--repeat", "2",
                "--think-min-ms", "20", "--think-max-ms", "60", "--warmup-seconds", "1", "--drain-seconds", "10",
                "--mvc-port", String.valueOf(mvcPort), "--webflux-port", String.valueOf(webfluxPort),
                "--results", results.toString(), "--name", name);
    }

    @Test
    void pageAndCsvAreBuiltFromTheRealResultFiles() throws Exception {
        assertThat(sweep("tiny", "mvc-t200,webflux", "3,6")).isZero();
        SweepFolder dir = new SweepFolder(results.resolve("tiny"));

        List<Map<String, String>> csv = Summary.readCsv(dir.summaryCsv());
        assertThat(csv).extracting(r -> r.get("point")).containsExactlyInAnyOrder(
                "mvc-t200-l100-u3-r1", "mvc-t200-l100-u6-r1", "webflux-l100-u3-r1", "webflux-l100-u6-r1");
        String page = Files.readString(dir.page());
        for (Map<String, String> row : csv) {
            Result result = ResultFile.read(dir.point(row.get("point")).resultFile());
            assertThat(row.get("status")).isEqualTo("done");
            assertThat(Long.parseLong(row.get("requests"))).isEqualTo(result.requests().total())
                    .isEqualTo(Long.parseLong(row.get("users")) * 2);
            assertThat(Long.parseLong(row.get("ko"))).isEqualTo(result.requests().ko()).isZero();
            assertThat(Long.parseLong(row.get("p95Ms"))).isEqualTo(result.responseTimeMs().p95());
            assertThat(Long.parseLong(row.get("p50Ms"))).isGreaterThanOrEqualTo(100);
            assertThat(Double.parseDouble(row.get("modelOfferedLoad"))).isEqualTo(result.model().offeredLoadPerSecond());
            assertThat(dir.dir().resolve(row.get("report"))).isRegularFile();
            assertThat(page).contains("href=\"" + row.get("report") + "\"");
        }
        for (String chart : List.of("throughput", "p50", "p95", "p99", "ko", "server-threads", "server-cpu", "injector-cpu")) {
            assertThat(dir.charts().resolve(chart + "-l100.svg")).isNotEmptyFile();
            assertThat(dir.charts().resolve(chart + "-l100.png")).isNotEmptyFile();
            assertThat(page).contains("charts/" + chart + "-l100.svg");
        }
        assertThat(page).as("the page loads nothing from the network").doesNotContain("http://", "https://");
        JsonNode sweep = dir.readPlan();
        assertThat(sweep.at("/machine/cores").asInt()).isPositive();
        assertThat(sweep.at("/machine/cpuProbe/mibPerSecond").asDouble()).as("the machine's fingerprint").isPositive();
        assertThat(sweep.at("/versions/spring-boot").asString()).matches("[0-9.]+");
        assertThat(sweep.at("/versions/gatling").asString()).matches("[0-9.]+");
    }

    @Test
    void aFailingPointIsRecordedAndTheSweepGoesOn() throws Exception {
        try (ServerSocket squatter = new ServerSocket(webfluxPort, 1, InetAddress.getLoopbackAddress())) {
            assertThat(sweep("failing", "webflux,mvc-t200", "3")).as("exit code with a failed point").isEqualTo(1);
        }
        SweepFolder dir = new SweepFolder(results.resolve("failing"));
        JsonNode failed = Point.read(dir.point("webflux-l100-u3-r1"));
        assertThat(failed.path("status").asString()).isEqualTo("failed");
        assertThat(failed.path("reason").asString()).contains("port " + webfluxPort + " is in use");
        assertThat(Point.read(dir.point("mvc-t200-l100-u3-r1")).path("status").asString()).isEqualTo("done");
        assertThat(Files.readString(dir.page())).contains("FAILED: port " + webfluxPort + " is in use");
    }
}
