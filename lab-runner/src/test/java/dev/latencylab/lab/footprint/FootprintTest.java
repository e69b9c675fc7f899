package dev.latencylab.lab.footprint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.latencylab.lab.footprint.Footprint.Fit;
import dev.latencylab.lab.footprint.Footprint.Measure;
import dev.latencylab.lab.footprint.Footprint.Measurement;
import dev.latencylab.lab.footprint.Footprint.Mode;
import dev.latencylab.lab.machine.Machine;
import dev.latencylab.lab.run.Status;

/** The fits: a line's slope and intercept recovered, one slope per repeat, their spread, failed measurements left out. */
class FootprintTest {

    @Test
    void leastSquaresRecoversALine() {
        double[] line = Footprint.leastSquares(new double[] {0, 1000, 2000, 5000}, new double[] {100, 2100, 4100, 10_100});
        assertThat(line[0]).isCloseTo(2, within(1e-9));
        assertThat(line[1]).isCloseTo(100, within(1e-6));
    }

    @Test
    void eachRepeatHasItsSlopeAndAFailedMeasurementCountsForNone() {
        List<Measurement> ms = new ArrayList<>();
        long[] bytesEach = {1000, 1100, 1300};
        for (int r = 1; r <= 3; r++) {
            for (int n : List.of(0, 1000, 2000)) {
                ms.add(done(r, n, 50_000_000 + bytesEach[r - 1] * n));
            }
        }
        ms.add(new Measurement("webflux", Mode.IN_FLIGHT, 1000, 1, Status.FAILED, "refused", null, null, null));
        Footprint f = new Footprint(new Footprint.Settings(List.of("webflux"), List.of(Mode.IN_FLIGHT), List.of(0, 1000, 2000), 3,
                50, 2, 1024, 512, List.of()), new Machine.Fingerprint(null, "cpu", 2, null, null), "jdk", "now", ms);
        Fit rss = f.fit("webflux", Mode.IN_FLIGHT, Measure.RSS).orElseThrow();
        assertThat(rss.slope().median()).isCloseTo(1100, within(1e-6));
        assertThat(rss.slope().min()).isCloseTo(1000, within(1e-6));
        assertThat(rss.slope().max()).isCloseTo(1300, within(1e-6));
        assertThat(rss.measurements()).isEqualTo(9);
        assertThat(rss.countAt(50_000_000 + 1100 * 4000.0)).isCloseTo(4000, within(1e-6));
        assertThat(f.fit("webflux", Mode.IDLE, Measure.RSS)).as("no idle measurement").isEmpty();

        List<Footprint.HeapCost> heap = f.heapCosts("webflux", Mode.IN_FLIGHT);
        assertThat(heap.get(0).javaName()).isEqualTo("byte[]");
        assertThat(heap.get(0).bytesEach().median()).as("64 bytes each in repeat 1, 128 in 2, 192 in 3; 0 to 2,000").isCloseTo(128, within(1e-9));
        assertThat(heap.get(1).bytesEach().median()).as("a class that does not grow").isZero();
    }

    private static Measurement done(int repeat, int count, long rss) {
        MemorySnapshot m = new MemorySnapshot(rss, 30, 20, count + 3, 20_000_000, 40_000_000, 60_000_000, 0,
                Map.of("Total", 200_000L), new MemorySnapshot.ThreadStacks(30, 2000),
                List.of(new MemorySnapshot.HeapClass("[B", count + 100, 1000L + 64L * count * repeat),
                        new MemorySnapshot.HeapClass("java.lang.String", 100, 2400)));
        return new Measurement("webflux", Mode.IN_FLIGHT, count, repeat, Status.DONE, null, (long) count, 0.1, m);
    }
}
