package dev.latencylab.load.settings;

import dev.latencylab.load.result.PlateauSpan;
import dev.latencylab.load.model.OpenModel;
import dev.latencylab.load.result.ResultFile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The open model's plan (ramps and levels on Gatling's clock) and its queueing arithmetic. */
class OpenLoadTest {

    private final OpenLoad ladder = new OpenLoad(List.of(10.0, 20.0, 40.0), Duration.ofSeconds(2), Duration.ofSeconds(5), false);

    @Test
    void eachLevelFollowsItsRamp() {
        assertThat(ladder.levels()).containsExactly(
                new OpenLoad.PlannedLevel(0, 10, 2_000, 7_000),
                new OpenLoad.PlannedLevel(1, 20, 9_000, 14_000),
                new OpenLoad.PlannedLevel(2, 40, 16_000, 21_000));
        assertThat(ladder.duration()).isEqualTo(Duration.ofSeconds(21));
        assertThat(ladder.topRate()).isEqualTo(40);
    }

    @Test
    void anArrivalBelongsToTheLevelWhosePlateauHoldsItsDueTime() {
        assertThat(ladder.levelAt(0)).as("the first ramp").isEqualTo(-1);
        assertThat(ladder.levelAt(1_999)).isEqualTo(-1);
        assertThat(ladder.levelAt(2_000)).isZero();
        assertThat(ladder.levelAt(6_999)).isZero();
        assertThat(ladder.levelAt(7_000)).as("the ramp to 20").isEqualTo(-1);
        assertThat(ladder.levelAt(9_000)).isEqualTo(1);
        assertThat(ladder.levelAt(20_999)).isEqualTo(2);
        assertThat(ladder.levelAt(21_000)).as("after the end").isEqualTo(-1);
        assertThat(ladder.levelAt(-1)).isEqualTo(-1);
    }

    @Test
    void aLevelsGoodputIsTheMeanOfTheWholeSecondsItWasHeld() {
        long[] okPerSecond = {0, 5, 10, 10, 10, 3};
        assertThat(PlateauSpan.meanOfWholeSeconds(okPerSecond, 1.2, 5.2)).as("seconds 2, 3 and 4").isEqualTo(10);
        assertThat(PlateauSpan.meanOfWholeSeconds(okPerSecond, 4.5, 9.5)).as("the run ended in second 5").isEqualTo(3);
        assertThat(PlateauSpan.meanOfWholeSeconds(okPerSecond, 5.5, 6.5)).as("no whole second of it").isNull();
    }

    @Test
    void aPoolServesAtMostTOverLAndQueuesTheRestForTheWholeLevel() {
        OpenModel below = new OpenModel(30, 100, java.util.OptionalInt.of(4), 10);
        assertThat(below.capacity()).hasValue(40);
        assertThat(below.throughput()).isEqualTo(30);
        assertThat(below.saturated()).isFalse();
        assertThat(below.responseTimeMsAtLevelEnd()).isEqualTo(100);

        OpenModel above = new OpenModel(50, 100, java.util.OptionalInt.of(4), 10);
        assertThat(above.throughput()).isEqualTo(40);
        assertThat(above.saturated()).isTrue();
        // 10 req/s too many for 10 s: 100 queued, served at 40/s: the last waits 2.5 s more
        assertThat(above.responseTimeMsAtLevelEnd()).isEqualTo(2_600, offset(1e-9));

        OpenModel unbounded = new OpenModel(5_000, 100, java.util.OptionalInt.empty(), 10);
        assertThat(unbounded.capacity()).isEmpty();
        assertThat(unbounded.throughput()).isEqualTo(5_000);
        assertThat(unbounded.result().kneeUsers()).isNull();
        assertThat(unbounded.result().thinkMeanMs()).isZero();
    }
}
