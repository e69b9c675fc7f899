package dev.latencylab.lab.capacity;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.load.settings.SimulationSettings;
import dev.latencylab.lab.format.Figures;
import dev.latencylab.lab.layout.FolderLock;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.layout.SearchFolder;
import dev.latencylab.lab.machine.Machine;
import dev.latencylab.lab.run.GatlingLauncher;
import dev.latencylab.lab.run.Jdk;
import dev.latencylab.lab.run.RunOutcome;
import dev.latencylab.lab.run.RunWatch;
import dev.latencylab.lab.run.ServiceSpec;
import dev.latencylab.lab.run.Status;
import dev.latencylab.lab.run.StopOnSignal;
import dev.latencylab.lab.run.TargetRun;
import dev.latencylab.lab.targets.Target;

/**
 * One capacity search under way (./lab capacity's workflow, without its command line): ladders of open-model levels,
 * each on a fresh target, the first doubling, each refinement between the last level within the SLO and the first that
 * missed it (see {@link CapacitySearch}); capacity.json written whether the search ends, fails or is stopped.
 */
public final class SearchRun {

    /**
     * What a search asks and how it holds each level.
     *
     * @param poolModel the target's T/L in req/s; NaN without a pool
     * @param jdk       the JDK the target runs on; null: the build's
     * @param service   a service of the user's that each ladder loads instead of the lab's target (then target is its
     *                  {@link ServiceSpec#target()}, latencyMs 0: none known); null: the lab's target
     */
    public record Plan(Target target, int port, long latencyMs, long sloP99Ms, double maxKoPercent, String arrivals, int levelSeconds,
            int rampSeconds, int refineRounds, int refineLevels, Duration warmup, double poolModel, Jdk jdk, ServiceSpec service) {

        /** One ladder's simulation settings, checked as the run will check them (bad values stop before a target starts). */
        public SimulationSettings ladder(List<Double> rates) {
            Map<String, String> m = new LinkedHashMap<>();
            m.put(SimulationSettings.INJECTION, "open");
            m.put(SimulationSettings.RATE, rates.stream().map(SimulationSettings::rate).collect(Collectors.joining(",")));
            if (service != null) {
                m.putAll(service.properties());
            }
            else {
                m.put(SimulationSettings.PATH, target.path(latencyMs));
            }
            m.put(SimulationSettings.RAMP_SECONDS, String.valueOf(rampSeconds));
            m.put(SimulationSettings.LEVEL_SECONDS, String.valueOf(levelSeconds));
            m.put(SimulationSettings.ARRIVALS, arrivals);
            m.put(SimulationSettings.SLO_P99_MS, String.valueOf(sloP99Ms));
            m.put(SimulationSettings.SLO_KO_PERCENT, String.valueOf(maxKoPercent));
            m.put(SimulationSettings.STOP_ON_SLO_MISS, "true");
            if (target.poolThreads() > 0) {
                m.put(SimulationSettings.MODEL_THREADS, String.valueOf(target.poolThreads()));
            }
            return SimulationSettings.from(m);
        }

        /** What the search records of itself (capacity.json's settings), and what its words say a rate and a p99 are. */
        public Capacity.Settings settings() {
            return new Capacity.Settings(target.id(), latencyMs, target.poolThreads() > 0 ? target.poolThreads() : null, sloP99Ms,
                    maxKoPercent, arrivals, levelSeconds, rampSeconds, service != null && service.simulation() != null ? Result.Open.FLOW : null);
        }
    }

    private SearchRun() {
    }

