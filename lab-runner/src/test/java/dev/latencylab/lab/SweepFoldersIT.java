package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.latencylab.lab.layout.FolderLock;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.run.PointRecord;
import dev.latencylab.lab.flow.ExitCode;
import dev.latencylab.lab.run.Status;

/**
 * One writer per sweep folder: a folder in use refused naming its holder (and a holder gone said so), two new sweeps
 * started together given a folder each.
 */
class SweepFoldersIT {

    @TempDir
    Path tmp;

    private Path console(String name) {
        return tmp.resolve(name + ".console");
    }

    @Test
    void aSweepFolderInUseIsRefusedNamingItsHolder() throws Exception {
        Path results = tmp.resolve("results");
        Path folder = Files.createDirectories(results.resolve("shared"));
        Process holder = new ProcessBuilder("sleep", "120").start();
        try {
            Files.writeString(folder.resolve(FolderLock.NAME), holder.pid() + "\n\nsweep --name shared\n");
            LabCommand.Finished busy = LabCommand.run(console("busy"), "sweep", "--targets", "webflux", "--users", "4",
                    "--results", results.toString(), "--name", "shared");
            assertThat(busy.exitCode()).as(busy.output()).isEqualTo(ExitCode.FAILED);
            assertThat(busy.output()).isEqualTo("latency-lab: %s is in use by another ./lab command (pid %d: sweep --name shared): "
                    .formatted(folder, holder.pid()) + "wait for it to end, or give another --name\n");
        }
        finally {
            holder.destroy();
            holder.waitFor(10, TimeUnit.SECONDS);
        }
        // its holder is gone (killed): said, and refused until the user takes it over
        LabCommand.Finished stale = LabCommand.run(console("stale"), "sweep", "--targets", "webflux", "--users", "4",
                "--results", results.toString(), "--name", "shared");
        assertThat(stale.exitCode()).as(stale.output()).isEqualTo(ExitCode.FAILED);
        assertThat(stale.output()).contains("was left locked by ./lab pid " + holder.pid()).contains("--take-over");
        assertThat(folder.resolve("sweep.json")).as("nothing written").doesNotExist();
    }

    @Test
    void twoNewSweepsStartedTogetherGetAFolderEach() throws Exception {
        Path results = tmp.resolve("results");
        // their one point fails at once (its port is taken): what counts here is where each sweep writes
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            List<LabCommand> sweeps = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                sweeps.add(LabCommand.start(console("new-" + i), "sweep", "--targets", "webflux", "--users", "4",
                        "--port", String.valueOf(taken.getLocalPort()), "--results", results.toString()));
            }
            for (LabCommand sweep : sweeps) {
                assertThat(sweep.await(Duration.ofMinutes(2))).as(sweep.output()).isEqualTo(ExitCode.FAILED);
            }
        }
        try (Stream<Path> folders = Files.list(results)) {
            List<Path> made = folders.toList();
            assertThat(made).as("a folder each").hasSize(2);
            for (Path folder : made) {
                assertThat(PointRecord.read(new RunFolder(folder.resolve("points/webflux-l100-u4-r1"))).outcome().status())
                        .isEqualTo(Status.FAILED);
                assertThat(folder.resolve(FolderLock.NAME)).as("released").doesNotExist();
            }
        }
    }
}
