package dev.latencylab.load.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

class InjectorSplitTest {

    @Test
    void theSharesSumToTheTotalForEveryK() {
        for (int k = 1; k <= 17; k++) {
            for (int total : new int[] {k, k + 1, 2 * k - 1, 1000, 20_000, 20_001, 99_999}) {
                int injectors = k;
                int sum = IntStream.range(0, k).map(i -> new InjectorSplit(injectors, i, Optional.empty()).share(total)).sum();
                assertThat(sum).as("%d users over %d injectors", total, k).isEqualTo(total);
                int largest = new InjectorSplit(k, 0, Optional.empty()).share(total);
                int smallest = new InjectorSplit(k, k - 1, Optional.empty()).share(total);
                assertThat(largest - smallest).as("even: shares differ by at most one").isBetween(0, 1);
            }
        }
        assertThat(new InjectorSplit(2, 0, Optional.empty()).share(20_000)).isEqualTo(10_000);
        assertThat(new InjectorSplit(3, 0, Optional.empty()).share(10)).isEqualTo(4);
        assertThat(new InjectorSplit(3, 2, Optional.empty()).share(10)).isEqualTo(3);
        assertThat(InjectorSplit.ALONE.share(7)).isEqualTo(7);
    }

    @Test
    void theSharesOfARateSumToItInThousandthsForEveryK() {
        for (int k = 1; k <= 17; k++) {
            for (double rate : new double[] {17, 40, 2_400, 12_160, 12.5, 0.017, 99_999.999}) {
                int injectors = k;
                long sum = IntStream.range(0, k).mapToLong(i -> Math.round(new InjectorSplit(injectors, i, Optional.empty()).shareOfRate(rate) * 1000)).sum();
                assertThat(sum).as("%s req/s over %d injectors, in thousandths", rate, k).isEqualTo(Math.round(rate * 1000));
                double total = IntStream.range(0, k).mapToDouble(i -> new InjectorSplit(injectors, i, Optional.empty()).shareOfRate(rate)).sum();
                assertThat(total).isCloseTo(rate, org.assertj.core.data.Offset.offset(1e-9));
                assertThat(InjectorSplit.divisible(rate, k)).isTrue();
            }
        }
        assertThat(new InjectorSplit(2, 0, Optional.empty()).shareOfRate(2_400)).isEqualTo(1_200);
        assertThat(new InjectorSplit(3, 0, Optional.empty()).shareOfRate(10)).isEqualTo(3.334);
        assertThat(new InjectorSplit(3, 2, Optional.empty()).shareOfRate(10)).isEqualTo(3.333);
        assertThat(InjectorSplit.ALONE.shareOfRate(12.3456)).as("alone: the rate as given, not rounded").isEqualTo(12.3456);
        assertThat(InjectorSplit.ALONE.shareOfRate(0.0004)).isEqualTo(0.0004);
        assertThat(InjectorSplit.divisible(0.0005, 1)).as("not whole thousandths").isFalse();
        assertThat(InjectorSplit.divisible(0.002, 3)).as("an injector would send nothing").isFalse();
    }

    @Test
    void anIndexOutsideZeroToKMinusOneIsRefused() {
        assertThatThrownBy(() -> new InjectorSplit(2, 2, Optional.empty())).hasMessageContaining("0 to 1");
        assertThatThrownBy(() -> new InjectorSplit(2, -1, Optional.empty())).hasMessageContaining("0 to 1");
        assertThatThrownBy(() -> new InjectorSplit(0, 0, Optional.empty())).isInstanceOf(IllegalArgumentException.class);
    }
}
