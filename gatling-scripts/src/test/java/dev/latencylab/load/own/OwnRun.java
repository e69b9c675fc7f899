package dev.latencylab.load.own;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.latencylab.load.OpenSteps;
import dev.latencylab.load.preflight.AgreedStart;
import dev.latencylab.load.preflight.Preflight;
import dev.latencylab.load.record.RunRecorder;
import dev.latencylab.load.record.RunResult;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.load.sample.RunProgress;
import dev.latencylab.load.sample.Sampler;
import dev.latencylab.load.settings.SimulationSettings;

import io.gatling.core.config.GatlingConfiguration;

/**
 * Runs a user's simulation as Gatling's own main does, with Gatling's arguments, and what the lab's simulation does
 * around its load: the settings and the preflight first, the service and this machine sampled each second while it
 * runs, then the result file, built from Gatling's own records of the run (its simulation.log: every request by the
 * name the simulation gave it, every user's start and end). Users are counted from those records afterwards: the
 * sampler cannot see them come and go in code it does not own. Exits with Gatling's own exit code (2: the simulation's
 * assertions failed), or 3 when it was refused before any load.
 */
public final class OwnRun {

    /** A run refused before any load, as LoadSimulation's. */
    private static final int REFUSED = 3;

    private OwnRun() {
    }

    public static void main(String[] args) {
        SimulationSettings settings;
        Preflight preflight;
        try {
            settings = SimulationSettings.fromSystemProperties();
            preflight = Preflight.check(settings);
        }
        catch (SimulationSettings.InvalidSettingsException | Preflight.PreflightException e) {
            System.err.println("\nlatency-lab: cannot run: " + e.getMessage() + "\n");
            System.exit(REFUSED);
            return;
        }
        String simulation = argument(args, "--simulation");
        if (preflight.metricsUnseenLine() != null) {
            System.out.println(preflight.metricsUnseenLine());
        }
        System.out.println("latency-lab: your simulation " + simulation + ": " + settings.openLoad().map(load -> "arrivals at "
                + load.rates().stream().map(SimulationSettings::rate).collect(Collectors.joining(", ")) + " users/s, each held "
                + load.level().toSeconds() + " s after a " + load.ramp().toSeconds() + " s ramp (LabLoad.load)")
                .orElse(settings.usersHere() + " users over " + settings.pacing().ramp().toSeconds() + " s (LabLoad.load)")
                + " -> " + settings.endpoint().baseUrl() + "; its pacing is its own");
        AgreedStart.await(settings);
        Clock clock = new Clock();
        Sampler sampler = new Sampler(preflight.samplesServer(settings) ? settings.endpoint().metricsUrl() : null, settings.endpoint().baseUrl(),
                settings.watch().targetPid().orElse(-1L), settings.endpoint().path(), clock);
        sampler.start();
        int exit;
        try {
            exit = io.gatling.app.Gatling$.MODULE$.fromArgs(args);
        }
        catch (RuntimeException | AssertionError crashed) {
            // Gatling has logged its crash ("Run crashed"); what the lab can tell of its cause is said below
            exit = 1;
        }
        sampler.close();
        Path log = GatlingRecords.logIn(Path.of(argument(args, "--results-folder"))).orElse(null);
        if (log == null || exit != 0 && startedNoUser(log)) {
            System.err.println("\nlatency-lab: cannot run: " + (log == null ? "Gatling left no record of the run (exit " + exit + ")"
                    : "your simulation " + simulation + " started no user: its setUp injects none. Give it the lab's load, "
                            + "setUp(LabLoad.load(scenario)) (docs/your-simulation.md)")
                    + "\n");
            System.exit(exit == 0 ? 1 : exit);
            return;
        }
        Result result = result(simulation, settings, preflight, sampler, clock.startedAt, log);
        Path file = settings.resultFile().orElseGet(() -> ResultFile.defaultLocation(Instant.ofEpochMilli(clock.startedAt)));
        ResultFile.write(result, file);
        System.out.println(ResultFile.WRITTEN + file.toAbsolutePath());
        result.problems().forEach(p -> System.err.println("latency-lab: PROBLEM: " + p));
        System.exit(exit);
    }

    /** Whether Gatling's record of the run holds no user's start (or cannot be read as one): nothing was loaded. */
    private static boolean startedNoUser(Path log) {
        long[] starts = {0};
        try {
            GatlingRecords.read(log, new GatlingRecords.Visitor() {
                @Override
                public void user(boolean start, long at) {
                    starts[0] += start ? 1 : 0;
                }

                @Override
                public void request(String name, long start, long end, boolean ok, String message) {
                }
            });
        }
        catch (RuntimeException unreadable) {
            return true;
        }
        return starts[0] == 0;
    }

