package dev.latencylab.lab.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.lab.Lab;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.load.result.Jvm;
import dev.latencylab.load.result.ResultFile;

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
        Jvm jvm = JvmEvents.read(file, start, end);
        assertThat(jvm.recording()).isEqualTo("test.jfr");
        assertThat(jvm.gc().count()).as("the three collections in the window").isEqualTo(3);
        assertThat(jvm.gc().totalMs()).isPositive().isGreaterThanOrEqualTo(jvm.gc().longestMs());
        assertThat(Arrays.stream(jvm.gc().msPerSecond()).sum()).isCloseTo(jvm.gc().totalMs(), within(0.01));
        assertThat(jvm.safepoints().count()).as("a full GC stops the world at a safepoint").isGreaterThanOrEqualTo(3);
        assertThat(jvm.pinned().count()).isZero();
        assertThat(jvm.pinned().topStack()).isEmpty();
        assertThat(jvm.tls()).as("no TLS handshake: none said").isNull();
    }

    /**
     * A recording cut short (a full disk, as the third trial made one) cannot be read: the run fails with that said in
     * its result's problems and on the console, so that a sweep marks the point failed and a resume runs it again.
     */
    @Test
    void aRecordingCutShortFailsTheRunAndSaysWhy() throws Exception {
        RunFolder dir = new RunFolder(tmp.resolve("run"));
        Files.createDirectories(dir.dir());
        Files.copy(Lab.repo().resolve("docs/results-twice/quick-2/points/mvc-t20-l100-u1000-r1/result.json"), dir.resultFile());
        try (Recording recording = new Recording(Configuration.create(JvmEvents.settings(Lab.repo())))) {
            recording.start();
            System.gc();
            recording.stop();
            recording.dump(dir.targetRecording());
        }
        byte[] whole = Files.readAllBytes(dir.targetRecording());
        Files.write(dir.targetRecording(), Arrays.copyOf(whole, whole.length / 2));
        StringWriter console = new StringWriter();

        GatlingLauncher.Exit run = TargetRun.withJvmEvents(new GatlingLauncher.Exit(0, null, dir.resultFile(), null, List.of()), dir,
                new PrintWriter(console, true));

        assertThat(run.succeeded()).isFalse();
        assertThat(run.problems()).singleElement().asString().startsWith("the target's flight recording cannot be read (");
        assertThat(ResultFile.read(dir.resultFile()).problems()).isEqualTo(run.problems());
        assertThat(console.toString()).startsWith("latency-lab: the target's flight recording cannot be read");
    }
}
