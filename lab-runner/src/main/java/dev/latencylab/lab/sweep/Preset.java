package dev.latencylab.lab.sweep;

import java.util.List;

import dev.latencylab.load.settings.SimulationProperties;
import dev.latencylab.load.settings.SimulationSettings;

/** What a sweep runs when no option says otherwise: data, one row per preset. */
public enum Preset {
    /** The classic scenario: 4 targets, 1,000 to 20,000 users, 30 s ramp, 30 requests each. */
    DEFAULT(List.of("mvc-t200", "mvc-t400", "mvc-virtual", "webflux"), List.of(1000, 2000, 3000, 5000, 10000, 20000), 30, 30, 5),
    /**
     * The three models apart in a few minutes: a pool of 20 threads (T/L 200 req/s at 100 ms, its knee at 320 users)
     * saturates at 500 and 1,000 users, where virtual threads and WebFlux follow the offered load (312 and 625
     * req/s). The runs are short, so cold JVMs spend CPU on the plateau: at 1,000 users this 2-core machine's CPU
     * was 86-99% busy (flagged so), though the offered load, not the CPU, decided the goodput.
     */
    QUICK(List.of("mvc-t20", "mvc-virtual", "webflux"), List.of(100, 500, 1000), 5, 5, 2);

    public static final List<Long> LATENCIES_MS = List.of(100L);
    /** Every preset's think times: the simulation's own defaults. */
    public static final int THINK_MIN_MS = Integer.parseInt(SimulationProperties.NAMES.get(SimulationSettings.THINK_MIN_MS));
    public static final int THINK_MAX_MS = Integer.parseInt(SimulationProperties.NAMES.get(SimulationSettings.THINK_MAX_MS));

    public final List<String> targets;
    public final List<Integer> users;
    public final int rampSeconds;
    public final int repeat;
    public final int warmupSeconds;

    Preset(List<String> targets, List<Integer> users, int rampSeconds, int repeat, int warmupSeconds) {
        this.targets = targets;
        this.users = users;
        this.rampSeconds = rampSeconds;
        this.repeat = repeat;
        this.warmupSeconds = warmupSeconds;
    }
}
