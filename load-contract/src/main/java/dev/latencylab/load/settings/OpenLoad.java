package dev.latencylab.load.settings;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The open model's arrivals as a plan: for each rate, a ramp from the previous rate (0 before the first) and then the
 * rate held for a level. One rate is a plain open run; several make a ladder, as the capacity search uses. The
 * simulation turns each ramp and level into Gatling's rampUsersPerSec and constantUsersPerSec steps, so the times
 * here are those of Gatling's schedule.
 *
 * @param rates   requests per second, ascending
 * @param ramp    each ramp's length (whole seconds: Gatling's steps count in seconds)
 * @param level   how long each rate is held
 * @param poisson Poisson arrivals of the same mean rate instead of evenly spaced ones
 */
public record OpenLoad(List<Double> rates, Duration ramp, Duration level, boolean poisson) {

    /** One level's plateau: the rate held from fromMs to toMs after the injection started. */
    public record PlannedLevel(int index, double rate, long fromMs, long toMs) {

        public boolean contains(long offsetMs) {
            return offsetMs >= fromMs && offsetMs < toMs;
        }

        public double seconds() {
            return (toMs - fromMs) / 1000.0;
        }
    }

    public OpenLoad {
        rates = List.copyOf(rates);
        if (rates.isEmpty()) {
            throw new IllegalArgumentException("an open load needs at least one rate");
        }
    }

    public List<PlannedLevel> levels() {
        List<PlannedLevel> windows = new ArrayList<>();
        long t = 0;
        for (int i = 0; i < rates.size(); i++) {
            t += ramp.toMillis();
            windows.add(new PlannedLevel(i, rates.get(i), t, t + level.toMillis()));
            t += level.toMillis();
        }
        return windows;
    }

    /** The level whose plateau holds this offset from the injection's start, or -1 (a ramp, or after the end). */
    public int levelAt(long offsetMs) {
        long cycle = ramp.toMillis() + level.toMillis();
        int i = (int) (offsetMs / cycle);
        if (offsetMs < 0 || i >= rates.size()) {
            return -1;
        }
        return offsetMs - i * cycle >= ramp.toMillis() ? i : -1;
    }

    public Duration duration() {
        return ramp.plus(level).multipliedBy(rates.size());
    }

    public double topRate() {
        return rates.getLast();
    }
}
