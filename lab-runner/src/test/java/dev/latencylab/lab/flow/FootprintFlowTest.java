package dev.latencylab.lab.flow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.lab.Lab;
import dev.latencylab.lab.footprint.Footprint;
import dev.latencylab.lab.layout.FootprintFolder;

/** Where ./lab footprint begins or resumes, without a target: its folder, and an experiment resumed only as measured. */
class FootprintFlowTest {

    @TempDir
    Path parent;

    private final StringWriter out = new StringWriter();

    /** The published experiment, copied into parent/name as a footprint left half done would be. */
    private Footprint published(String name) throws Exception {
        Path dir = Files.createDirectories(parent.resolve(name));
        Files.copy(Lab.repo().resolve("docs/footprint/footprint.json"), new FootprintFolder(dir).footprintFile());
        return Footprint.read(dir);
    }

    @Test
    void aNamedExperimentResumesWithItsOwnSettingsOnly() throws Exception {
        Footprint measured = published("mine");
        FootprintFlow.Asked same = new FootprintFlow.Asked(measured.settings(), parent, "mine", false);

        FootprintFolder folder = FootprintFlow.folder(same);
        assertThat(folder.dir()).isEqualTo(parent.resolve("mine"));
        Footprint resumed = FootprintFlow.begun(folder, measured.settings(), new PrintWriter(out, true));
        assertThat(resumed.measurements()).isEqualTo(measured.measurements());
        assertThat(out.toString()).contains("resuming " + folder.dir() + ": %d measurements done"
                .formatted(measured.measurements().stream().filter(Footprint.Measurement::done).count()));

        Footprint.Settings s = measured.settings();
        Footprint.Settings moreRepeats = new Footprint.Settings(s.targets(), s.modes(), s.counts(), s.repeats() + 1, s.holdSeconds(),
                s.settleSeconds(), s.containerMiB(), s.heapMiB(), s.jvmOptions(), s.service());
        assertThatThrownBy(() -> FootprintFlow.begun(folder, moreRepeats, new PrintWriter(out, true)))
                .hasMessageContaining("was measured with other settings (repeats %d there, %d now)".formatted(s.repeats(), s.repeats() + 1))
                .hasMessageContaining("another --name");
    }

    @Test
    void anUnnamedOrNewExperimentBeginsInAFolderOfItsOwnWithNothingMeasured() throws Exception {
        Footprint.Settings settings = published("earlier").settings();

        FootprintFolder stamped = FootprintFlow.folder(new FootprintFlow.Asked(settings, parent, null, false));
        assertThat(stamped.dir().getParent()).isEqualTo(parent);
        assertThat(stamped.dir().getFileName().toString()).startsWith("footprint-");
        FootprintFolder named = FootprintFlow.folder(new FootprintFlow.Asked(settings, parent, "new-one", false));
        assertThat(named.dir()).isEqualTo(parent.resolve("new-one"));

        Footprint begun = FootprintFlow.begun(named, settings, new PrintWriter(out, true));
        assertThat(begun.settings()).isEqualTo(settings);
        assertThat(begun.measurements()).isEmpty();
        assertThat(out.toString()).doesNotContain("resuming");
    }
}
