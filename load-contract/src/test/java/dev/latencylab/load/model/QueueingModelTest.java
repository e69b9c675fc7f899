package dev.latencylab.load.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.OptionalInt;

import org.junit.jupiter.api.Test;

class QueueingModelTest {

    /** The guide's numbers: T = 200, L = 100 ms, Z = 1.5 s. */
    private static QueueingModel pool(int users) {
        return new QueueingModel(users, 100, 1500, OptionalInt.of(200), 30, 30);
    }

    @Test
    void offeredLoadIsUsersOverLatencyPlusThink() {
        assertThat(pool(1000).offeredLoad()).isCloseTo(1000 / 1.6, within(1e-9));
        assertThat(pool(20000).offeredLoad()).isCloseTo(12500, within(1e-9));
    }

    @Test
    void aPoolSaturatesAtThreadsOverLatencyPastItsKnee() {
        assertThat(pool(1000).poolBound()).hasValue(2000.0);
        assertThat(pool(1000).kneeUsers()).hasValue(3200.0);
        assertThat(pool(3000).saturated()).isFalse();
        assertThat(pool(3000).throughputAtFullPopulation()).isCloseTo(1875, within(1e-9));
        assertThat(pool(5000).saturated()).isTrue();
        assertThat(pool(5000).throughputAtFullPopulation()).isEqualTo(2000);
    }

    @Test
    void pastTheKneeResponseTimeGrowsAsNLOverTMinusZ() {
        assertThat(pool(3000).responseTimeMsAtFullPopulation()).isEqualTo(100);
        assertThat(pool(5000).responseTimeMsAtFullPopulation()).isCloseTo(5000 * 100.0 / 200 - 1500, within(1e-9));
        assertThat(pool(20000).responseTimeMsAtFullPopulation()).isCloseTo(8500, within(1e-9));
    }

    @Test
    void withoutAPoolOnlyTheOfferedLoadBounds() {
        QueueingModel reactive = new QueueingModel(20000, 100, 1500, OptionalInt.empty(), 30, 30);
        assertThat(reactive.poolBound()).isEmpty();
        assertThat(reactive.kneeUsers()).isEmpty();
        assertThat(reactive.saturated()).isFalse();
        assertThat(reactive.throughputAtFullPopulation()).isEqualTo(12500);
        assertThat(reactive.responseTimeMsAtFullPopulation()).isEqualTo(100);
    }

    @Test
    void meanOverTheRunCountsRampAndDrain() {
        // 1000 users x 30 requests within 30 s of ramp + 30 x 1.6 s of a user's life
        assertThat(pool(1000).meanThroughputBound()).isCloseTo(30000 / 78.0, within(1e-9));
        assertThat(pool(20000).meanThroughputBound()).isEqualTo(2000);
    }
}
