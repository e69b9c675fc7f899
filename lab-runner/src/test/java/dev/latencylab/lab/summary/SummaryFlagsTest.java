package dev.latencylab.lab.summary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import dev.latencylab.load.result.HistogramCodec;
import dev.latencylab.lab.Lab;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.machine.Machine;
import dev.latencylab.lab.run.Point;
import dev.latencylab.lab.run.PointRecord;
import dev.latencylab.lab.targets.Target;
import dev.latencylab.lab.run.Status;

/** The flags a point gets, from result files with chosen numbers (the sweep ITs cover real ones, which rarely flag). */
class SummaryFlagsTest {

    @TempDir
    Path dir;

    /** The boot id of the machine the sweep began on, as its sweep.json gives it (none here unless a case says). */
    private String sweepBoot;

    private Summary.RunRow row(String result) throws Exception {
        return row(result, null);
    }

    /** The row of a run done on this machine, its point.json 90 s long. */
    private Summary.RunRow row(String result, Machine.Fingerprint machine) throws Exception {
        SweepFolder sweep = new SweepFolder(dir);
        Point p = new Point(Target.parse("mvc-t200"), 5000, 100, 1);
        Files.createDirectories(p.folder(sweep).dir());
        Files.writeString(p.folder(sweep).resultFile(), result);
        Instant started = Instant.parse("2026-11-24T10:00:00Z");
        new PointRecord(p.described(), new PointRecord.Ending(Status.DONE, null), new PointRecord.Start(8091, started, machine, null),
                null, new PointRecord.End(0, started.plusSeconds(90), 90, null)).write(p.folder(sweep));
        return Summary.row(sweep, p.folder(sweep), sweepBoot);
    }

