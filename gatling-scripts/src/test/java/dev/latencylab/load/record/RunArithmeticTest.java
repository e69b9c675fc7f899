package dev.latencylab.load.record;

import dev.latencylab.load.result.HistogramCodec;

import static org.assertj.core.api.Assertions.assertThat;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The small pieces of a recording that need no server: KO reasons, goodput, histograms. */
class RunArithmeticTest {

    @Test
    void koReasonFromStatusOrTimeToFailure() {
        assertThat(KoReason.classify(503, 12, 10_000, 60_000)).isEqualTo("HTTP 503");
        assertThat(KoReason.classify(-1, 60_002, 10_000, 60_000)).isEqualTo("no response: request timeout (60 s)");
        assertThat(KoReason.classify(-1, 10_004, 10_000, 60_000)).isEqualTo("no response: connect timeout (10 s)");
        assertThat(KoReason.classify(-1, 3, 10_000, 60_000)).isEqualTo("no response: connection failed");
        assertThat(KoReason.classify(-1, 60, 10_000, 50)).isEqualTo("no response: request timeout (50 ms)");
    }

    @Test
    void goodputCountsOkResponsesOnlyCompletionsCountBoth() {
        RunRecorder run = new RunRecorder();
        run.start();
        run.record(100, null);
        run.record(100, null);
        run.record(10_000, "no response: connect timeout (10 s)");
        run.record(100, null);
        run.finish();
        assertThat(run.completedPerSecond()).containsExactly(4);
        assertThat(run.okPerSecond()).as("as long as the completions, OK only").containsExactly(3);
        assertThat(run.ok()).isEqualTo(3);
        assertThat(run.ko()).isEqualTo(1);
    }

    @Test
    void encodedHistogramsOfSeveralInjectorsMergeExactly() {
        RunRecorder a = new RunRecorder();
        RunRecorder b = new RunRecorder();
        a.start();
        b.start();
        for (int i = 1; i <= 1000; i++) {
            a.record(100 + i % 7, null);
            b.record(2000 + i, i % 10 == 0 ? "HTTP 503" : null);
        }
        Histogram merged = HistogramCodec.decode(HistogramCodec.encode(a.responseTimes()));
        merged.add(HistogramCodec.decode(HistogramCodec.encode(b.responseTimes())));

        Histogram direct = a.responseTimes();
        direct.add(b.responseTimes());
        assertThat(merged).isEqualTo(direct);
        assertThat(merged.getTotalCount()).isEqualTo(2000);
        assertThat(b.ko()).isEqualTo(100);
        assertThat(b.koByReason()).containsEntry("HTTP 503", 100L);
    }
}
