package dev.latencylab.lab.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;

import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.lab.Lab;
import dev.latencylab.load.Result;

/**
 * A real flight recording of this JVM with the settings every target runs with: the collections forced within the
 * window are counted with their pauses on the window's seconds, those before it are not, and no virtual thread pinned.
 */
class JvmEventsTest {

    @TempDir
    Path tmp;

    @Test
    void theCollectionsWithinTheWindowAndNoneBefore() throws Exception {
        Path file = tmp.resolve("test.jfr");
        Configuration settings = Configuration.create(JvmEvents.settings(Lab.repo()));
        Instant start;
        Instant end;
        try (Recording recording = new Recording(settings)) {
            recording.start();
            System.gc(); // before the window
            Thread.sleep(50);
            start = Instant.now();
            for (int i = 0; i < 3; i++) {
                System.gc();
            }
            end = Instant.now().plusMillis(20);
            Thread.sleep(50);
            recording.stop();
            recording.dump(file);
        }
        Result.Jvm jvm = JvmEvents.read(file, start, end);
        assertThat(jvm.recording()).isEqualTo("test.jfr");
        assertThat(jvm.gc().count()).as("the three collections in the window").isEqualTo(3);
        assertThat(jvm.gc().totalMs()).isPositive().isGreaterThanOrEqualTo(jvm.gc().longestMs());
        assertThat(Arrays.stream(jvm.gc().msPerSecond()).sum()).isCloseTo(jvm.gc().totalMs(), within(0.01));
        assertThat(jvm.safepoints().count()).as("a full GC stops the world at a safepoint").isGreaterThanOrEqualTo(3);
        assertThat(jvm.pinned().count()).isZero();
        assertThat(jvm.pinned().topStack()).isEmpty();
    }
}
