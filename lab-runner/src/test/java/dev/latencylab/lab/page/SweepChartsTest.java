package dev.latencylab.lab.page;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

import dev.latencylab.lab.Lab;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.summary.MachineCeiling;
import dev.latencylab.lab.summary.Summary;
import dev.latencylab.lab.sweep.Sweep;

/**
 * The published sweeps' charts, drawn again from their data: what a reader must be able to trust at a glance on them.
 */
class SweepChartsTest {

    private static Map<String, XYChart> charts(String sweep) {
        return SweepCharts.charts(List.of(new SweepFolder(Lab.repo().resolve(sweep))));
    }

    private static List<Double> x(XYSeries s) {
        return java.util.Arrays.stream(s.getXData()).boxed().toList();
    }

    @Test
    void theChartsOfOneLatencyShareTheirXAxis() {
        Map<String, XYChart> charts = charts("docs/results");
        assertThat(charts.keySet()).contains("throughput-l100", "p99-l100", "machine-cpu-l100");
        assertThat(charts.values()).allSatisfy(c -> {
            assertThat(c.getStyler().getXAxisMin()).isZero();
            assertThat(c.getStyler().getXAxisMax()).as(c.getTitle()).isEqualTo(20_000 * 1.04);
        });
    }

    @Test
    void aPercentileAtTheConnectTimeoutIsDrawnAsTimeoutsNotAsALatency() {
        XYChart p99 = charts("docs/results").get("p99-l100");
        Map<String, XYSeries> series = p99.getSeriesMap();
        assertThat(series).containsKey("connect timeout 10 s (×: never connected)");
        // mvc-t200's p99 is 10,007 ms at 10,000 and 20,000 users: users who never connected, not a wait
        assertThat(x(series.get("mvc-t200 at the connect timeout"))).containsExactly(10_000.0, 20_000.0);
        assertThat(x(series.get("mvc-t200"))).containsExactly(1_000.0, 2_000.0, 3_000.0, 5_000.0);
        // WebFlux's p99 at 20,000 users, 15,263 ms, is past the timeout: a latency, on its line
        assertThat(x(series.get("webflux"))).contains(20_000.0);
        assertThat(series).doesNotContainKey("webflux at the connect timeout");
        assertThat(charts("docs/results").get("p50-l100").getSeriesMap()).as("no median at the timeout")
                .doesNotContainKey("connect timeout 10 s (×: never connected)");
    }

