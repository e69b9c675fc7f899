package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.lab.capacity.Capacity;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.run.FreePorts;
import dev.latencylab.lab.targets.Target;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.lab.flow.ExitCode;

/**
 * Which pool bounds a service of the user's (the example service): a sweep and a capacity search name the one its own
 * metrics show full, from the evidence of the run, and draw its bound.
 */
// on a CPU of its own: a busy CPU is itself a bound, and the verdict would rightly name it (seen: "bounded by this
// machine's CPU at 30 users" with another test beside it); the service started by hand runs on that CPU too
@OnOwnCpu
class OwnServiceBoundsIT {

    @TempDir
    Path tmp;

    /**
     * A capacity search of the example service started by hand: 60 req/s well below HikariCP's 10 connections over
     * 100 ms, 120 a fifth above it; its answer below the objective's 200 req/s, and the pool its metrics show full at 120
     * named as the bound.
     */
    @Test
    void aCapacitySearchOfYourServiceNamesThePoolItsMetricsShowFullAtTheFirstMiss(OwnCpu cpu) throws Exception {
        try (ExampleServiceJar mine = ExampleServiceJar.start(cpu.taskset(), tmp.resolve("mine.log"))) {
            LabCommand.Finished capacity = LabCommand.run(tmp.resolve("capacity.console"), cpu.taskset(), "capacity", "--url", mine.url("/owners/2/visits"),
                    "--service", "clinic", "--slo", "p99:500,capacity:200", "--start-rate", "60", "--max-rate", "120", "--level-seconds", "5",
                    "--ramp-seconds", "1", "--refine-rounds", "0", "--warmup-seconds", "1", "--results", tmp.toString(), "--name", "clinic-capacity");
            assertThat(capacity.exitCode()).as(capacity.output()).isEqualTo(ExitCode.SLO_MISSED);
            assertThat(capacity.output()).contains("SLO p99 <= 500 ms from due").containsPattern("latency-lab: SLO MISSED: capacity [0-9]+ req/s < 200 req/s");
            Capacity.Search found = Capacity.read(tmp.resolve("clinic-capacity"));
            assertThat(found.settings().target()).isEqualTo("clinic");
            assertThat(found.answer().firstMissPerSecond()).as("120 req/s on 10 connections held 100 ms each: missed").isNotNull();
            Capacity.TopLevel miss = Capacity.atFirstMiss(found);
            assertThat(miss).as("its metrics at the first rate missed").isNotNull();
            assertThat(miss.full()).as("HikariCP full there").isNotNull();
            assertThat(miss.full().name()).isEqualTo("HikariCP");
            // the verdict, judged once, is kept in capacity.json and said by report as it was judged
            assertThat(found.slo()).as("capacity.json's SLO verdict").isNotNull();
            assertThat(found.slo().met()).isFalse();
            assertThat(found.slo().objectives()).extracting(o -> o.metric() + " " + o.met()).containsExactly("p99 true", "capacity false");
            assertThat(found.slo().objectives().get(1).value()).isEqualTo(found.answer().capacityPerSecond());
            LabCommand.Finished report = LabCommand.inThisJvm("report", tmp.resolve("clinic-capacity").toString(),
                    "--out", tmp.resolve("report").toString());
            assertThat(report.exitCode()).as(report.output()).isZero();
            assertThat(report.output()).contains("SLO clinic-capacity: missed: capacity");
            assertThat(capacity.output()).contains("model: none (its path names no latency)")
                    .contains("bounded by HikariCP, ").contains("the first rate missed: 10 connections held").doesNotContain("no pool bounds it");
        }
    }

