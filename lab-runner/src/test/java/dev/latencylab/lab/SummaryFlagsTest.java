package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The flags a point gets, from result files with chosen numbers (the sweep ITs cover real ones, which rarely flag). */
class SummaryFlagsTest {

    @TempDir
    Path dir;

    private Summary.Row row(String result) throws Exception {
        SweepFolder sweep = new SweepFolder(dir);
        Point p = new Point(Target.parse("mvc-t200"), 5000, 100);
        Files.createDirectories(p.folder(sweep).dir());
        Files.writeString(p.folder(sweep).resultFile(), result);
        p.record(sweep, Point.Status.DONE, null, Map.of("wallSeconds", 90));
        return Summary.row(sweep, p.folder(sweep));
    }

    private static String result(double throughput, double model, boolean saturated, double machineCpu, double injectorCpu,
            double serverCpu, long ko, boolean switched, double injectorFiles) {
        return """
                {"requests":{"total":1000,"ok":%d,"ko":%d,"koPercent":%s,"koByReason":{"HTTP 503":%d}},
                 "throughput":{"meanPerSecond":%s,"peakPerSecond":2100,"plateauPerSecond":%s},
                 "plateau":{"machineCpu":%s,"injectorCpu":%s,"serverCpu":%s},
                 "responseTimeMs":{"p50":101,"p75":102,"p95":150,"p99":300,"p999":400,"max":500},
                 "injector":{"connections":"%s","connectionsSwitched":%s,"openFiles":{"max":%s},"openFilesLimit":20000},
                 "server":{"peakLiveThreads":216,"busyThreads":{"max":200},"heapUsedBytes":{"max":104857600},
                           "openFiles":{"max":5000},"openFilesLimit":20000},
                 "model":{"threads":200,"offeredLoadPerSecond":3125,"poolBoundPerSecond":2000,
                          "throughputAtFullPopulationPerSecond":%s,"meanThroughputBoundPerSecond":1500,
                          "kneeUsers":3200,"responseTimeMsAtFullPopulation":1000,"saturated":%s}}
                """.formatted(1000 - ko, ko, ko / 10.0, ko, throughput, throughput, machineCpu, injectorCpu, serverCpu,
                switched ? "shared" : "per-user", switched, injectorFiles, model, saturated);
    }

    @Test
    void aCleanPointHasNoFlagsAndItsNumbers() throws Exception {
        Summary.Row r = row(result(1980, 2000, true, 0.5, 0.2, 0.3, 0, false, 5400));
        assertThat(r.flags()).isEmpty();
        assertThat(r.throughput()).isEqualTo(1980);
        assertThat(r.modelThroughput()).isEqualTo(2000);
        assertThat(r.p95Ms()).isEqualTo(150);
        assertThat(r.serverPeakHeapMb()).isEqualTo(100);
        assertThat(r.connectionSettings()).isEqualTo("max-connections=8192 accept-count=100");
    }

    @Test
    void cpuBoundInjectorSwitchedConnectionsDescriptorsAndKo() throws Exception {
        Summary.Row r = row(result(1500, 2000, true, 0.97, 0.6, 0.37, 20, true, 18500));
        assertThat(r.flags()).isEqualTo("machine-cpu-bound; injector-cpu-bound; connections-switched; "
                + "descriptors-near-limit; ko 2.0% (HTTP 503)");
        assertThat(r.topKoReason()).isEqualTo("HTTP 503");
    }

    @Test
    void disagreementIsFlaggedOnlyWhenNothingSaturates() throws Exception {
        assertThat(row(result(1500, 1875, false, 0.5, 0.2, 0.3, 0, false, 3000)).flags()).isEqualTo("disagrees-with-model");
        assertThat(row(result(1500, 2000, true, 0.5, 0.2, 0.3, 0, false, 3000)).flags()).as("pool saturated").isEmpty();
        assertThat(row(result(1500, 1875, false, 0.95, 0.3, 0.6, 0, false, 3000)).flags()).as("machine saturated")
                .isEqualTo("machine-cpu-bound");
        assertThat(row(result(1800, 1875, false, 0.5, 0.2, 0.3, 0, false, 3000)).flags()).as("within 10%").isEmpty();
    }

    @Test
    void targetIdsAndTheirSettings() {
        assertThat(Target.parse("mvc").id()).isEqualTo("mvc-t200");
        assertThat(Target.parse("mvc-t400").poolThreads()).isEqualTo(400);
        assertThat(Target.parse("mvc-t400").properties()).containsEntry("server.tomcat.threads.max", "400");
        assertThat(Target.parse("mvc-virtual-uncapped").properties()).containsEntry("spring.threads.virtual.enabled", "true")
                .containsEntry("server.tomcat.max-connections", "100000");
        assertThat(Target.parse("mvc-virtual").poolThreads()).isZero();
        assertThat(Target.parse("webflux-block-elastic").path(100)).isEqualTo("block/100?scheduler=bounded-elastic");
        assertThat(Target.parse("webflux").connectionSettings()).isEmpty();
        assertThatThrownBy(() -> Target.parse("tomcat")).hasMessageContaining("unknown target 'tomcat'; known: mvc (= mvc-t200)");
        assertThatThrownBy(() -> Target.parse("mvc-t0")).hasMessageContaining("at least 1 thread");
    }
}
