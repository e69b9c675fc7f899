package dev.latencylab.lab.sweep;

import java.time.Instant;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

import tools.jackson.core.JacksonException;

import dev.latencylab.lab.layout.OutputFile;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.machine.Machine;
import dev.latencylab.load.result.Json;

/**
 * sweep.json: the sweep's plan (its fields written flat), the machine it began on, the versions it ran with, and when
 * it was created. Written when a sweep begins, again when a resume extends its runs; read to resume it, to flag runs
 * made on another machine, and for its page.
 */
public record SweepFile(@JsonUnwrapped SweepPlan plan, Machine.Description machine, Map<String, String> versions, String created) {

    /** A new sweep's file: its plan on this machine now. */
    public static SweepFile begin(SweepPlan plan) {
        return new SweepFile(plan, Machine.describe(), Machine.versions(), Instant.now().toString());
    }

    /** The sweep's file, or null when the folder has none; a file this version cannot read says so, with the reason. */
    public static SweepFile read(SweepFolder folder) {
        if (!folder.hasPlan()) {
            return null;
        }
        try {
            return Json.MAPPER.readValue(folder.planFile().toFile(), SweepFile.class);
        }
        catch (JacksonException e) {
            throw new IllegalArgumentException("%s is not a sweep this version reads: %s".formatted(folder.planFile(), e.getOriginalMessage()), e);
        }
    }

    /** The boot id of the machine the sweep in this folder began on, or null (no sweep.json, or the OS did not say). */
    public static String bootId(SweepFolder folder) {
        SweepFile file = read(folder);
        return file == null ? null : file.machine().bootId();
    }

    public void write(SweepFolder folder) {
        OutputFile.json(folder.planFile(), Json.MAPPER, this);
    }

    /** The same sweep, extended to this many runs of its points. */
    public SweepFile withRuns(SweepPlan.Repeats runs) {
        SweepPlan p = plan;
        return new SweepFile(new SweepPlan(p.matrix(), p.pacing(), p.ports(), runs, p.open(), p.injectors(), p.jvmEvents(), p.jdk(), p.service()), machine,
                versions, created);
    }
}
