package dev.latencylab.load.model;

import dev.latencylab.load.result.Result;
import dev.latencylab.load.settings.SimulationSettings;

import java.util.Optional;

import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * The open model: requests arrive at rate λ whatever the server does. A pool of T threads each busy L serves at most
 * T/L per second, its capacity: below it every request takes L; above it the excess queues without bound, so the
 * wait grows through the whole level: the last arrival of a level of D seconds waits about (λ − T/L)·D / (T/L). With
 * no pool, no line of this model bounds it: the machine's CPU does (measured, not modelled).
 */
public record OpenModel(double rate, double latencyMs, OptionalInt threads, double levelSeconds) {

    public OptionalDouble capacity() {
        return threads.isPresent() ? OptionalDouble.of(threads.getAsInt() * 1000.0 / latencyMs) : OptionalDouble.empty();
    }

    /** Responses per second the model expects: the rate, capped by the pool. */
    public double throughput() {
        return capacity().isPresent() ? Math.min(rate, capacity().getAsDouble()) : rate;
    }

    /** The model's throughput at another rate of the same run (a level of a ladder). */
    public double throughputAt(double otherRate) {
        return new OpenModel(otherRate, latencyMs, threads, levelSeconds).throughput();
    }

    public boolean saturated() {
        return capacity().isPresent() && rate > capacity().getAsDouble();
    }

    /** The response time of the level's last arrival: L, plus the queue that built up through the level when saturated. */
    public double responseTimeMsAtLevelEnd() {
        if (!saturated()) {
            return latencyMs;
        }
        double cap = capacity().getAsDouble();
        return latencyMs + (rate - cap) * levelSeconds / cap * 1000;
    }

    /** In the result file's layout: no users, no think time, no knee in users. */
    public Result.Model result() {
        return new Result.Model(latencyMs, 0, threads.isPresent() ? threads.getAsInt() : null, rate,
                capacity().isPresent() ? capacity().getAsDouble() : null, throughput(), throughput(), null,
                responseTimeMsAtLevelEnd(), saturated());
    }

    /** The open model for these settings at their top rate, when the path names a latency. */
    public static Optional<OpenModel> of(SimulationSettings s, OptionalInt threads) {
        if (s.latencyMs().isEmpty() || s.openLoad().isEmpty()) {
            return Optional.empty();
        }
        // the whole run's top rate, also in an injector's part of a split run (as its users are the whole run's)
        return Optional.of(new OpenModel(s.load().rates().getLast(), s.latencyMs().getAsLong(), threads,
                s.load().levelDuration().toSeconds()));
    }
}
