package dev.latencylab.lab.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.latencylab.lab.Lab;
import dev.latencylab.lab.capacity.Capacity;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.summary.Flags;
import dev.latencylab.lab.summary.ServiceModel;
import dev.latencylab.lab.summary.Points;
import dev.latencylab.lab.summary.Summary;

/**
 * What docs/your-service.md says of the example service's published sweeps holds in their data: where a pool decides,
 * the goodput is within 5% of its bound (its metrics' for HikariCP, size / L for Tomcat's threads given by --pool);
 * below it, the goodput follows the offered load N/(L+Z) of the model calibrated at 20 users; a capacity search with
 * the threads given misses where their bound lies; the digest is this machine's CPU.
 */
class ServiceFindingsTest {

    private static List<Summary.PointRow> points(String sweep) {
        List<Summary.PointRow> points = Points.of(Summary.rows(new SweepFolder(Lab.repo().resolve("docs/results-service").resolve(sweep)), null),
                Map.of());
        assertThat(points).as(sweep).isNotEmpty().allSatisfy(p -> assertThat(p.outcome().runs()).isEqualTo(2));
        return points;
    }

    private static Summary.PointRow at(List<Summary.PointRow> points, int users) {
        return points.stream().filter(p -> p.identity().users() == users).findFirst().orElseThrow();
    }

    private static double goodput(Summary.PointRow p) {
        return p.rates().goodput().median();
    }

    @Test
    void hikariCpDecidesAtItsBoundAndMovesWithItsSize() {
        for (var sweep : Map.of("visits", List.of(200, 400), "visits-pool20", List.of(400)).entrySet()) {
            List<Summary.PointRow> points = points(sweep.getKey());
            for (Summary.PointRow p : points) {
                if (sweep.getValue().contains(p.identity().users())) {
                    assertThat(p.evidence().fullPool()).as(p.identity().point()).isEqualTo("HikariCP");
                    assertThat(goodput(p)).as("%s: within 5%% of its bound", p.identity().point())
                            .isCloseTo(p.evidence().fullPoolBound(), within(p.evidence().fullPoolBound() * 0.05));
                }
                else {
                    assertThat(p.evidence().fullPool()).as(p.identity().point()).isNull();
                }
            }
        }
        assertThat(at(points("visits-pool20"), 400).evidence().fullPoolBound() / at(points("visits"), 400).evidence().fullPoolBound())
                .as("20 connections against 10").isCloseTo(2.0, within(0.1));
    }

    @Test
    void tomcatsThreadsGivenDecideAtTheirSizeOverLAndTheLoadBelowFollowsTheModel() {
        List<Summary.PointRow> points = points("visits-threads5");
        ServiceModel model = ServiceModel.of(points).orElseThrow();
        assertThat(model.at().identity().users()).isEqualTo(20);
        for (Summary.PointRow p : points) {
            assertThat(p.evidence().fullPool()).as("nothing it publishes is full: %s", p.identity().point()).isNull();
            assertThat(p.evidence().givenPool()).isEqualTo("Tomcat's threads");
            double bound = model.givenPoolBound(p.evidence());
            double offered = model.offeredLoad(p.identity().users());
            if (offered > bound) {
                assertThat(goodput(p)).as("%s: within 5%% of 5 / L", p.identity().point()).isCloseTo(bound, within(bound * 0.05));
            }
            else {
                assertThat(goodput(p)).as("%s: within 5%% of N/(L+Z)", p.identity().point()).isCloseTo(offered, within(offered * 0.05));
            }
        }
        assertThat(points).filteredOn(p -> model.offeredLoad(p.identity().users()) > model.givenPoolBound(p.evidence())).as("100 and 200 users")
                .hasSize(2);
    }

    /** The search of the same: nothing published full at the first rate missed, 5 / L between the capacity and that rate. */
    @Test
    void aSearchWithTomcatsThreadsGivenMissesAtTheirSizeOverL() {
        Capacity.Search search = Capacity.read(Lab.repo().resolve("docs/results-service/capacity-threads5"));
        Capacity.TopLevel miss = Capacity.atFirstMiss(search);
        assertThat(miss.full()).as("none it publishes full").isNull();
        assertThat(miss.smallestGiven().name()).isEqualTo("Tomcat's threads");
        double bound = miss.smallestGiven().size() * 1000 / Capacity.calibrationMs(search);
        assertThat(search.answer().capacityPerSecond()).isLessThanOrEqualTo(bound * 1.05);
        assertThat(search.answer().firstMissPerSecond()).isGreaterThanOrEqualTo(bound * 0.95);
    }

