package dev.latencylab.lab.flow;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

import dev.latencylab.load.live.LiveSample;
import dev.latencylab.load.settings.SimulationSettings;
import dev.latencylab.lab.compare.Slo;
import dev.latencylab.lab.layout.ResultsFolders;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.live.LiveView;
import dev.latencylab.lab.page.RunPage;
import dev.latencylab.lab.run.GatlingLauncher;
import dev.latencylab.lab.run.OwnSimulation;
import dev.latencylab.lab.run.ServiceRun;
import dev.latencylab.lab.summary.Summary;
import dev.latencylab.lab.sweep.RunLines;

/**
 * ./lab run --url, its input checked: a service of the user's loaded as it is (ServiceRun; started from its jar and
 * stopped after when given one), in a folder named for the service and its load, with its live view, its page and
 * line, what it left, and the exit code.
 */
public final class ServiceRunFlow {

    /**
     * A run asked for: the service, the simulation's properties (checked) and those given to Gatling as they are, the
     * simulation it runs (own: the user's; null: the lab's), its jar when the lab starts it (null: already running), its
     * label and objective (null: none).
     */
    public record Asked(ServiceRun.Service service, Map<String, String> properties, Map<String, String> passOn, OwnSimulation own, ServiceRun.Launch launch,
            Duration warmup, int injectors, String label, Slo objective) {
    }

    private ServiceRunFlow() {
    }

    /**
     * @param gatling the launcher running the asked simulation (the user's or the lab's)
     * @return the exit code
     */
    public static int run(Path repo, Path runs, GatlingLauncher gatling, Asked asked, LiveStart liveStart, PrintWriter out, PrintWriter err) {
        ServiceRun.Service service = asked.service();
        Map<String, String> given = new LinkedHashMap<>(asked.properties());
        SimulationSettings checked = SimulationSettings.from(given);
        RunFolder dir = new RunFolder(ResultsFolders.newFolder(runs, "run-%s-%s-%s".formatted(service.name(),
                checked.open() ? "r" + SimulationSettings.rate(checked.load().rates().getLast()) : "u" + checked.users(),
                ResultsFolders.stamp())));
        given.put(SimulationSettings.RESULT_FILE, dir.resultFile().toString());
        String unwatched = unwatched(asked);
        if (liveStart.watches(unwatched)) {
            given.put(SimulationSettings.LIVE, "true");
        }
        SimulationSettings settings = SimulationSettings.from(given);
        if (asked.own() == null && settings.plateauUnreachable() != null) { // a simulation of the user's paces itself
            err.println("latency-lab: WARNING: " + settings.plateauUnreachable());
        }
        ServiceRun.Launch launch = asked.launch();
        out.printf("latency-lab: loading %s at %s%s, %s (run folder: %s)%n", service.name(), service.url(),
                asked.own() == null ? "" : " with your simulation " + asked.own().className(), launch == null ? "not started nor stopped here"
                        : "started from " + launch.jar() + " and stopped after",
                dir.dir());
        GatlingLauncher.Exit run;
        String title = service.name() + ", " + (settings.open() ? settings.load().rates().stream().map(SimulationSettings::rate)
                .collect(Collectors.joining(", ")) + " req/s" : settings.users() + " users");
        try (LiveView live = liveStart.start(title, unwatched)) {
            if (live != null) {
                live.follow(new LiveView.Watched(title, service.name(), settings.open() ? "open" : "u" + settings.users(), null, null),
                        LiveSample.beside(dir.resultFile()));
            }
            run = ServiceRun.run(repo, gatling, service, settings, asked.passOn(), dir, asked.warmup(), launch, asked.injectors(), out);
            out.println();
            if (run.resultFile() != null) {
                out.println("Run page: " + RunPage.write(run.resultFile()));
            }
            RunEnd.ended(live, run);
        }
        if (run.succeeded()) {
            out.println("latency-lab: " + service.name() + ": " + RunLines.headline(Summary.row(run.resultFile())));
        }
        RunEnd end = new RunEnd(dir, asked.injectors(), out, err);
        end.files(run);
        return end.exitCode(run, asked.label(), asked.objective());
    }

    /** Why the run is not watched live (null: it is): several injectors count their own shares, a user's simulation is read after. */
    private static String unwatched(Asked asked) {
        return asked.injectors() > 1 ? TargetRunFlow.SEVERAL_INJECTORS
                : asked.own() != null ? "your simulation's requests are read from Gatling's records once it ends" : null;
    }
}
