package dev.latencylab.load.own;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.latencylab.load.OpenSteps;
import dev.latencylab.load.record.ArrivalRecorder;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.settings.OpenLoad;

/**
 * An open load of a user's flow, levelled from Gatling's records: the due times are Gatling's own schedule for the
 * lab's steps, each user's start is paired with the arrival due in its turn, and a level counts and times the requests
 * sent while it was held, whichever user sent them.
 */
class FlowLevelsTest {

    private static final long T0 = 1_800_000_000_000L;

    private final OpenLoad load = new OpenLoad(List.of(2.0, 4.0), Duration.ofSeconds(1), Duration.ofSeconds(5), false);
    private final long[] due = OpenSteps.dueOffsetsMs(OpenSteps.of(load).stream().map(io.gatling.javaapi.core.OpenInjectionStep::asScala).toList());

    private static ArrivalRecorder.Span noSamples(double[] span) {
        return new ArrivalRecorder.Span(null, null, null, null);
    }

    @Test
    void eachLevelCountsItsArrivalsByDueAndItsRequestsBySending() {
        assertThat(due).as("Gatling's schedule of the steps: ramps of about 1 and 3 arrivals, levels of 10 and 20").hasSizeBetween(32, 36);
        // every user starts 5 ms late, but the third 200 ms late; each sends three requests of 50 ms, 300 ms apart
        long[] starts = new long[due.length];
        for (int k = 0; k < due.length; k++) {
            starts[k] = T0 + due[k] + (k == 2 ? 200 : 5);
        }
        FlowLevels levels = new FlowLevels(load, due, starts);
        long[][] okKo = new long[2][2];
        for (long start : starts) {
            for (int i = 0; i < 3; i++) {
                long sent = start + 300L * i;
                levels.request(sent, sent + 50, i != 2);
                int level = load.levelAt(sent - (T0 + 5)); // the schedule's origin: the earliest start against its due time
                if (level >= 0) {
                    okKo[level][i != 2 ? 0 : 1]++;
                }
            }
        }
        Result.Open open = levels.result(T0, 100, 50, due.length, FlowLevelsTest::noSamples);

        assertThat(open.flows()).isTrue();
        assertThat(open.sent().plannedArrivals()).isEqualTo(due.length);
        assertThat(open.sent().arrivalsStarted()).isEqualTo(due.length);
        assertThat(open.levels()).extracting(l -> l.counts().plannedArrivals()).containsExactly(10L, 20L);
        assertThat(open.levels()).extracting(l -> l.counts().arrivals()).containsExactly(10L, 20L);
        // the requests each level held: by when they were sent, not by which user sent them; none during a ramp
        assertThat(open.levels()).extracting(l -> l.counts().ok()).containsExactly(okKo[0][0], okKo[1][0]);
        assertThat(open.levels()).extracting(l -> l.counts().ko()).containsExactly(okKo[0][1], okKo[1][1]);
        assertThat(okKo[1][0] + okKo[1][1]).as("more requests than arrivals: a flow's").isGreaterThan(20);
        assertThat(open.levels()).allSatisfy(l -> {
            assertThat(l.times().fromDueMs()).as("a flow's requests have no due time: none written as if they had").isNull();
            assertThat(l.histograms().fromDueHistogram()).isNull();
            assertThat(l.times().judged()).as("judged by their own times").isEqualTo(l.times().responseTimeMs());
            assertThat(l.times().responseTimeMs().p99()).isEqualTo(50);
            assertThat(l.times().injectorLagMs().count()).as("one lag per arrival").isEqualTo(l.counts().arrivals());
        });
        // the lag is each start against the earliest reading of the schedule's origin (5 ms late): 0, and 195 ms once
        assertThat(open.fromDueMs()).isNull();
        assertThat(open.fromDueHistogram()).isNull();
        assertThat(open.injectorLagMs().max()).isBetween(194L, 196L);
        assertThat(open.injectorLagMs().p50()).isZero();
        // within 100 ms, and about a third of the requests KO against 50% allowed: within; the verdict names what it timed
        assertThat(open.levels()).allSatisfy(l -> {
            assertThat(l.withinSlo()).isTrue();
            assertThat(l.verdict()).contains("p99 of its requests 50 ms");
        });
        assertThat(open.levels().get(0).window().fromSecond()).as("the first level starts after the ramp, 5 ms late").isEqualTo(1.005);
    }

    @Test
    void aLevelWhoseRequestsAreSlowerThanTheSloOrWhoseUsersNeverStartedIsNotWithinIt() {
        long[] starts = new long[due.length - 3]; // the last three users never started
        for (int k = 0; k < starts.length; k++) {
            starts[k] = T0 + due[k];
        }
        FlowLevels levels = new FlowLevels(load, due, starts);
        for (int k = 0; k < starts.length; k++) {
            boolean secondLevel = load.levelAt(due[k]) == 1;
            levels.request(starts[k], starts[k] + (secondLevel ? 10 : 150), true);
        }
        Result.Open open = levels.result(T0, 100, 0, starts.length, FlowLevelsTest::noSamples);

        assertThat(open.levels().get(0).withinSlo()).as("150 ms against 100").isFalse();
        assertThat(open.levels().get(0).verdict()).startsWith("missed the SLO: p99 of its requests 150 ms");
        assertThat(open.levels().get(1).withinSlo()).as("three of its arrivals never came: cut short, not judged within").isNull();
        assertThat(open.sent().arrivalsStarted()).isEqualTo(due.length - 3);
    }
}
