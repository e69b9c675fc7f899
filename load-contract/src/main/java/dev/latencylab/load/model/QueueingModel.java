package dev.latencylab.load.model;

import dev.latencylab.load.result.Result;
import dev.latencylab.load.settings.SimulationSettings;

import java.util.Optional;

import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * The closed-system model the suite checks every run against. N users each loop: a request that takes the latency
 * L when served at once, then a think time Z. Unbounded server: throughput N/(L+Z). A blocking pool of T threads
 * serves at most T/L requests per second; past the knee N = T(L+Z)/L the response time grows as N*L/T - Z.
 *
 * @param users         N
 * @param latencyMs     L
 * @param thinkMs       Z, the mean think time
 * @param threads       T when a thread pool bounds concurrency; empty for WebFlux and virtual threads
 * @param rampSeconds   users arrive evenly over this ramp
 * @param repeat        requests per user
 */
public record QueueingModel(int users, double latencyMs, double thinkMs, OptionalInt threads, double rampSeconds, int repeat) {

    /** Requests per second that N users offer when every request is served in L: N / (L + Z). */
    public double offeredLoad() {
        return users / seconds(latencyMs + thinkMs);
    }

    /** T / L: the most a pool of T threads, each busy L per request, can serve per second. */
    public OptionalDouble poolBound() {
        return threads.isPresent() ? OptionalDouble.of(threads.getAsInt() / seconds(latencyMs)) : OptionalDouble.empty();
    }

    /** Throughput at full population: the offered load, capped by the pool. */
    public double throughputAtFullPopulation() {
        return poolBound().isPresent() ? Math.min(offeredLoad(), poolBound().getAsDouble()) : offeredLoad();
    }

    /** N = T (L + Z) / L: users beyond which a pool of T threads saturates. */
    public OptionalDouble kneeUsers() {
        return threads.isPresent() ? OptionalDouble.of(threads.getAsInt() * (latencyMs + thinkMs) / latencyMs) : OptionalDouble.empty();
    }

    /** Response time at full population: L below the knee, N L / T - Z above it. */
    public double responseTimeMsAtFullPopulation() {
        if (threads.isEmpty()) {
            return latencyMs;
        }
        return Math.max(latencyMs, users * latencyMs / threads.getAsInt() - thinkMs);
    }

    /**
     * Mean throughput over the whole run, ramp and drain included, when nothing saturates: every user sends its
     * requests within R (its arrival) + repeat * (L + Z), so N * repeat requests take R + repeat * (L + Z) seconds.
     * With a pool, no more than T/L of it.
     */
    public double meanThroughputBound() {
        double unbounded = users * (double) repeat / (rampSeconds + repeat * seconds(latencyMs + thinkMs));
        return poolBound().isPresent() ? Math.min(unbounded, poolBound().getAsDouble()) : unbounded;
    }

    /** Whether the model expects the pool to be the limit at full population. */
    public boolean saturated() {
        return kneeUsers().isPresent() && users > kneeUsers().getAsDouble();
    }

    public Result.Model result() {
        return new Result.Model(latencyMs, thinkMs, threads.isPresent() ? threads.getAsInt() : null, offeredLoad(),
                poolBound().isPresent() ? poolBound().getAsDouble() : null, throughputAtFullPopulation(), meanThroughputBound(),
                kneeUsers().isPresent() ? kneeUsers().getAsDouble() : null, responseTimeMsAtFullPopulation(), saturated());
    }

    private static double seconds(double ms) {
        return ms / 1000.0;
    }

    /** The model for these settings, when the path names a latency. */
    public static Optional<QueueingModel> of(SimulationSettings s, OptionalInt threads) {
        if (s.latencyMs().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new QueueingModel(s.users(), s.latencyMs().getAsLong(), s.thinkMean().toMillis(), threads,
                s.pacing().ramp().toSeconds(), s.pacing().repeat()));
    }
}