    /**
     * A sweep of the example service's jar, its HikariCP pool resized by an argument to 2 connections: started for each
     * point and stopped after it, named as the user named it in folders, result files and page; its verdict names the
     * bound the service's own metrics show (at 30 users its 2 connections full, their bound 2 over the hold time it
     * publishes, and the goodput at it) with the knee the model calibrated at 2 users puts it at, what it does not
     * publish (Tomcat's threads) and the size of them given (--pool); its goodput chart draws that bound, the offered
     * load N/(L+Z) of the calibration, and the given pool's size / L; an objective no run meets exits 5, a line for each
     * run.
     */
    @Test
    void aSweepOfYourJarStartsItForEachPointAndNamesThePoolItsMetricsShowFull(OwnCpu cpu) throws Exception {
        int port = FreePorts.port();
        LabCommand.Finished sweep = LabCommand.run(tmp.resolve("sweep.console"), cpu.taskset(), "sweep", "--url",
                "http://127.0.0.1:%d/owners/2/visits".formatted(port), "--service", "clinic", "--jar", ExampleServiceJar.jar().toString(),
                "--jar-arg=--server.port=" + port, "--jar-arg=--spring.datasource.hikari.maximum-pool-size=2", "--users", "2,30",
                "--requests-per-user", "4", "--ramp-seconds", "1", "--think-min-ms", "10", "--think-max-ms", "20", "--warmup-seconds", "1",
                "--drain-seconds", "10", "--results", tmp.toString(), "--name", "clinic-sweep", "--slo", "p99:5", "--pool", "tomcat-threads=50");

        assertThat(sweep.exitCode()).as("every visit waits 100 ms: no run meets p99 5 ms\n" + sweep.output()).isEqualTo(ExitCode.SLO_MISSED);
        assertThat(sweep.output().lines().filter(l -> l.startsWith("latency-lab: SLO MISSED: clinic-l0-u"))).hasSize(2)
                .allSatisfy(l -> assertThat(l).containsPattern("-r1: p99 [0-9,]+ ms > 5 ms \\(by [0-9,]+ ms\\)"));
        assertThat(sweep.output()).containsPattern("clinic users=30 run 1 .*HikariCP full: at most [0-9]+ req/s \\(2 connections held [0-9]+ ms each\\)")
                .containsPattern("clinic users=2 run 1 .*none of its pools full \\(HikariCP 2, executor applicationTaskExecutor 8\\)");
        SweepFolder dir = new SweepFolder(tmp.resolve("clinic-sweep"));
        for (String point : List.of("clinic-l0-u2-r1", "clinic-l0-u30-r1")) {
            Result r = ResultFile.read(dir.point(point).resultFile());
            assertThat(r.target().id()).isEqualTo("clinic");
            assertThat(r.target().module()).isEqualTo(Target.SERVICE_MODULE);
            assertThat(r.requests().ok()).as(point).isEqualTo(Integer.parseInt(point.replaceAll(".*-u([0-9]+)-r1", "$1")) * 4L);
            assertThat(r.jvm()).as("%s: the jar started for it, with its flight recording", point).isNotNull();
            assertThat(r.model()).as("no latency in the path: no model").isNull();
            assertThat(r.slo().met()).as("%s: its verdict kept in its file", point).isFalse();
            assertThat(r.server().pools().unseen()).extracting(Result.Unseen::pool).containsExactly("Tomcat's threads");
            assertThat(r.server().pools().given()).as("the size given, named as the lab names the pool")
                    .containsExactly(new Result.GivenPool("Tomcat's threads", "threads", 50));
        }
        Result full = ResultFile.read(dir.point("clinic-l0-u30-r1").resultFile());
        Result.Pool hikari = full.server().pools().decided().orElseThrow(() -> new AssertionError(full.server().pools()));
        assertThat(hikari.name()).isEqualTo("HikariCP");
        assertThat(hikari.size()).isEqualTo(2);
        assertThat(hikari.holdMs()).as("each visit holds its connection through a 100-ms query").isGreaterThanOrEqualTo(100);
        assertThat(full.throughput().goodputPlateauPerSecond()).as("30 users on 2 connections: goodput at the pool's bound, 2 / hold")
                .isCloseTo(hikari.boundPerSecond(), org.assertj.core.data.Percentage.withPercentage(10));
        Result light = ResultFile.read(dir.point("clinic-l0-u2-r1").resultFile());
        assertThat(light.server().pools().decided()).as("2 users on 2 connections: none waits").isEmpty();
        String page = Files.readString(dir.page());
        assertThat(page).contains("<strong>clinic</strong>: none of its pools full at 2 users").contains("held by HikariCP")
                .contains("at 30 users").contains("2 connections held").contains("unseen: Tomcat's threads")
                .contains("given: Tomcat's threads 50")
                .containsPattern("at most [0-9.,]+ req/s, the knee at [0-9.,]+ users by L \\+ Z = [0-9]+\\.[0-9]+ s at 2 users")
                .doesNotContain("followed the offered load");
        assertThat(dir.charts().resolve("throughput-l0.svg")).isNotEmptyFile();
        org.knowm.xchart.XYChart throughput = dev.latencylab.lab.page.SweepCharts.charts(List.of(dir)).get("throughput-l0");
        assertThat(throughput.getTitle()).doesNotContain("ms latency");
        assertThat(throughput.getSeriesMap().keySet()).noneMatch(k -> k.startsWith("model: T/L"))
                .anyMatch(k -> k.startsWith("bound: HikariCP, 2 connections / ")).anyMatch(k -> k.startsWith("model: offered N/(L+Z), L "));
        assertThat(throughput.getSeriesMap().keySet().stream().filter(k -> k.startsWith("bound: Tomcat's threads, 50 given / L ")).toList()
                + throughput.getTitle()).as("the given pool's bound, 50 / L: a line, or above the chart").contains("Tomcat's threads, 50 given / L ");
        // the verdicts the runs' files keep, in the sweep's tables and said by report, not judged again
        assertThat(SweepIT.readCsv(dir.runsCsv())).extracting(r -> r.get("slo")).containsOnly("missed: p99");
        assertThat(SweepIT.readCsv(dir.summaryCsv())).extracting(r -> r.get("slo")).containsOnly("missed by 1 of 1");
        LabCommand.Finished report = LabCommand.inThisJvm("report", dir.dir().toString());
        assertThat(report.exitCode()).as(report.output()).isZero();
        assertThat(report.output()).contains("SLO clinic-l0-u2: missed by 1 of 1").contains("SLO clinic-l0-u30: missed by 1 of 1");
        assertThat(ProcessHandle.allProcesses().filter(h -> h.info().commandLine().orElse("").contains("--server.port=" + port)))
                .as("each point's jar stopped after it").isEmpty();
    }
}
