package dev.latencylab.lab.flow;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

import dev.latencylab.lab.capacity.Capacity;
import dev.latencylab.lab.capacity.CapacitySearch;
import dev.latencylab.lab.capacity.SearchRepeats;
import dev.latencylab.lab.capacity.SearchRun;
import dev.latencylab.lab.compare.Slo;
import dev.latencylab.lab.format.Figures;
import dev.latencylab.lab.layout.SearchFolder;
import dev.latencylab.lab.live.LiveView;
import dev.latencylab.lab.page.CapacityReport;
import dev.latencylab.lab.page.Verdict;
import dev.latencylab.lab.run.GatlingLauncher;
import dev.latencylab.lab.run.RunWatch;
import dev.latencylab.lab.run.Status;

/**
 * ./lab capacity, its plan checked: its searches one after the other (SearchRepeats), each with its live view, judged
 * by the objective once it ended (kept in its capacity.json), what each found said beside the model, and the exit code.
 */
public final class CapacityFlow {

    /**
     * Searches asked for: where their folders are made, the first one's name (named: given by the user, else made of
     * the target and the time), how many, the plan and its first ladder, and the objective (null: none).
     */
    public record Asked(Path searches, String base, boolean named, int repeats, SearchRun.Plan plan, List<Double> first, Slo objective) {
    }

    private CapacityFlow() {
    }

    /** @param gatling the launcher each ladder runs (the lab's simulation, or the user's) */
    public static int run(Path repo, GatlingLauncher gatling, Asked asked, LiveStart liveStart, PrintWriter out, PrintWriter err) {
        List<Capacity.Search> found = SearchRepeats.run(asked.searches(), asked.base(), asked.named(), asked.repeats(), out,
                dir -> search(repo, gatling, asked, dir, liveStart, out));
        if (found.getLast().wasInterrupted()) {
            return ExitCode.FAILED; // (a signal's exit code, 130 or 143, is the JVM's: it ends after its hooks)
        }
        if (found.stream().anyMatch(r -> r.rounds().stream().anyMatch(round -> round.status() == Status.FAILED))) {
            return ExitCode.FAILED;
        }
        // each search judged once, when it ended (its capacity.json keeps the verdict): said here in its words
        List<String> missed = found.stream().filter(r -> r.slo() != null && !r.slo().met())
                .map(r -> asked.objective().capacityMissedBy(r.answer().capacityPerSecond())).filter(Objects::nonNull).toList();
        missed.forEach(m -> err.println("latency-lab: SLO MISSED: " + m));
        return missed.isEmpty() ? ExitCode.OK : ExitCode.SLO_MISSED;
    }

    /** One search in dir (SearchRun), then what it found beside the model and where its files are. */
    private static Capacity.Search search(Path repo, GatlingLauncher gatling, Asked asked, Path dir, LiveStart liveStart, PrintWriter out) {
        SearchRun.Plan plan = asked.plan();
        out.printf("latency-lab: capacity of %s%s, SLO p99 <= %d ms %s and KO <= %s%%; folder %s%n", plan.target().id(),
                plan.service() == null ? " at %d ms latency".formatted(plan.latencyMs()) : " at " + plan.service().url()
                        + (plan.service().simulation() == null ? "" : ", each arrival a user running your simulation once"),
                plan.sloP99Ms(), plan.settings().p99Timed(), plan.maxKoPercent(), dir);
        Capacity.Search record;
        String unwatched = plan.service() != null && plan.service().simulation() != null
                ? "your simulation's requests are read from Gatling's records once each ladder ends" : null;
        try (LiveView live = liveStart.start("capacity " + dir.getFileName(), unwatched)) {
            record = SearchRun.run(repo, gatling, plan, asked.first(), dir, out, written -> CapacityReport.draw(List.of(written), dir),
                    live == null ? RunWatch.NONE : live);
            if (live != null) {
                live.end("the search found " + record.answer().summary(), new SearchFolder(dir).chartPng());
            }
        }
        if (record.wasInterrupted()) {
            return record;
        }
        Slo objective = asked.objective();
        if (objective != null) { // judged once, kept in capacity.json for report and CI
            CapacitySearch.Level at = record.atCapacity();
            record = record.judged(objective.capacityVerdict(record.answer().capacityPerSecond(), at == null ? null : at.latency().p99JudgedMs(),
                    at == null ? null : at.koPercent()));
            Capacity.write(dir, record);
        }
        SearchFolder search = new SearchFolder(dir);
        out.printf("  model: %s; this machine's ceiling measured at the busiest level within the SLO: %s%n",
                plan.service() != null ? "none (its path names no latency)" : Double.isNaN(plan.poolModel()) ? "no pool bounds it (T/L: none)"
                        : "T/L = %s req/s".formatted(Figures.rate(plan.poolModel())),
                record.bounds().machineCeilingPerSecond() == null ? "none"
                        : "%,.0f %s".formatted(record.bounds().machineCeilingPerSecond(), plan.settings().rateUnit()));
        out.println("  bounded by " + Verdict.capacityBound(record));
        out.println("Capacity file: " + search.capacityFile());
        out.println("Chart: " + search.chartPng());
        return record;
    }
}
