package dev.latencylab.lab.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.latencylab.lab.Lab;
import dev.latencylab.lab.capacity.Capacity;
import dev.latencylab.lab.capacity.CapacitySearch;
import dev.latencylab.lab.compare.Comparison;
import dev.latencylab.lab.compare.Side;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;

/**
 * What docs/findings.md says of the three searches of each target holds in their data: each target's capacities, the
 * ladders that disagreed and why, and the intervals ./lab compare gives; the prose carries the same figures.
 */
class CapacityRepeatsFindingsTest {

    private static final Path DIR = Lab.repo().resolve("docs/capacity-repeats");

    private static List<Double> capacities(String name) {
        return List.of(1, 2, 3).stream().map(k -> Capacity.read(DIR.resolve(name + "-r" + k)).answer().capacityPerSecond()).toList();
    }

    private static Comparison.Weighed capacity(String a, String b) {
        return Comparison.of(Side.read(DIR.resolve(a)), Side.read(DIR.resolve(b))).pairs().get(0).outcomes().get(0);
    }

    private static List<CapacitySearch.Level> at(String search, double rate) {
        return Capacity.read(DIR.resolve(search)).levels().stream().filter(l -> l.rate() == rate && l.withinSlo() != null).toList();
    }

    @Test
    void eachTargetsCapacitiesAndWhatCompareMakesOfThem() throws IOException {
        assertThat(capacities("mvc-t200-l100")).containsExactly(1_000.0, 2_000.0, 2_000.0);
        assertThat(capacities("mvc-t200-l100-again")).containsExactly(2_000.0, 2_000.0, 2_000.0);
        assertThat(capacities("mvc-t400-l100")).containsExactly(3_920.0, 4_000.0, 3_920.0);
        assertThat(capacities("mvc-virtual-l100")).containsExactly(7_040.0, 7_360.0, 7_200.0);
        assertThat(capacities("webflux-l100")).containsExactly(16_800.0, 7_200.0, 16_800.0);

        String findings = Files.readString(Lab.repo().resolve("docs/findings.md"));
        Comparison.Weighed pools = capacity("mvc-t200-l100", "mvc-t400-l100");
        assertThat(pools.verdict()).isEqualTo(Comparison.Call.BETTER);
        assertThat(findings).contains("B − A +2,280 req/s, interval " + pools.interval().range());
        assertThat(capacity("mvc-t200-l100", "mvc-t200-l100-again").verdict()).isEqualTo(Comparison.Call.NO_DIFFERENCE);
        assertThat(findings).contains("(" + capacity("mvc-t200-l100", "mvc-t200-l100-again").interval().range() + ")");
        Comparison.Weighed stacks = capacity("mvc-virtual-l100", "webflux-l100");
        assertThat(stacks.verdict()).isEqualTo(Comparison.Call.NO_DIFFERENCE);
        assertThat(findings).contains("(interval " + stacks.interval().range() + ")");
    }

    /** mvc-t200's 1,000: 2,000 req/s met in ladders 1 and 2, missed in ladder 3 two seconds into the level. */
    @Test
    void atTheirTOverLThePoolsMetTheSloOnlySometimes() {
        assertThat(at("mvc-t200-l100-r1", 2_000)).extracting(CapacitySearch.Level::round, CapacitySearch.Level::withinSlo)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(1, true), org.assertj.core.groups.Tuple.tuple(2, true),
                        org.assertj.core.groups.Tuple.tuple(3, false));
        assertThat(at("mvc-t200-l100-r1", 2_000)).filteredOn(l -> l.round() == 3).singleElement()
                .satisfies(l -> assertThat(l.latency().p99FromDueMs()).isEqualTo(1_173));
        assertThat(List.of("mvc-t400-l100-r1", "mvc-t400-l100-r3"))
                .allSatisfy(s -> assertThat(Capacity.read(DIR.resolve(s)).answer().firstMissPerSecond()).isEqualTo(4_000));
        long missed = List.of(1, 2, 3).stream().filter(k -> Double.valueOf(4_000).equals(Capacity.read(DIR.resolve("mvc-t400-l100-r" + k)).answer()
                .firstMissPerSecond())).count();
        try {
            assertThat(Files.readString(Lab.repo().resolve("docs/sweeps.md")).replaceAll("\\s+", " ")).as("sweeps.md says the same")
                    .contains("mvc-t400 missed at its T/L, 4,000 req/s, in %d of 3 searches".formatted(missed));
        }
        catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** WebFlux's 7,200: 16,000 met in ladder 1; 8,000 missed in ladder 2 after a 91 ms GC pause, 890 arrivals late. */
    @Test
    void oneGcPauseHalvedAWebFluxSearch() {
        assertThat(at("webflux-l100-r2", 16_000)).singleElement().satisfies(l -> {
            assertThat(l.round()).isEqualTo(1);
            assertThat(l.withinSlo()).isTrue();
            assertThat(l.latency().p99FromDueMs()).isEqualTo(153);
        });
        Result ladder2 = ResultFile.read(DIR.resolve("webflux-l100-r2/round-2/result.json"));
        assertThat(ladder2.open().stoppedEarly()).contains("level 6 (8000 req/s) missed the SLO: 890 of its 80,000 arrivals");
        assertThat(Math.round(ladder2.jvm().gc().longestMs())).isEqualTo(91);
        assertThat(CapacitySearch.found(Capacity.read(DIR.resolve("webflux-l100-r2")).levels()).metAbove()).isEqualTo(16_000);
        long disagreed = List.of("mvc-t200-l100", "mvc-t200-l100-again", "mvc-t400-l100", "mvc-virtual-l100", "webflux-l100").stream()
                .flatMap(n -> List.of(1, 2, 3).stream().map(k -> Capacity.read(DIR.resolve(n + "-r" + k))))
                .filter(s -> CapacitySearch.found(s.levels()).metAbove() != null).count();
        assertThat(disagreed).as("\"It happened in 5 of these 15 searches\"").isEqualTo(5);
    }
}
