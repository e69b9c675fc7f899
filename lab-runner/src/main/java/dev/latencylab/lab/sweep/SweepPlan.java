package dev.latencylab.lab.sweep;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

import tools.jackson.databind.JsonNode;

import dev.latencylab.load.result.Json;
import dev.latencylab.load.settings.SimulationSettings;
import dev.latencylab.lab.run.Point;
import dev.latencylab.lab.run.ServiceSpec;
import dev.latencylab.lab.run.TargetRun;
import dev.latencylab.lab.run.Jdk;
import dev.latencylab.lab.targets.Target;

/**
 * Everything that defines a sweep, in named parts; stored flat in sweep.json (see {@link SweepFile}) so that a
 * resumed sweep is the same sweep. injectors: Gatling processes that share each closed point's users, their results
 * merged into the point's (see TargetRun#split); sweeps from before it have none: 1. jvmEvents: whether each target
 * records its JVM's events; sweeps from before it have none: their points from here on record them. jdk: the JDK the
 * targets start on, as --jdk gave it (null, and sweeps from before it: the build's). service: a service of the
 * user's that every point loads instead of the lab's targets (null: the matrix's targets).
 */
public record SweepPlan(@JsonUnwrapped Matrix matrix, @JsonUnwrapped PerRun pacing, @JsonUnwrapped Ports ports,
        @JsonUnwrapped Repeats runs, @JsonUnwrapped Levels open, Integer injectors, Boolean jvmEvents,
        @JsonInclude(JsonInclude.Include.NON_NULL) String jdk, @JsonInclude(JsonInclude.Include.NON_NULL) ServiceSpec service) {

    /** A plan of the lab's own targets. */
    public SweepPlan(Matrix matrix, PerRun pacing, Ports ports, Repeats runs, Levels open, Integer injectors, Boolean jvmEvents, String jdk) {
        this(matrix, pacing, ports, runs, open, injectors, jvmEvents, jdk, null);
    }

    public SweepPlan {
        injectors = injectors == null ? 1 : injectors;
        jvmEvents = jvmEvents == null || jvmEvents;
        if (injectors < 1) {
            throw new IllegalArgumentException("--injectors: " + injectors + " Gatling processes; give 1 or more");
        }
    }

    /**
     * What differs in this plan from the one a sweep folder holds, as "name was X, now Y"; null when they are the
     * same sweep. How many runs (the {@link Repeats}) may differ: a resume may extend a sweep.
     */
    public String changeFrom(SweepPlan earlier) {
        JsonNode before = Json.MAPPER.valueToTree(earlier);
        List<String> howMany = java.util.Arrays.stream(Repeats.class.getRecordComponents()).map(java.lang.reflect.RecordComponent::getName).toList();
        for (Map.Entry<String, JsonNode> field : Json.MAPPER.valueToTree(this).properties()) {
            if (!howMany.contains(field.getKey()) && !before.path(field.getKey()).equals(field.getValue())) {
                return "%s was %s, now %s".formatted(field.getKey(), before.path(field.getKey()), field.getValue());
            }
        }
        return null;
    }

    /**
     * The headers whose values a resume of earlier needs given again (a file keeps their names only), as one line asking
     * for them; null when none is missing.
     */
    public String headersNotGivenAgain(SweepPlan earlier) {
        return service == null || earlier.service == null ? null : service.headersNotGivenAgain(earlier.service);
    }

    /**
     * Every run of every point, a whole pass of the matrix before the next: a slow spell of the machine hits
     * every target, and a sweep stopped early has compared them all at least once.
     */
    public List<Point> points() {
        List<Point> points = new ArrayList<>();
        for (int run = 1; run <= runs.repeats(); run++) {
            // users outermost: at any moment the finished points compare every target at the lower counts
            for (long latency : matrix.latenciesMs()) {
                for (int n : matrix.users()) {
                    if (run > 1 && n < runs.repeatsFromUsers()) {
                        continue;
                    }
                    for (Target t : onItsJdk(matrix.targets())) {
                        points.add(new Point(t, n, latency, run));
                    }
                }
                // open points after the closed ones, every pass (--repeats-from-users counts users)
                for (double rate : open.rates()) {
                    for (Target t : onItsJdk(matrix.targets())) {
                        points.add(Point.open(t, rate, latency, run));
                    }
                }
            }
        }
        return points;
    }

    /** The targets, on the JDK the sweep starts them on (see {@link Target#onJdk}); a service of the user's as it is. */
    private List<Target> onItsJdk(List<String> ids) {
        if (service != null) {
            return List.of(service.target());
        }
        int feature = Jdk.featureOf(targetJdk());
        return Target.parseAll(ids).stream().map(t -> t.onJdk(feature)).toList();
    }

    /** The JDK the targets start on, found and asked its version; null: the build's. */
    public Jdk targetJdk() {
        return jdk == null ? null : Jdk.resolve(jdk);
    }

    /** The simulation's settings for one point (the target's URL and PID are added when it runs; a service's are its own). */
    public SimulationSettings settings(Point p) {
        Map<String, String> m = new LinkedHashMap<>();
        if (service != null) {
            m.putAll(service.properties());
        }
        else {
            m.put(SimulationSettings.PATH, p.target().path(p.latencyMs()));
        }
        m.put(SimulationSettings.RAMP_SECONDS, String.valueOf(pacing.rampSeconds()));
        if (p.isOpen()) {
            // an open point: its rate held for a level after the sweep's ramp, the SLO --slo gave or the default, never stopped
            m.put(SimulationSettings.INJECTION, "open");
            m.put(SimulationSettings.RATE, SimulationSettings.rate(p.rate()));
            m.put(SimulationSettings.LEVEL_SECONDS, String.valueOf(open.levelSeconds()));
            m.putAll(open.slo());
        }
        else {
            m.put(SimulationSettings.USERS, String.valueOf(p.users()));
            m.put(SimulationSettings.REPEAT, String.valueOf(pacing.repeat()));
            m.put(SimulationSettings.THINK_MIN_MS, String.valueOf(pacing.thinkMinMs()));
            m.put(SimulationSettings.THINK_MAX_MS, String.valueOf(pacing.thinkMaxMs()));
            m.put(SimulationSettings.CONNECTIONS, pacing.connections());
        }
        if (p.target().poolThreads() > 0) {
            m.put(SimulationSettings.MODEL_THREADS, String.valueOf(p.target().poolThreads()));
        }
        if (injectors > 1) {
            // checked here as each injector will check it (users per injector, rates that split); the run gives each its index
            m.put(SimulationSettings.INJECTORS, String.valueOf(injectors));
        }
        return SimulationSettings.from(m);
    }

    int port(Target t) {
        return t.isMvc() ? ports.mvcPort() : ports.webfluxPort();
    }

    /**
     * How long a point's load and warm-up are planned to take: the warm-up, the ramp, then for a closed point its
     * users' requests each followed by a mean think time, for an open one the level. The rest of a point's time
     * (starting the target and Gatling, draining) is its overhead, measured as the sweep goes.
     */
    public Duration planned(Point p) {
        long loadMs = p.isOpen() ? open.levelSeconds() * 1000L : pacing.repeat() * (p.latencyMs() + (pacing.thinkMinMs() + pacing.thinkMaxMs()) / 2L);
        return Duration.ofSeconds(pacing.warmupSeconds() + pacing.rampSeconds()).plusMillis(loadMs);
    }

    /** The points of a sweep: each target at each count of users (and each open rate, see {@link Levels}), at each latency. */
    public record Matrix(List<String> targets, List<Integer> users, List<Long> latenciesMs) {
    }

    /** How a closed point's users arrive and pace themselves, and how long each target is warmed up first. */
    public record PerRun(int rampSeconds, int repeat, int thinkMinMs, int thinkMaxMs, String connections, int warmupSeconds) {

        /** How users connect unless the sweep says: as the simulation's default. */
        public static final String CONNECTIONS = "auto";
    }

    /** Where each kind of target listens. */
    public record Ports(int mvcPort, int webfluxPort) {
    }

    /**
     * How many runs: repeats of each point (each on a fresh target JVM), of the points with at least repeatsFromUsers
     * users (the others run once; 0: every point). They say how many runs, not what a run is: a resume may change them.
     */
    public record Repeats(int repeats, int repeatsFromUsers) {

        public Repeats {
            if (repeats < 1) {
                throw new IllegalArgumentException("--repeats: " + repeats + " runs of each point; give 1 or more");
            }
            if (repeatsFromUsers < 0) {
                throw new IllegalArgumentException("--repeats-from-users: " + repeatsFromUsers + "; give 0 (every point) or more");
            }
        }
    }

    /**
     * The open points' rates and how long each is held (sweeps from before the open model have neither: none), and the
     * SLO their levels are judged by where --slo gave one (a service's must be given; else null: the latency's own).
     */
    public record Levels(List<Double> rates, Integer levelSeconds,
            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY) Map<String, String> slo) {

        /** How long an open point holds its rate unless --level-seconds says otherwise. */
        public static final int LEVEL_SECONDS = 60;

        public Levels {
            rates = rates == null ? List.of() : List.copyOf(rates);
            levelSeconds = levelSeconds == null ? LEVEL_SECONDS : levelSeconds;
            slo = slo == null ? Map.of() : Map.copyOf(new java.util.TreeMap<>(slo));
        }
    }
}
