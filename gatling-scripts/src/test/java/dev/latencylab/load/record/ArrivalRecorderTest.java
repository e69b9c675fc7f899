package dev.latencylab.load.record;

import dev.latencylab.load.result.Result;
import dev.latencylab.load.settings.OpenLoad;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Arrivals timed from when they were due, fed as Gatling feeds them (user ids in schedule order, wall-clock ms):
 * what an injector that starts a request late, or a server that holds it, does to each histogram and to a level.
 */
class ArrivalRecorderTest {

    /** One level of 10 req/s for 5 s after a 1 s ramp: due offsets 1,000, 1,100, ..., 5,900 ms (the ramp has none here). */
    private final OpenLoad load = new OpenLoad(List.of(10.0), Duration.ofSeconds(1), Duration.ofSeconds(5), false);
    private final long[] due = java.util.stream.LongStream.range(0, 50).map(i -> 1_000 + 100 * i).toArray();
    private static final long T0 = 1_700_000_000_000L;

    private Result.Level level(ArrivalRecorder r) {
        return r.result("shared", T0, span -> new ArrivalRecorder.Span(null, null, null, span[1] - span[0]), level -> 10.0, null).levels().get(0);
    }

    @Test
    void aRequestSentLateCountsItsWaitFromDueButNotOnGatlingsClock() {
        ArrivalRecorder r = new ArrivalRecorder(load, due, 200, 0, false);
        for (int i = 0; i < 50; i++) {
            long dueAt = T0 + due[i];
            long started = i == 10 ? dueAt + 300 : dueAt; // the injector started arrival 11 300 ms late
            r.arrived(i + 1, started);
            r.completed(i + 1, 100, true, started + 100);
        }
        r.finish(T0 + 7_000);
        Result.Level l = level(r);

        assertThat(l.counts().arrivals()).isEqualTo(50).isEqualTo(l.counts().plannedArrivals());
        assertThat(l.times().responseTimeMs().max()).as("Gatling's clock starts when it sends").isEqualTo(100);
        assertThat(l.times().fromDueMs().max()).as("from due: the 300 ms before sending count").isEqualTo(400);
        assertThat(l.times().injectorLagMs().max()).isEqualTo(300);
        assertThat(l.goodputPerSecond()).as("the span asked for: the level's seconds on the run's clock").isEqualTo(5);
        assertThat(l.window().fromSecond()).as("the injection started with the run here").isEqualTo(1.0);
        assertThat(l.withinSlo()).as("one of 50 over the SLO: p99 above it").isFalse();
    }

    @Test
    void theSloCheckStopsALadderOnceALevelCannotMeetItAndCountsTheUnansweredAtTheirAge() {
        ArrivalRecorder r = new ArrivalRecorder(load, due, 200, 0, true);
        for (int i = 0; i < 20; i++) {
            r.arrived(i + 1, T0 + due[i]); // none answered: the server holds them all
        }
        r.check(T0 + due[0] + 150);
        assertThat(r.stopRequested()).as("no arrival has waited past the SLO yet").isFalse();
        r.check(T0 + due[0] + 250);
        assertThat(r.stopRequested()).as("1 of 50 is more than 1%: the p99 of 50 is their slowest").isTrue();
        assertThat(r.stopReason()).contains("level 1 (10 req/s) missed the SLO").contains("1 of its 50 arrivals took longer than 200 ms");

        r.finish(T0 + due[19] + 1_000);
        r.completed(1, 5_000, true, T0 + 20_000); // an answer after the end is not counted twice
        Result.Level l = level(r);
        assertThat(l.counts().unanswered()).isEqualTo(20);
        assertThat(l.times().fromDueMs().count()).isEqualTo(20);
        assertThat(l.times().fromDueMs().max()).as("the oldest waited 1,900 ms + 1 s at the end").isCloseTo(2_900L, org.assertj.core.data.Offset.offset(3L));
        assertThat(l.times().responseTimeMs().count()).as("Gatling timed none of them").isZero();
        assertThat(l.withinSlo()).isFalse();
    }

    @Test
    void aKoBeyondTheAllowedShareMissesTheSlo() {
        ArrivalRecorder r = new ArrivalRecorder(load, due, 200, 0, false);
        for (int i = 0; i < 50; i++) {
            r.arrived(i + 1, T0 + due[i]);
            r.completed(i + 1, 100, i != 7, T0 + due[i] + 100);
        }
        r.finish(T0 + 7_000);
        assertThat(level(r).withinSlo()).isFalse();
        assertThat(level(r).verdict()).contains("KO 2.00%");

        ArrivalRecorder tolerant = new ArrivalRecorder(load, due, 200, 5, false);
        for (int i = 0; i < 50; i++) {
            tolerant.arrived(i + 1, T0 + due[i]);
            tolerant.completed(i + 1, 100, i != 7, T0 + due[i] + 100);
        }
        tolerant.finish(T0 + 7_000);
        assertThat(level(tolerant).withinSlo()).as("2% KO within an SLO of 5%").isTrue();
    }

    @Test
    void aUserIdOutsideTheScheduleIsCountedNotGuessed() {
        ArrivalRecorder r = new ArrivalRecorder(load, due, 200, 0, false);
        r.arrived(51, T0);
        r.arrived(0, T0);
        assertThat(r.unscheduled()).isEqualTo(2);
    }

    /** A schedule that is not the plan's (what a changed Gatling would give) stops the run before it measures anything. */
    @Test
    void dueTimesThatDoNotFollowThePlanAreRefused() {
        long[] deltas = java.util.stream.LongStream.range(0, 50).map(i -> 100).toArray();
        assertThatThrownBy(() -> new ArrivalRecorder(load, deltas, 200, 0, false)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("level 1 holds 0 arrivals where 10 req/s for 5.0 s asks for 50")
                .hasMessageContaining("OpenInjectionStep.chain");
        long[] unordered = due.clone();
        unordered[3] = 900;
        assertThatThrownBy(() -> new ArrivalRecorder(load, unordered, 200, 0, false)).hasMessageContaining("arrival 4 is due at 900 ms, after 1200 ms");
        long[] late = java.util.Arrays.copyOf(due, 51);
        late[50] = 6_000;
        assertThatThrownBy(() -> new ArrivalRecorder(load, late, 200, 0, false)).hasMessageContaining("in a plan 6000 ms long");
        long[] short1 = java.util.Arrays.copyOf(due, 48);
        assertThatThrownBy(() -> new ArrivalRecorder(load, short1, 200, 0, false)).hasMessageContaining("holds 48 arrivals");
        OpenLoad poisson = new OpenLoad(List.of(10.0), Duration.ofSeconds(1), Duration.ofSeconds(5), true);
        assertThat(ArrivalRecorder.mismatch(poisson, java.util.Arrays.copyOf(due, 40), new long[] {40}))
                .as("Poisson: 40 for 50 is within six standard deviations").isNull();
        assertThat(ArrivalRecorder.mismatch(poisson, new long[] {1_000}, new long[] {1})).contains("holds 1 arrivals");
    }
}
