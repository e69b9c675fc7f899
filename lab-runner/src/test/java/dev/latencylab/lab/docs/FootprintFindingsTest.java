package dev.latencylab.lab.docs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.latencylab.lab.Lab;
import dev.latencylab.lab.footprint.Footprint;
import dev.latencylab.lab.footprint.Footprint.Measure;
import dev.latencylab.lab.footprint.Footprint.Mode;
import dev.latencylab.lab.summary.Spread;

/**
 * What docs/findings.md says of the published footprint holds in its data (docs/footprint), and the earlier run of the
 * same command lands within the published spread.
 */
class FootprintFindingsTest {

    private static final String PLATFORM = "mvc-t10000-uncapped";
    private static final String VIRTUAL = "mvc-virtual-uncapped";
    private static final String WEBFLUX = "webflux";

    private static final Footprint PUBLISHED = Footprint.read(Lab.repo().resolve("docs/footprint"));
    private static final Footprint EARLIER = Footprint.read(Lab.repo().resolve("docs/footprint/earlier"));

    private static double slope(Footprint f, String target, Mode mode, Measure measure) {
        return f.fit(target, mode, measure).orElseThrow().slope().median();
    }

    @Test
    void aPlatformThreadTouchesAboutATenthOfItsStack() {
        double stack = slope(PUBLISHED, PLATFORM, Mode.IN_FLIGHT, Measure.THREAD_STACKS);
        assertThat(stack / (1024 * 1024)).as("of -Xss's 1 MiB").isBetween(0.07, 0.14);
        assertThat(slope(PUBLISHED, VIRTUAL, Mode.IN_FLIGHT, Measure.THREAD_STACKS)).as("no native stack per virtual thread")
                .isLessThan(1024);
    }

    @Test
    void virtualThreadsSaveTheStackNotTomcatsHeap() {
        double platform = slope(PUBLISHED, PLATFORM, Mode.IN_FLIGHT, Measure.HEAP_USED);
        double virtual = slope(PUBLISHED, VIRTUAL, Mode.IN_FLIGHT, Measure.HEAP_USED);
        assertThat(virtual / platform).as("heap per request in flight, virtual against platform threads").isBetween(0.8, 1.25);
        assertThat(PUBLISHED.heapCosts(VIRTUAL, Mode.IN_FLIGHT).get(0).javaName()).isIn("byte[]", "char[]");
    }

    @Test
    void webFluxHoldsARequestForAnOrderOfMagnitudeLessHeapAndSeveralTimesLessMemory() {
        double webflux = slope(PUBLISHED, WEBFLUX, Mode.IN_FLIGHT, Measure.HEAP_USED);
        assertThat(slope(PUBLISHED, VIRTUAL, Mode.IN_FLIGHT, Measure.HEAP_USED) / webflux).isGreaterThan(5);
        assertThat(slope(PUBLISHED, VIRTUAL, Mode.IN_FLIGHT, Measure.RSS) / slope(PUBLISHED, WEBFLUX, Mode.IN_FLIGHT, Measure.RSS))
                .as("several times less RSS per request in flight").isGreaterThan(3);
    }

    @Test
    void anIdleConnectionCostsBothMvcStacksTheSameAndNettyFarLess() {
        double platform = slope(PUBLISHED, PLATFORM, Mode.IDLE, Measure.RSS);
        double virtual = slope(PUBLISHED, VIRTUAL, Mode.IDLE, Measure.RSS);
        assertThat(virtual / platform).isBetween(0.9, 1.1);
        assertThat(slope(PUBLISHED, WEBFLUX, Mode.IDLE, Measure.RSS)).isLessThan(platform / 5);
        assertThat(slope(PUBLISHED, PLATFORM, Mode.IDLE, Measure.THREADS)).as("no thread per idle connection").isLessThan(0.01);
    }

    @Test
    void theEarlierRunLandsWithinThePublishedSpread() {
        for (Mode mode : Mode.values()) {
            for (String target : PUBLISHED.settings().targets()) {
                Spread published = PUBLISHED.fit(target, mode, Measure.RSS).orElseThrow().slope();
                double earlier = slope(EARLIER, target, mode, Measure.RSS);
                // to a tenth of a KiB, as the verdicts print them
                assertThat(Math.round(earlier / 102.4)).as("%s %s: RSS per one more, earlier run against %s", target, mode, published.format("%,.0f"))
                        .isBetween(Math.round(published.min() / 102.4), Math.round(published.max() / 102.4));
            }
        }
    }
}