    /**
     * Runs the search in dir, saying each ladder and level on out; written (capacity.json, then whatever else the
     * caller draws from it) before the signal hook is released, so that a search stopped by Ctrl-C keeps what its
     * finished ladders found. Each ladder's run is watched by watch (its seconds written live unless watch is NONE).
     */
    public static Capacity.Search run(Path repo, GatlingLauncher gatling, Plan plan, List<Double> first, Path dir, PrintWriter out,
            Consumer<Capacity.Search> written, RunWatch watch) {
        SearchFolder search = new SearchFolder(dir);
        List<CapacitySearch.Level> levels = new ArrayList<>();
        List<Capacity.Round> rounds = new ArrayList<>();
        AtomicBoolean stopped = new AtomicBoolean();
        try (FolderLock lock = FolderLock.take(dir, "capacity --target " + plan.target().id(), false);
                StopOnSignal signal = StopOnSignal.endingRun(gatling, () -> stopped.set(true), "stopped; the target and the simulation "
                        + "were ended; capacity.json says what the finished ladders found, as a lower bound (folder: " + dir + ")")) {
            List<Double> rates = first;
            for (int round = 1; round <= 1 + plan.refineRounds() && !rates.isEmpty(); round++) {
                out.printf("latency-lab: ladder %d: %s %s, %d s each%n", round,
                        rates.stream().map(Figures::rate).collect(Collectors.joining(", ")), plan.settings().rateUnit(), plan.levelSeconds());
                watch.starting("ladder %d: %s %s".formatted(round, rates.stream().map(Figures::rate).collect(Collectors.joining(", ")),
                        plan.settings().rateUnit()), plan.target(), Double.isNaN(plan.poolModel()) ? null : plan.poolModel(), search.round(round));
                Capacity.Round ladder = ladder(repo, gatling, plan, rates, live(plan.ladder(rates), watch), search, round, levels, stopped, out);
                watch.ended("ladder %d: %s".formatted(round, ladder.status() == Status.DONE ? "done" : ladder.status() + ": " + ladder.reason()));
                rounds.add(ladder);
                if (ladder.status() != Status.DONE) {
                    break;
                }
                CapacitySearch.Found now = CapacitySearch.found(levels);
                rates = now.bracketed() ? CapacitySearch.refinement(first, now.capacity(), now.firstMiss(), plan.refineLevels()) : List.of();
            }
            Capacity.Search record = Capacity.withLevels(new Capacity.Search(plan.settings(), new Capacity.Bounds(
                    Double.isNaN(plan.poolModel()) ? null : plan.poolModel(), null), null, rounds, List.of(), Machine.fingerprint(),
                    Instant.now().toString(), stopped.get() ? true : null, null), levels);
            Capacity.write(dir, record);
            written.accept(record);
            // said before the signal hook is released: a stopped search's own words come before the JVM ends
            out.printf("latency-lab: capacity of %s: %s%n", plan.target().id(), record.answer().summary());
            return record;
        }
    }

    /** One ladder on a fresh target: its levels added to levels, its round returned (done, failed or interrupted). */
    /** A ladder's settings, its seconds written live when the search is watched. */
    private static SimulationSettings live(SimulationSettings ladder, RunWatch watch) {
        return watch == RunWatch.NONE ? ladder : ladder.live();
    }

    private static Capacity.Round ladder(Path repo, GatlingLauncher gatling, Plan plan, List<Double> rates, SimulationSettings ladder, SearchFolder search,
            int round, List<CapacitySearch.Level> levels, AtomicBoolean stopped, PrintWriter out) {
        RunFolder folder = search.round(round);
        String roundFolder = search.dir().relativize(folder.dir()).toString();
        GatlingLauncher.Exit run;
        if (plan.service() != null) {
            run = plan.service().run(repo, gatling, ladder, folder, plan.warmup(), true, 1, TargetRun.SILENT);
        }
        else {
            RunOutcome ran = TargetRun.run(repo, gatling, new TargetRun.Load(plan.target(), plan.port(), ladder, Map.of(),
                    folder, plan.warmup(), 1, true, plan.jdk()), TargetRun.SILENT, stopped::get);
            run = ran instanceof RunOutcome.Finished finished ? finished.gatling() : null;
        }
        if (run == null || stopped.get()) {
            // what a ladder cut short measured is not a level's answer: its levels are left out
            return new Capacity.Round(round, rates, roundFolder, null, Status.INTERRUPTED, "stopped by a signal");
        }
        if (!run.succeeded()) {
            String why = String.join("; ", run.failures(folder.gatlingLog()));
            out.println("latency-lab: RUN FAILED: " + why); // beside the ladder's own lines, as a sweep says a failed point
            return new Capacity.Round(round, rates, roundFolder, null, Status.FAILED, why);
        }
        Result r = ResultFile.read(folder.resultFile());
        for (Result.Level l : r.open().levels()) {
            CapacitySearch.Level level = CapacitySearch.Level.of(round, l);
            levels.add(level);
            if (l.counts().arrivals() > 0) {
                out.printf("  %10s %s  goodput %10s req/s  p99 %,7d ms %s (Gatling %s)  %s%n", Figures.rate(l.ratePerSecond()),
                        plan.settings().rateUnit(), l.goodputPerSecond() == null ? "-" : "%,.1f".formatted(l.goodputPerSecond()),
                        level.latency().p99JudgedMs(), plan.settings().p99Timed(),
                        level.latency().p99Ms() == null ? "-" : "%,d".formatted(level.latency().p99Ms()), l.verdict());
            }
        }
        return new Capacity.Round(round, rates, roundFolder, r.open().stoppedEarly(), Status.DONE, null, Capacity.TopLevel.of(r));
    }
}
