package dev.latencylab.lab.flow;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.stream.Collectors;

import dev.latencylab.load.result.ResultCheck;
import dev.latencylab.lab.footprint.Footprint;
import dev.latencylab.lab.footprint.FootprintExperiment;
import dev.latencylab.lab.layout.FolderLock;
import dev.latencylab.lab.layout.FootprintFolder;
import dev.latencylab.lab.layout.ResultsFolders;
import dev.latencylab.lab.machine.Machine;
import dev.latencylab.lab.page.FootprintPage;
import dev.latencylab.lab.run.StopOnSignal;

/**
 * ./lab footprint, its settings checked: begun in a folder of its own or resumed in a named one (refused with other
 * settings), its measurements made with the folder locked, its file and page written, its table said, and the exit code.
 */
public final class FootprintFlow {

    /**
     * An experiment asked for: its settings, the folder its own is made in, its name (null: a new folder, named for the
     * time), and whether a lock left by a ./lab no longer running is taken over.
     */
    public record Asked(Footprint.Settings settings, Path parent, String name, boolean takeOver) {
    }

    private FootprintFlow() {
    }

    public static int run(Path repo, Asked asked, PrintWriter out, PrintWriter err) {
        Footprint.Settings settings = asked.settings();
        FootprintFolder folder = folder(asked);
        Footprint start = begun(folder, settings, out);
        int points = settings.targets().size() * settings.modes().size() * settings.counts().size() * settings.repeats();
        out.printf("latency-lab: footprint of %s, %s, counts %s, %d repeats: %d measurements, each on a fresh target -> %s%n",
                String.join(", ", settings.targets()), settings.modes().stream().map(Footprint.Mode::id).collect(Collectors.joining(", ")),
                settings.counts(), settings.repeats(), points, folder.dir());
        Footprint done;
        try (FolderLock lock = FolderLock.take(folder.dir(), "footprint --name " + folder.dir().getFileName(), asked.takeOver())) {
            FootprintExperiment experiment = new FootprintExperiment(repo, folder, start, out);
            try (StopOnSignal signal = StopOnSignal.endingTargets(experiment::stopping,
                    "stopped; the target was ended; footprint.json keeps every measurement done (" + folder.dir()
                            + "): resume with --name " + folder.dir().getFileName())) {
                done = experiment.run();
                done.write(folder);
                out.println("Footprint page: " + FootprintPage.write(done, folder));
            }
        }
        out.print(FootprintPage.markdown(done));
        long failed = done.measurements().stream().filter(m -> !m.done()).count();
        if (failed > 0) {
            err.printf("latency-lab: %d measurements failed (footprint.json and the page say why)%n", failed);
            return ExitCode.FAILED;
        }
        return ExitCode.OK;
    }

    /** The named folder that holds the experiment to resume; else a new one, named as asked or for the time. */
    static FootprintFolder folder(Asked asked) {
        String name = asked.name();
        if (name != null && Files.isRegularFile(new FootprintFolder(asked.parent().resolve(name)).footprintFile())) {
            return new FootprintFolder(asked.parent().resolve(name));
        }
        return new FootprintFolder(name != null ? ResultsFolders.namedFolder("--name", asked.parent(), name,
                "it holds no footprint.json to resume (another footprint may be starting there): give another --name")
                : ResultsFolders.newFolder(asked.parent(), "footprint-" + ResultsFolders.stamp()));
    }

    /**
     * The experiment as it stands in folder: the one measured there, resumed (refused when measured with other
     * settings); else a new one, on this machine and JVM, with no measurement yet.
     */
    static Footprint begun(FootprintFolder folder, Footprint.Settings settings, PrintWriter out) {
        if (!Files.isRegularFile(folder.footprintFile())) {
            return new Footprint(settings, Machine.fingerprint(), System.getProperty("java.vm.vendor") + " "
                    + System.getProperty("java.runtime.version"), OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS).toString(), List.of());
        }
        Footprint start = Footprint.read(folder.dir());
        if (!start.settings().equals(settings)) {
            ResultCheck.Difference d = ResultCheck.firstDifference(start.settings(), settings);
            throw new IllegalArgumentException(
                    "%s was measured with other settings (%s %s there, %s now); give the same options to resume it, or another --name"
                            .formatted(folder.dir(), d.name(), d.first(), d.second()));
        }
        out.printf("latency-lab: resuming %s: %d measurements done%n", folder.dir(),
                start.measurements().stream().filter(Footprint.Measurement::done).count());
        return start;
    }
}
