package dev.latencylab.lab.run;

import java.time.Duration;
import java.time.Instant;

import dev.latencylab.load.result.Result;

/**
 * What ./lab run adds to the scenario's own time: from the command's start to the load's first moment (the runner's
 * JVM, the target's start, its warm-up, Gatling's JVM started beside the warm-up), and from the load's last moment to
 * the printed answer (the simulation's result file and report, the target's stop, the run's page).
 *
 * @param warmupSeconds the part of before that the user asked for (--warmup-seconds)
 */
public record Overhead(double beforeSeconds, double scenarioSeconds, double afterSeconds, int warmupSeconds) {

    public static Overhead of(Instant commandStart, Result result, Instant printed, int warmupSeconds) {
        Instant first = Instant.parse(result.start());
        Instant last = Instant.parse(result.end());
        return new Overhead(seconds(commandStart, first), result.durationSeconds(), seconds(last, printed), warmupSeconds);
    }

    private static double seconds(Instant from, Instant to) {
        return Math.round(Duration.between(from, to).toMillis() / 100.0) / 10.0;
    }

    double totalSeconds() {
        return Math.round((beforeSeconds + afterSeconds) * 10) / 10.0;
    }

    /** As point.json records it: seconds before the first request and after the last response, their total, the warm-up's. */
    public record Recorded(double beforeFirstRequest, double afterLastResponse, double total, int warmup) {
    }

    public Recorded recorded() {
        return new Recorded(beforeSeconds, afterSeconds, totalSeconds(), warmupSeconds);
    }

    @Override
    public String toString() {
        return "overhead %.1f s beside the scenario's %.1f s: %.1f s to the first request (the warm-up's %d s among them), %.1f s from the last response to this line"
                .formatted(totalSeconds(), scenarioSeconds, beforeSeconds, warmupSeconds, afterSeconds);
    }
}