    /**
     * A real result file (mvc-t200 at 5,000 users, published) with the numbers a case chooses: its plateau one second
     * of throughput completions, ko of each 1,000 of them KO.
     */
    private static String result(double throughput, double model, boolean saturated, double machineCpu, double injectorCpu,
            double serverCpu, long ko, boolean switched, double injectorFiles) {
        ObjectNode r = (ObjectNode) JSON.readTree(Lab.repo().resolve("docs/results/points/mvc-t200-l100-u5000-r1/result.json").toFile());
        long total = Math.round(throughput);
        long failed = ko * total / 1000;
        ((ObjectNode) r.get("requests")).put("total", total).put("ok", total - failed).put("ko", failed).put("koPercent", 100.0 * failed / total)
                .set("koByReason", JSON.createObjectNode().put("HTTP 503", failed));
        // the counts above, consistent as a result file must be (ResultCheck): one second of them, the plateau, their histogram
        ((ObjectNode) r.get("throughput")).put("meanPerSecond", throughput).put("plateauPerSecond", (double) total)
                .put("goodputPlateauPerSecond", (double) (total - failed));
        ((ObjectNode) r.get("throughput")).set("completedPerSecond", JSON.createArrayNode().add(total));
        ((ObjectNode) r.get("throughput")).set("okPerSecond", JSON.createArrayNode().add(total - failed));
        ((ObjectNode) r.get("plateau")).put("fromSecond", 0).put("toSecond", 1).put("throughputPerSecond", (double) total)
                .put("machineCpu", machineCpu).put("injectorCpu", injectorCpu).put("serverCpu", serverCpu);
        Histogram h = new Histogram(3_600_000, 3);
        long fast = Math.round(total * 0.94);
        h.recordValueWithCount(101, fast);
        h.recordValueWithCount(150, total - fast); // p95 150 ms
        ((ObjectNode) r.get("histogram")).put("data", HistogramCodec.encode(h));
        r.set("responseTimeMs", JSON.createObjectNode().put("count", total).put("p50", h.getValueAtPercentile(50))
                .put("p75", h.getValueAtPercentile(75)).put("p95", h.getValueAtPercentile(95)).put("p99", h.getValueAtPercentile(99))
                .put("p999", h.getValueAtPercentile(99.9)).put("max", h.getMaxValue()).put("mean", h.getMean()));
        ObjectNode injector = (ObjectNode) r.get("injector");
        injector.put("connections", switched ? "shared" : "per-user").put("connectionsSwitched", switched).put("openFilesLimit", 20000);
        ((ObjectNode) injector.get("openFiles")).put("max", injectorFiles);
        ObjectNode server = (ObjectNode) r.get("server");
        server.put("openFilesLimit", 20000.0);
        ((ObjectNode) server.get("heapUsedBytes")).put("max", 104857600.0);
        ((ObjectNode) server.get("openFiles")).put("max", 5000.0);
        ((ObjectNode) r.get("model")).put("throughputAtFullPopulationPerSecond", model).put("saturated", saturated);
        return JSON.writeValueAsString(r);
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void aCleanPointHasNoFlagsAndItsNumbers() throws Exception {
        Summary.RunRow r = row(result(1980, 2000, true, 0.5, 0.2, 0.3, 0, false, 5400));
        assertThat(r.notes().flags().toString()).isEmpty();
        assertThat(r.rates().throughput()).isEqualTo(1980);
        assertThat(r.model().modelThroughput()).isEqualTo(2000);
        assertThat(r.latency().p95Ms()).isEqualTo(150);
        assertThat(r.peaks().serverPeakHeapMb()).isEqualTo(100);
        assertThat(r.pool().connectionSettings()).isEqualTo("max-connections=8192 accept-count=100");
    }

    @Test
    void cpuBoundInjectorSwitchedConnectionsDescriptorsAndKo() throws Exception {
        Summary.RunRow r = row(result(1500, 2000, true, 0.97, 0.6, 0.37, 20, true, 18500));
        assertThat(r.notes().flags().toString()).isEqualTo("machine-cpu-bound; injector-cpu-bound; connections-switched; "
                + "descriptors-near-limit; ko 2.0% (HTTP 503)");
        assertThat(r.requests().topKoReason()).isEqualTo("HTTP 503");
    }

    @Test
    void aRunOnAnotherBootThanTheSweepsFirstIsFlagged() throws Exception {
        sweepBoot = "first-machine";
        String clean = result(1980, 2000, true, 0.5, 0.2, 0.3, 0, false, 5400);
        assertThat(row(clean, machine("first-machine", 1400.0)).notes().flags().toString()).isEmpty();
        Summary.RunRow elsewhere = row(clean, machine("second-machine", 900.0));
        assertThat(elsewhere.notes().flags().toString()).isEqualTo(Flags.RESUMED_ELSEWHERE);
        assertThat(elsewhere.cpu().cpuProbe()).isEqualTo(900.0);
    }

    private static Machine.Fingerprint machine(String bootId, double cpuProbe) {
        return new Machine.Fingerprint(bootId, "a CPU", 2, 1.0, cpuProbe);
    }

    @Test
    void goodputCountsOkResponsesAndCpuIsPerOkResponse() throws Exception {
        ObjectNode r = (ObjectNode) JSON.readTree(result(1000, 2000, true, 0.5, 0.1, 0.25, 100, false, 3000));
        assertThat(r.get("throughput").get("goodputPlateauPerSecond").asDouble()).as("100 of 1,000 KO").isEqualTo(900.0);
        Summary.RunRow row = row(JSON.writeValueAsString(r));
        assertThat(row.rates().goodput()).isEqualTo(900.0);
        assertThat(row.rates().throughput()).isEqualTo(1000.0);
        int cores = row.cpu().cores();
        assertThat(row.cpu().serverCpuMsPerRequest()).as("25%% of %d cores over 900 OK responses a second", cores)
                .isEqualTo(0.25 * cores * 1000 / 900);
        assertThat(row.cpu().injectorCpuMsPerRequest()).isEqualTo(0.1 * cores * 1000 / 900);
    }

    @Test
    void aMachineBusyWithAnotherProcessIsNotTheInjectorsFault() throws Exception {
        // 98% busy, injector and server 15% together: something else ate the CPU
        assertThat(row(result(1500, 2000, true, 0.98, 0.08, 0.07, 0, false, 3000)).notes().flags().toString())
                .isEqualTo("machine-cpu-bound; machine-busy-elsewhere");
        // not CPU-bound, but 14% of the machine went elsewhere, more than injector and server used (the published mvc-t400 point at 1,000 users)
        assertThat(row(result(1500, 2000, true, 0.26, 0.05, 0.07, 0, false, 3000)).notes().flags().toString()).isEqualTo("machine-busy-elsewhere");
        assertThat(row(result(1500, 2000, true, 0.13, 0.04, 0.06, 0, false, 3000)).notes().flags().toString()).as("3% elsewhere: noise").isEmpty();
    }

    @Test
    void disagreementIsFlaggedOnlyWhenNothingSaturates() throws Exception {
        assertThat(row(result(1500, 1875, false, 0.5, 0.2, 0.3, 0, false, 3000)).notes().flags().toString()).isEqualTo("disagrees-with-model");
        assertThat(row(result(1500, 2000, true, 0.5, 0.2, 0.3, 0, false, 3000)).notes().flags().toString()).as("pool saturated").isEmpty();
        assertThat(row(result(1500, 1875, false, 0.95, 0.3, 0.6, 0, false, 3000)).notes().flags().toString()).as("machine saturated")
                .isEqualTo("machine-cpu-bound");
        assertThat(row(result(1800, 1875, false, 0.5, 0.2, 0.3, 0, false, 3000)).notes().flags().toString()).as("within 10%").isEmpty();
    }

    /** The result with one pool its server publishes: Tomcat's HTTP/2 streams, full on this share of samples, with this bound. */
    private static String withStreams(String result, double fullShare, double bound) {
        ObjectNode r = (ObjectNode) JSON.readTree(result);
        double size = bound / 10; // held 100 ms each
        ObjectNode pool = JSON.createObjectNode().put("name", "Tomcat's HTTP/2 streams").put("unit", "streams").put("size", size)
                .put("fullShare", fullShare).put("holdMs", 100.0).put("boundPerSecond", bound);
        pool.set("inUse", JSON.createObjectNode().put("mean", size).put("max", size).put("samples", 10));
        pool.set("pending", JSON.createObjectNode().put("samples", 0));
        ObjectNode pools = JSON.createObjectNode();
        pools.set("published", JSON.createArrayNode().add(pool));
        pools.set("unseen", JSON.createArrayNode());
        ((ObjectNode) r.get("server")).set("pools", pools);
        return JSON.writeValueAsString(r);
    }

    @Test
    void aPoolTheServerShowsFullAtTheGoodputIsNoDisagreementAndDecides() throws Exception {
        String below = result(1500, 1875, false, 0.5, 0.2, 0.3, 0, false, 3000);
        Summary.RunRow held = row(withStreams(below, 1.0, 1520));
        assertThat(held.notes().flags().toString()).as("its own pool's bound, 1% from what it served").isEmpty();
        assertThat(dev.latencylab.lab.sweep.RunLines.verdict(held)).isEqualTo("model 1,875 req/s, bounded by the offered load: held below "
                + "it by Tomcat's HTTP/2 streams, full: at most 1,520 req/s (152 streams held 100 ms each)");
        assertThat(Stages.Cause.of(Points.of(java.util.List.of(held), java.util.Map.of()).get(0))).isEqualTo(Stages.Cause.SERVICE_POOL);
        assertThat(row(withStreams(below, 1.0, 1875)).notes().flags().toString()).as("full, but its bound is not what it served")
                .isEqualTo(Flags.DISAGREES_WITH_MODEL);
        assertThat(row(withStreams(below, 0.2, 1520)).notes().flags().toString()).as("not full: it decided nothing").isEqualTo(Flags.DISAGREES_WITH_MODEL);
        Summary.RunRow met = row(withStreams(result(1800, 1875, false, 0.5, 0.2, 0.3, 0, false, 3000), 1.0, 1800));
        assertThat(Stages.Cause.of(Points.of(java.util.List.of(met), java.util.Map.of()).get(0))).as("within 10% of the offered load: the model's")
                .isEqualTo(Stages.Cause.OFFERED_LOAD);
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
