package dev.latencylab.lab.flow;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.lab.Lab;
import dev.latencylab.lab.compare.Slo;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.run.GatlingLauncher;

/** How ./lab run ends, without a run: what it says of the run it was given, and its exit code. */
class RunEndTest {

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private RunEnd end() {
        return new RunEnd(new RunFolder(dir), 1, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    /** A published run's result file, copied into the run's folder as a finished run leaves it. */
    private GatlingLauncher.Exit finished() throws Exception {
        Path file = Files.copy(Lab.repo().resolve("docs/results/points/mvc-t200-l100-u5000-r1/result.json"), new RunFolder(dir).resultFile());
        return new GatlingLauncher.Exit(0, null, file, null, List.of());
    }

    @Test
    void aRunThatLeftNoResultFailsSayingWhyAndIsNotJudged() {
        GatlingLauncher.Exit run = new GatlingLauncher.Exit(1, null, null, "latency-lab: cannot run: the target does not answer", List.of());

        assertThat(end().exitCode(run, "abc", Slo.parse("--slo", "p99:1"))).isEqualTo(ExitCode.FAILED);
        assertThat(err.toString()).contains("RUN FAILED: the simulation exited with 1: latency-lab: cannot run: the target does not answer")
                .doesNotContain("SLO");
        end().files(run);
        assertThat(out.toString()).contains("Result file: (none: the run failed, see above)").doesNotContain("HTML report");
    }

    @Test
    void aFinishedRunIsLabelledThenJudgedAndItsVerdictKeptInItsResult() throws Exception {
        GatlingLauncher.Exit run = finished();

        assertThat(end().exitCode(run, "v1.2", Slo.parse("--slo", "p99:1,ko:100"))).isEqualTo(ExitCode.SLO_MISSED);
        Result judged = ResultFile.read(run.resultFile());
        assertThat(judged.label()).isEqualTo("v1.2");
        assertThat(judged.slo().met()).isFalse();
        assertThat(judged.slo().objectives()).extracting(o -> o.metric() + " " + o.met()).containsExactly("p99 false", "ko true");
        assertThat(err.toString()).contains("SLO MISSED: p99");

        assertThat(end().exitCode(run, null, Slo.parse("--slo", "ko:100"))).isEqualTo(ExitCode.OK);
        assertThat(ResultFile.read(run.resultFile()).label()).as("no --label leaves the one given before").isEqualTo("v1.2");
        assertThat(out.toString()).contains("SLO met (ko)");
        assertThat(end().exitCode(run, null, null)).as("no objective: a finished run is fine").isEqualTo(ExitCode.OK);
    }
}
