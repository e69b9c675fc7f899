package dev.latencylab.lab.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.load.result.Result;
import dev.latencylab.lab.Lab;
import dev.latencylab.lab.layout.SearchFolder;

/** The ladders a capacity search climbs and what their levels add up to. */
class CapacitySearchTest {

    private static CapacitySearch.Level level(double rate, Boolean within) {
        return level(rate, within, rate, null, null);
    }

    private static CapacitySearch.Level level(double rate, Boolean within, double goodput, Double serverCpu, Double injectorCpu) {
        return new CapacitySearch.Level(1, rate, within, goodput, new CapacitySearch.Latency(101L, 150L, 100L, 140L, 180L), 0, 0L, 1L,
                new Result.Cpu(serverCpu, injectorCpu, null), "");
    }

    @Test
    void theFirstLadderDoublesUpToTheMaximum() {
        assertThat(CapacitySearch.firstLadder(10, 80)).containsExactly(10.0, 20.0, 40.0, 80.0);
        assertThat(CapacitySearch.firstLadder(250, 20_000)).containsExactly(250.0, 500.0, 1_000.0, 2_000.0, 4_000.0, 8_000.0, 16_000.0, 20_000.0);
        assertThat(CapacitySearch.firstLadder(500, 500)).containsExactly(500.0);
        assertThat(CapacitySearch.firstLadder(3.333, 10)).containsExactly(3.33, 6.67, 10.0);
    }

    @Test
    void aRefinementClimbsEvenlyBetweenTheLastGoodAndTheFirstMissedLevel() {
        assertThat(CapacitySearch.between(40, 80, 4)).containsExactly(48.0, 56.0, 64.0, 72.0);
        assertThat(CapacitySearch.between(2_000, 4_000, 4)).containsExactly(2_400.0, 2_800.0, 3_200.0, 3_600.0);
        assertThat(CapacitySearch.between(100, 102, 4)).as("rates that round to the same are dropped").containsExactly(101.0);
        assertThat(CapacitySearch.between(100, 101, 4)).isEmpty();
    }

    @Test
    void aRefinementClimbsTheFirstLadderAgainBeforeItsNewLevels() {
        List<Double> first = CapacitySearch.firstLadder(250, 20_000);
        assertThat(CapacitySearch.refinement(first, 4_000, 8_000, 4))
                .containsExactly(250.0, 500.0, 1_000.0, 2_000.0, 4_000.0, 4_800.0, 5_600.0, 6_400.0, 7_200.0);
        assertThat(CapacitySearch.refinement(first, 4_800, 5_600, 4)).as("after a refinement: up to its last good level")
                .containsExactly(250.0, 500.0, 1_000.0, 2_000.0, 4_000.0, 4_800.0, 4_960.0, 5_120.0, 5_280.0, 5_440.0);
        assertThat(CapacitySearch.refinement(first, 100, 101, 4)).as("nothing left between them").isEmpty();
    }

    @Test
    void theCapacityIsTheHighestLevelWithinTheSloBelowTheLowestMiss() {
        CapacitySearch.Found o = CapacitySearch.found(List.of(level(10, true), level(20, true), level(40, true), level(80, false),
                level(48, false), level(44, null), level(41.6, true), level(43.2, false), level(46.4, true)));
        assertThat(o.capacity()).as("46.4 passed above a miss at 43.2: noise, not capacity").isEqualTo(41.6);
        assertThat(o.firstMiss()).isEqualTo(43.2);
        assertThat(o.bracketed()).isTrue();
        assertThat(o.metAbove()).as("and it is said").isEqualTo(46.4);
        assertThat(o.describe("req/s")).isEqualTo("41.6 req/s (the next level, 43.2 req/s, missed the SLO; 46.4 req/s met it in another ladder: "
                + "there the SLO is met only sometimes, repeat the search (--repeats 3))");
        CapacitySearch.Found agreed = CapacitySearch.found(List.of(level(10, true), level(20, true), level(40, false)));
        assertThat(agreed.metAbove()).isNull();
        assertThat(agreed.describe("req/s")).isEqualTo("20 req/s (the next level, 40 req/s, missed the SLO)");

        CapacitySearch.Found never = CapacitySearch.found(List.of(level(10, true), level(160, true)));
        assertThat(never.bracketed()).isFalse();
        assertThat(never.describe("req/s")).startsWith("at least 160 req/s");

        CapacitySearch.Found first = CapacitySearch.found(List.of(level(10, false), level(20, null)));
        assertThat(first.capacity()).isNull();
        assertThat(first.describe("req/s")).startsWith("below 10 req/s");
    }