    /**
     * The example's flow, a Gatling simulation of its users (docs/your-simulation.md): HikariCP decides from 200 users, near
     * its bound; each run sent each user's requests exactly (one registration, one search, ten reads), none failed; the
     * reads took their 100-ms query at 20 users and queued for a connection at 400, where the quick requests waited too.
     */
    @Test
    void theExamplesFlowIsBoundedByHikariCpAndItsRequestsQueueForIt() throws java.io.IOException {
        List<Summary.PointRow> points = points("flow");
        for (Summary.PointRow p : points) {
            boolean full = p.identity().users() >= 200;
            assertThat(p.evidence().fullPool()).as(p.identity().point()).isEqualTo(full ? "HikariCP" : null);
            if (full) {
                // a connection's hold time is the mean over three requests (the reads' 100-ms query, the others' few ms):
                // at 400 users the goodput stayed 6% below size / that mean
                assertThat(goodput(p)).isCloseTo(p.evidence().fullPoolBound(), within(p.evidence().fullPoolBound() * 0.10));
            }
        }
        Map<Integer, List<dev.latencylab.load.result.Result>> runs = new java.util.TreeMap<>();
        try (var files = java.nio.file.Files.walk(Lab.repo().resolve("docs/results-service/flow/points"))) {
            for (var f : files.filter(f -> f.getFileName().toString().equals("result.json")).toList()) {
                var r = dev.latencylab.load.result.ResultFile.read(f);
                runs.computeIfAbsent(r.parameters().users(), u -> new java.util.ArrayList<>()).add(r);
            }
        }
        assertThat(runs.keySet()).containsExactly(20, 100, 200, 400);
        runs.forEach((users, each) -> each.forEach(r -> {
            assertThat(r.simulation()).isEqualTo("VisitsFlow");
            assertThat(r.requests().ko()).isZero();
            assertThat(r.byRequest()).extracting(dev.latencylab.load.result.Result.ByRequest::name, q -> q.ok())
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("register owner", (long) users),
                            org.assertj.core.groups.Tuple.tuple("find owner", (long) users), org.assertj.core.groups.Tuple.tuple("read visits", 10L * users));
        }));
        for (var r : runs.get(20)) {
            assertThat(p50(r, "read visits")).isBetween(100L, 110L);
        }
        for (var r : runs.get(400)) {
            assertThat(p50(r, "read visits")).as("reads queued for a connection").isGreaterThan(1500L);
            assertThat(p50(r, "register owner")).as("and so did the quick requests").isGreaterThan(10 * p50(runs.get(20).get(0), "register owner"));
        }
        // the page's figures are these runs' own, each the range of its two runs
        String page = java.nio.file.Files.readString(Lab.repo().resolve("docs/your-simulation.md")).replaceAll("\\s+", " ");
        assertThat(page).contains("at 20 users reading the visits took %s ms at p50 (its 100-ms query), registering %s ms and finding %s ms".formatted(
                range(runs.get(20), "read visits"), range(runs.get(20), "register owner"), range(runs.get(20), "find owner")))
                .contains("At 400 users reading took %s ms, and registering (%s ms) and finding (%s ms) waited too".formatted(range(runs.get(400),
                        "read visits"), range(runs.get(400), "register owner"), range(runs.get(400), "find owner")));
        Summary.PointRow top = at(points, 400);
        assertThat(page).contains("at 400 users the goodput, %,.0f req/s, stayed %.0f%% below it (%,.0f)".formatted(goodput(top),
                100 * (1 - goodput(top) / top.evidence().fullPoolBound()), top.evidence().fullPoolBound()));
    }

    /** A request's p50 over runs, as the page writes it: one figure where they agree, else lowest–highest. */
    private static String range(List<dev.latencylab.load.result.Result> runs, String request) {
        java.util.LongSummaryStatistics s = runs.stream().mapToLong(r -> p50(r, request)).summaryStatistics();
        return s.getMin() == s.getMax() ? "%,d".formatted(s.getMin()) : "%,d–%,d".formatted(s.getMin(), s.getMax());
    }

    private static long p50(dev.latencylab.load.result.Result r, String request) {
        return r.byRequest().stream().filter(q -> q.name().equals(request)).findFirst().orElseThrow().responseTimeMs().p50();
    }

    @Test
    void theDigestIsThisMachinesCpu() {
        assertThat(at(points("digest"), 400).flags().all()).contains(Flags.MACHINE_CPU_BOUND);
    }

    /**
     * The example's idle connections: each one of its sockets and none of its threads; about 16 KiB each on its heap
     * (Tomcat's two 8 KiB buffers), in byte[]; RSS at one count spread wider between fresh starts than 500 add.
     */
    @Test
    void anIdleConnectionCostsTheServiceItsBuffersOnTheHeapAndNoThread() {
        dev.latencylab.lab.footprint.Footprint f = dev.latencylab.lab.footprint.Footprint.read(Lab.repo().resolve("docs/results-service/footprint"));
        var idle = dev.latencylab.lab.footprint.Footprint.Mode.IDLE;
        assertThat(f.measurements()).hasSize(12).allMatch(dev.latencylab.lab.footprint.Footprint.Measurement::done);
        for (var m : f.measurements()) {
            assertThat(m.memory().sockets() - m.count()).as(m.name()).isBetween(10, 20);
            assertThat(m.memory().osThreads()).as(m.name()).isBetween(45, 55);
        }
        double heapKiB = f.fit("example", idle, dev.latencylab.lab.footprint.Footprint.Measure.HEAP_USED).orElseThrow().slope().median() / 1024;
        assertThat(heapKiB).as("heap used per idle connection, KiB").isBetween(14.0, 20.0);
        assertThat(f.heapCosts("example", idle).get(0).javaName()).isEqualTo("byte[]");
        var at500 = f.measurements().stream().filter(m -> m.count() == 500).mapToLong(m -> m.memory().rssBytes()).summaryStatistics();
        assertThat((at500.getMax() - at500.getMin()) / 1024.0).as("RSS spread at 500, KiB, against what 500 add on the heap")
                .isGreaterThan(500 * heapKiB);
    }
}
