package dev.latencylab.lab.summary;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.latencylab.load.result.SloVerdict;

/** The SLO verdict in a table's cell: a run's as its file keeps it, a point's from its runs', none where none was given. */
class SloCellTest {

    private static SloVerdict verdict(boolean p99Met, boolean koMet) {
        return new SloVerdict(p99Met && koMet, List.of(new SloVerdict.Objective("p99", "ms", 200, true, p99Met ? 150.0 : 250.0, p99Met),
                new SloVerdict.Objective("ko", "%", 1, true, koMet ? 0.0 : 3.0, koMet)));
    }

    @Test
    void aRunsCellNamesWhatItMissedAndAPointsCountsItsRuns() {
        assertThat(SloCell.ofRun(null)).as("no objective given").isNull();
        assertThat(SloCell.ofRun(verdict(true, true))).isEqualTo("met");
        assertThat(SloCell.ofRun(verdict(false, false))).isEqualTo("missed: p99, ko");
        assertThat(SloCell.ofPoint(List.of("met", "met"))).isEqualTo("met");
        assertThat(SloCell.ofPoint(List.of("met", "missed: ko", "met"))).isEqualTo("missed by 1 of 3");
        assertThat(SloCell.ofPoint(Arrays.asList(null, null))).as("none judged").isNull();
    }
}