    @Test
    void theMachineCeilingIsGoodputOverTheCpuOfTheBusiestLevelWithinTheSlo() {
        // 2,000 OK/s for 25% + 15% of all cores: 5,000 req/s would use all of them
        assertThat(CapacitySearch.machineCeiling(List.of(level(1_000, true, 1_000, 0.15, 0.10), level(2_000, true, 2_000, 0.25, 0.15),
                level(4_000, false, 3_000, 0.5, 0.4)), false)).isEqualTo(5_000, offset(1e-6));
        assertThat(CapacitySearch.machineCeiling(List.of(level(1_000, true)), false)).isNull();
        // a flow of 10 requests: 200 users/s answered 2,000 OK/s for 40% of all cores, so 500 users/s would use them all
        assertThat(CapacitySearch.machineCeiling(List.of(level(100, true, 1_000, 0.15, 0.10), level(200, true, 2_000, 0.25, 0.15)), true))
                .isEqualTo(500, offset(1e-6));
    }

    @Test
    void theGapIsHowMuchLongerTheP99IsFromDueThanOnGatlingsClock() {
        assertThat(level(100, true).coGapP99Ms()).isEqualTo(10);
        CapacitySearch.Level cut = new CapacitySearch.Level(1, 4_000, false, 0.3, new CapacitySearch.Latency(500L, 821L, 100L, 101L, 900L), 0, 3_000L, 1L,
                new Result.Cpu(null, null, null), "");
        assertThat(cut.coGapP99Ms()).as("a level cut short: the two percentiles are not over the same requests").isNull();
    }

    /**
     * Every published capacity.json reads into the typed search and writes back byte for byte, and its levels.csv is
     * what the levels give: the named parts of a search and of a level keep each field's name and place. A search from
     * before unanswered arrivals were counted gains them, as 0, and one from before a level's p50 by Gatling's clock was
     * kept gains it, as null (the published attempts kept as they were), and nothing else.
     */
    @Test
    void everyPublishedSearchReadsAndWritesBackByteForByte(@TempDir Path tmp) throws Exception {
        List<Path> files;
        try (Stream<Path> all = Files.walk(Lab.repo().resolve("docs"))) {
            files = all.filter(f -> f.getFileName().toString().equals(SearchFolder.CAPACITY_FILE)).sorted().toList();
        }
        assertThat(files).hasSizeGreaterThanOrEqualTo(20);
        for (Path f : files) {
            Path again = tmp.resolve(String.valueOf(files.indexOf(f)));
            Capacity.write(again, Capacity.read(f.getParent()));
            SearchFolder written = new SearchFolder(again);
            SearchFolder published = new SearchFolder(f.getParent());
            String before = Files.readString(f);
            String expected = before.contains("\"unanswered\"") ? before
                    : before.replaceAll("(?m)^( +)(\"koPercent\" : [^\n]*,)$", "$1$2\n$1\"unanswered\" : 0,");
            boolean current = before.contains("\"p50Ms\"");
            expected = current ? expected : expected.replaceAll("(?m)^( +)(\"p99FromDueMs\" : [^\n]*,)$", "$1$2\n$1\"p50Ms\" : null,");
            assertThat(Files.readString(written.capacityFile())).as(f.toString()).isEqualTo(expected);
            if (current && before.contains("\"unanswered\"") && Files.isRegularFile(published.levelsCsv())) {
                assertThat(Files.readString(written.levelsCsv())).as(published.levelsCsv().toString()).isEqualTo(Files.readString(published.levelsCsv()));
            }
        }
    }
}
