package dev.latencylab.lab.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** An objective as ./lab run --slo reads it: only the metrics a run is judged by are offered, a limit said as given. */
class SloTest {

    @Test
    void anUnknownMetricListsOnlyThoseARunIsJudgedByAndALimitIsSaidAsGiven() {
        assertThatThrownBy(() -> Slo.parse("--slo", "p42:10")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--slo p42:10: p42 is not a metric of one run's objective; give goodput, p50, p95, p99, ko");
        Slo tiny = Slo.parse("--slo", "p99:0.001,ko:0");
        assertThat(tiny.limits().get(0).missedBy(5.0)).isEqualTo("p99 5 ms > 0.001 ms (by 5.00 ms)");
        assertThat(tiny.limits().get(1).missedBy(0.0)).isNull();
        assertThat(Slo.parse("--slo", "p99:200").limits().get(0).missedBy(230.0)).isEqualTo("p99 230 ms > 200 ms (by 30 ms)");
    }

    /**
     * A capacity search judged once: the capacity it had to find (at least), and the p99 and KO of the level found, at
     * most; none found misses the capacity, whatever the others say.
     */
    @Test
    void aCapacitySearchIsJudgedByTheCapacityItFoundAndItsLevelsNumbers() {
        Slo objective = Slo.parseForCapacity("--slo", "p99:500,ko:1,capacity:200");
        dev.latencylab.load.result.SloVerdict short_ = objective.capacityVerdict(98.0, 130L, 0.0);
        assertThat(short_.met()).isFalse();
        assertThat(short_.objectives()).extracting(o -> o.metric() + " " + o.value() + " " + o.atMost() + " " + o.met())
                .containsExactly("p99 130.0 true true", "ko 0.0 true true", "capacity 98.0 false false");
        assertThat(objective.capacityVerdict(240.0, 130L, 0.0).met()).isTrue();
        dev.latencylab.load.result.SloVerdict none = objective.capacityVerdict(null, null, null);
        assertThat(none.met()).isFalse();
        assertThat(none.objectives().get(2).met()).as("no capacity found: missed").isFalse();
        assertThat(Slo.parseForCapacity("--slo", "p99:500").capacityVerdict(null, null, null).met()).as("no capacity asked: met")
                .isTrue();
    }
}