    /**
     * The result of the run Gatling recorded in log: its clock starts with its first user (the sampler's samples
     * moved onto it), its requests counted by name in the order they first came, its users counted from their records.
     */
    static Result result(String simulation, SimulationSettings settings, Preflight preflight, Sampler sampler, long samplerStart, Path log) {
        Users users = new Users();
        Map<String, Integer> names = new LinkedHashMap<>();
        long[] span = {Long.MAX_VALUE, Long.MIN_VALUE};
        GatlingRecords.Read read = GatlingRecords.read(log, new GatlingRecords.Visitor() {
            @Override
            public void user(boolean start, long at) {
                users.add(start, at);
                span[0] = start ? Math.min(span[0], at) : span[0];
                span[1] = Math.max(span[1], at);
            }

            @Override
            public void request(String name, long start, long end, boolean ok, String message) {
                names.putIfAbsent(name, names.size());
                span[1] = Math.max(span[1], end);
            }
        });
        long start = span[0] == Long.MAX_VALUE ? samplerStart : span[0];
        long end = Math.max(start, span[1]);
        sampler.rebase((start - samplerStart) / 1000.0, second -> users.activeAt(start + Math.round(second * 1000)));
        RunRecorder run = RunRecorder.replayed(names.size(), Instant.ofEpochMilli(start), Instant.ofEpochMilli(end), users.peak());
        List<String> problems = new ArrayList<>();
        FlowLevels levels = settings.openLoad().flatMap(load -> OpenSteps.remembered().map(steps -> new FlowLevels(load,
                OpenSteps.dueOffsetsMs(steps), users.starts()))).orElse(null);
        GatlingRecords.read(log, new GatlingRecords.Visitor() {
            @Override
            public void user(boolean begins, long at) {
            }

            @Override
            public void request(String name, long from, long to, boolean ok, String message) {
                run.record(names.get(name), to - from, ok ? null : message.isEmpty() ? "KO (Gatling gave no reason)" : message, to - start);
                if (levels != null) {
                    levels.request(from, to, ok);
                }
            }
        });
        Result.Open open = levels == null ? null : levels.result(start, settings.load().sloP99Ms().orElseThrow(), settings.load().sloKoPercent(),
                users.peak(), RunResult.spans(run, sampler));
        GatlingConfiguration gatling = GatlingConfiguration.load();
        Result result = RunResult.ofSimulation(read.simulation(), settings, preflight, run, sampler, open, new ArrayList<>(names.keySet()),
                gatling.socket().connectTimeout().toMillis(), gatling.http().requestTimeout().toMillis());
        if (settings.open()) {
            String planned = open == null ? null : open.sent().plannedArrivals() == users.started() ? null
                    : "it started %,d users where the lab's arrival rates plan %,d".formatted(users.started(), open.sent().plannedArrivals());
            if (open == null || planned != null) {
                problems.add(("the simulation does not take its load from the lab (%s), so no figure of it is the load's; inject with "
                        + "setUp(LabLoad.load(scenario))").formatted(open == null ? "it never asked for the lab's arrival rates (sim.rates)" : planned));
            }
        }
        else if (users.started() != settings.usersHere()) {
            problems.add(("the simulation started %,d users where the lab gave it %,d (sim.users): it does not take its load from the lab, "
                    + "so no figure of it is the load's; inject with setUp(LabLoad.load(scenario))").formatted(users.started(), settings.usersHere()));
        }
        if (read.truncated()) {
            problems.add("Gatling's record of the run ends inside a record (" + log + "): the run was cut short");
        }
        return problems.isEmpty() ? result : result.withProblems(problems);
    }

    /** The users' starts and ends, ms since the epoch, as Gatling recorded them. */
    private static final class Users {

        private final List<long[]> events = new ArrayList<>();
        private long[] starts = new long[0];
        private long[] ends = new long[0];

        void add(boolean start, long at) {
            events.add(new long[] {at, start ? 1 : -1});
            starts = null;
        }

        private void sort() {
            if (starts == null) {
                starts = events.stream().filter(e -> e[1] > 0).mapToLong(e -> e[0]).sorted().toArray();
                ends = events.stream().filter(e -> e[1] < 0).mapToLong(e -> e[0]).sorted().toArray();
            }
        }

        int started() {
            sort();
            return starts.length;
        }

        /** The users' starts, in order. */
        long[] starts() {
            sort();
            return starts.clone();
        }

        /** Users started by at and not yet ended then. */
        int activeAt(long at) {
            sort();
            return upTo(starts, at) - upTo(ends, at);
        }

        /** The most active at once: at each moment, starts counted before ends of the same ms. */
        int peak() {
            List<long[]> ordered = new ArrayList<>(events);
            ordered.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(b[1], a[1]));
            int active = 0;
            int peak = 0;
            for (long[] e : ordered) {
                active += (int) e[1];
                peak = Math.max(peak, active);
            }
            return peak;
        }

        /** How many of these sorted times are at or before at. */
        private static int upTo(long[] sorted, long at) {
            int low = 0;
            int high = sorted.length;
            while (low < high) {
                int mid = (low + high) >>> 1;
                if (sorted[mid] <= at) {
                    low = mid + 1;
                }
                else {
                    high = mid;
                }
            }
            return low;
        }
    }

    /** The sampler's clock: seconds since it began; its users are counted afterwards (see Sampler#rebase). */
    private static final class Clock implements RunProgress {

        private final long startNanos = System.nanoTime();
        private final long startedAt = System.currentTimeMillis();

        @Override
        public double secondsSinceStart() {
            return (System.nanoTime() - startNanos) / 1e9;
        }

        @Override
        public int activeUsers() {
            return 0;
        }
    }

    private static String argument(String[] args, String name) {
        int at = Arrays.asList(args).indexOf(name);
        if (at < 0 || at + 1 >= args.length) {
            throw new IllegalArgumentException("Gatling's arguments have no " + name);
        }
        return args[at + 1];
    }
}