    /**
     * Sweeps side by side that ran with different connect timeouts: each one's line, its crosses on it. The published
     * sweep (10 s) beside a copy of it whose result files say 9.6 s (mvc-t200's 10,007 ms is within 5% of both).
     */
    @Test
    void sweepsSideBySideEachDrawTheirOwnConnectTimeout(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        java.nio.file.Path other = tmp.resolve("shorter-timeout");
        Lab.copyTree(Lab.repo().resolve("docs/results"), other);
        try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.walk(other.resolve("points"))) {
            for (java.nio.file.Path f : files.filter(f -> f.getFileName().toString().equals("result.json")).toList()) {
                tools.jackson.databind.node.ObjectNode result = (tools.jackson.databind.node.ObjectNode) dev.latencylab.load.result.Json.MAPPER
                        .readTree(f.toFile());
                ((tools.jackson.databind.node.ObjectNode) result.get("requests").get("timeoutsMs")).put("connect", 9_600);
                dev.latencylab.load.result.Json.MAPPER.writeValue(f.toFile(), result);
            }
        }
        Map<String, XYSeries> series = SweepCharts.charts(List.of(new SweepFolder(Lab.repo().resolve("docs/results")), new SweepFolder(other)))
                .get("p99-l100").getSeriesMap();
        assertThat(series).containsKeys("connect timeout 10 s (×: never connected)", "connect timeout 9.6 s (×: never connected)");
        assertThat(series.get("connect timeout 9.6 s (×: never connected)").getYData()).containsOnly(9_600.0);
    }

    @Test
    void aRangeIsACappedBarNotAnArrow() {
        XYSeries range = charts("docs/results").get("p99-l100").getSeriesMap().get("mvc-virtual-uncapped range 10000");
        assertThat(range.getXData()).hasSize(6);
        assertThat(range.getXData()[0]).isLessThan(10_000).isEqualTo(20_000 - range.getXData()[1]);
    }

    @Test
    void aCeilingBelowWhatTheSameStackServedIsNotDrawnAndThePageSaysWhy() throws Exception {
        Map<String, XYSeries> db = charts("docs/results-db").get("throughput-l100").getSeriesMap();
        assertThat(db).containsKeys("webflux-db-p50 machine ceiling", "mvc-virtual-db-p50 machine ceiling")
                .doesNotContainKeys("webflux-db machine ceiling", "mvc-virtual-db machine ceiling", "mvc-t200-db machine ceiling");
        assertThat(charts("docs/results").get("throughput-l100").getSeriesMap()).as("measured under load: all drawn")
                .containsKeys("mvc-t200 machine ceiling", "mvc-t400 machine ceiling", "mvc-virtual machine ceiling", "webflux machine ceiling");
        String page = java.nio.file.Files.readString(Lab.repo().resolve("docs/results-db/index.html"));
        assertThat(page).contains("= 223 req/s. Not drawn on the charts: it is below the 490 req/s that webflux-db-p50, the same stack "
                + "with another pool, served at 1,600 users.", "None for mvc-t200-db, mvc-virtual-db: ");
    }

    /** mvc-t200-db's busiest point within its pool served 62 req/s: 5.9 ms of CPU per response there would say 338. */
    @Test
    void aCeilingMeasuredAtUnderAQuarterOfItselfIsNone() {
        List<Summary.RunRow> runs = Sweep.rows(new SweepFolder(Lab.repo().resolve("docs/results-db")));
        assertThat(MachineCeiling.of(runs)).containsOnlyKeys("mvc-virtual-db-p50", "webflux-db", "webflux-db-p50");
        assertThat(MachineCeiling.of(Sweep.rows(new SweepFolder(Lab.repo().resolve("docs/results")))))
                .as("the default sweep's, measured under load").containsOnlyKeys("mvc-t200", "mvc-t400", "mvc-virtual",
                        "mvc-virtual-uncapped", "webflux");
    }

    /**
     * Tomcat's HTTP/2 streams held mvc-virtual-h2 below the model at every load of the shared-connections sweep, each at
     * its own bound (the connections the load spread over): a line through each load's bound, not one across the chart;
     * none where no such pool held a target.
     */
    @Test
    void aPoolWhoseSizeMovesWithTheLoadIsDrawnThroughEachLoadsBound() {
        XYChart chart = charts("docs/results-tls/shared").get("throughput-l1000");
        XYSeries streams = chart.getSeriesMap().get("bound: mvc-virtual-h2, Tomcat's HTTP/2 streams at each load (its size moves with it)");
        assertThat(streams).as(chart.getSeriesMap().keySet().toString()).isNotNull();
        var points = dev.latencylab.lab.sweep.Sweep.points(new SweepFolder(Lab.repo().resolve("docs/results-tls/shared"))).stream()
                .filter(p -> p.identity().target().equals("mvc-virtual-h2")).toList();
        assertThat(java.util.Arrays.stream(streams.getXData()).boxed().toList())
                .containsExactlyElementsOf(points.stream().map(p -> (double) p.identity().users()).toList());
        assertThat(java.util.Arrays.stream(streams.getYData()).boxed().toList())
                .containsExactlyElementsOf(points.stream().map(p -> p.evidence().fullPoolBound()).toList());
        assertThat(charts("docs/results").get("throughput-l100").getSeriesMap().keySet()).noneMatch(k -> k.contains("at each load"));
    }
}
