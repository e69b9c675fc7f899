package dev.latencylab.lab.capacity;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

import dev.latencylab.load.result.Result;
import dev.latencylab.lab.format.Figures;

/**
 * The arithmetic of a capacity search: which rates each ladder climbs and what the levels say. The first ladder
 * doubles from a start rate to a maximum, stopping at the first level that misses the SLO; each refinement climbs
 * the same way to the highest level within the SLO and then evenly towards the lowest that missed it. The capacity is the highest rate
 * within the SLO below the lowest rate that missed it.
 */
public final class CapacitySearch {

    private CapacitySearch() {
    }

    /**
     * One level of one ladder, as its run's result file reports it, in named parts that capacity.json and levels.csv
     * write flat: its rate, whether it met the SLO (null: cut short or never reached: says nothing), goodput (OK
     * responses completed per second while it was held), its latencies, KO share, unanswered arrivals, the injector's
     * lag, CPU shares of all cores, and its verdict. Searches from before unanswered arrivals were counted have none: 0.
     */
    public record Level(int round, double rate, Boolean withinSlo, Double goodput, @JsonUnwrapped Latency latency, double koPercent,
            Long unanswered, Long injectorLagP99Ms, @JsonUnwrapped Result.Cpu cpu, String verdict) {

        public Level {
            unanswered = unanswered == null ? 0 : unanswered;
        }

        public static Level of(int round, Result.Level l) {
            long done = l.counts().ok() + l.counts().ko();
            Result.ResponseTimes due = l.times().fromDueMs();
            Result.ResponseTimes sent = l.times().responseTimeMs();
            return new Level(round, l.ratePerSecond(), l.withinSlo(), l.goodputPerSecond(),
                    new Latency(due == null ? null : due.p50(), due == null ? null : due.p99(), sent == null ? null : sent.p50(),
                            sent == null ? null : sent.p99(), due == null ? null : due.max()),
                    done == 0 ? 0 : 100.0 * l.counts().ko() / done, l.counts().unanswered(),
                    l.times().injectorLagMs() == null ? null : l.times().injectorLagMs().p99(), l.cpu(), l.verdict());
        }

        /**
         * How much longer the 99th percentile is from due than by Gatling's clock: the coordinated-omission gap. Null for
         * a level cut short by a stop: its unanswered arrivals count from due (at their age) but Gatling timed none of
         * them, so the two would not be over the same requests.
         */
        public Long coGapP99Ms() {
            return latency.p99FromDueMs() == null || latency.p99Ms() == null || unanswered > 0 ? null : latency.p99FromDueMs() - latency.p99Ms();
        }
    }

    /**
     * A level's p50, p99 and max from each arrival's due time (null for a flow's level: its requests have no due time),
     * and its p50 and p99 by Gatling's clock (from when sent), in ms.
     */
    public record Latency(Long p50FromDueMs, Long p99FromDueMs, Long p50Ms, Long p99Ms, Long maxFromDueMs) {

        /** The p50 a level is judged by: from due, or for a flow's level its requests' own. */
        public Long p50JudgedMs() {
            return p50FromDueMs != null ? p50FromDueMs : p50Ms;
        }

        /** The p99 a level is judged by: from due, or for a flow's level its requests' own. */
        public Long p99JudgedMs() {
            return p99FromDueMs != null ? p99FromDueMs : p99Ms;
        }
    }

    /**
     * What the levels say. capacity: the highest rate within the SLO below firstMiss (null when even the first level
     * missed); firstMiss: the lowest rate that missed it (null when none did: the capacity is at least the rate);
     * metAbove: the highest rate at or above firstMiss that another ladder held within the SLO (null when none did).
     * Ladders disagree where a pool is at its T/L: with no spare capacity a backlog from the level's start never drains.
     */
    public record Found(Double capacity, Double firstMiss, Double metAbove) {

        /** Whether a level missed above the capacity: the capacity is bracketed, not only a lower bound. */
        public boolean bracketed() {
            return capacity != null && firstMiss != null;
        }

        /** What the levels say, in words; unit: what a rate counts per second (Capacity.Settings#rateUnit). */
        public String describe(String unit) {
            if (capacity == null) {
                return firstMiss == null ? "no level was measured" : "below %s %s: the first level missed the SLO; give a lower --start-rate"
                        .formatted(Figures.rate(firstMiss), unit);
            }
            if (firstMiss == null) {
                return "at least %s %s: no level missed the SLO; give a higher --max-rate to find it".formatted(Figures.rate(capacity), unit);
            }
            return "%s %s (the next level, %s %s, missed the SLO%s)".formatted(Figures.rate(capacity), unit, Figures.rate(firstMiss), unit,
                    metAbove == null ? "" : disagreement(unit));
        }

        /** How the ladders disagreed, as the summary and the verdict say it. */
        public String disagreement(String unit) {
            return "; %s %s met it in another ladder: there the SLO is met only sometimes, repeat the search (--repeats 3)"
                    .formatted(Figures.rate(metAbove), unit);
        }
    }

    /** A service's first level unless --start-rate says otherwise: low, as nothing is known of it; the ladder doubles. */
    public static final double SERVICE_START_RATE = 10;

    /**
     * The first level when none is given: a quarter of the pool's T/L (poolModel; NaN: no pool), else
     * {@link #SERVICE_START_RATE} for a service of the user's, else 250 req/s.
     */
    public static double startRate(double poolModel, boolean service) {
        return !Double.isNaN(poolModel) ? round(poolModel / 4) : service ? SERVICE_START_RATE : 250;
    }

    /** The first ladder's highest level when none is given: twice the pool's T/L (NaN: no pool), else 20,000 req/s. */
    public static double maxRate(double poolModel) {
        return !Double.isNaN(poolModel) ? 2 * poolModel : 20_000;
    }

    /** start, 2·start, 4·start, ... while below max, then max. */
    public static List<Double> firstLadder(double start, double max) {
        List<Double> rates = new ArrayList<>();
        for (double r = start; r < max; r *= 2) {
            rates.add(round(r));
        }
        if (rates.isEmpty() || rates.getLast() < max) {
            rates.add(round(max));
        }
        return rates;
    }

    /**
     * A refinement ladder: the first ladder's rates below good and good itself again (the same gentle climb: a fresh
     * target and a cold injector JVM ramped within seconds to thousands of requests per second measure the injector's
     * JIT, not the server), then levels between good and bad. Empty when no rate fits between them.
     */
    public static List<Double> refinement(List<Double> firstLadder, double good, double bad, int levels) {
        List<Double> between = between(good, bad, levels);
        if (between.isEmpty()) {
            return List.of();
        }
        List<Double> rates = new ArrayList<>(firstLadder.stream().filter(r -> r < good).toList());
        rates.add(good);
        rates.addAll(between);
        return rates;
    }

    /** levels rates evenly between good and bad, both excluded (fewer when rounding makes two the same). */
    public static List<Double> between(double good, double bad, int levels) {
        List<Double> rates = new ArrayList<>();
        for (int i = 1; i <= levels; i++) {
            double r = round(good + (bad - good) * i / (levels + 1));
            if (r > good && r < bad && (rates.isEmpty() || r > rates.getLast())) {
                rates.add(r);
            }
        }
        return rates;
    }

    public static Found found(List<Level> levels) {
        Double firstMiss = levels.stream().filter(l -> Boolean.FALSE.equals(l.withinSlo())).map(Level::rate)
                .min(Comparator.naturalOrder()).orElse(null);
        Double capacity = levels.stream().filter(l -> Boolean.TRUE.equals(l.withinSlo()))
                .map(Level::rate).filter(r -> firstMiss == null || r < firstMiss).max(Comparator.naturalOrder()).orElse(null);
        Double metAbove = firstMiss == null ? null : levels.stream().filter(l -> Boolean.TRUE.equals(l.withinSlo()) && l.rate() >= firstMiss)
                .map(Level::rate).max(Comparator.naturalOrder()).orElse(null);
        return new Found(capacity, firstMiss, metAbove);
    }

    /**
     * This machine's ceiling for the target as the levels measured it: goodput over the CPU share of all cores that
     * server and injector used together, at the busiest level within the SLO (see MachineCeiling: a lower bound when
     * measured below the machine's limit). Null when no such level has CPU readings. Where each arrival is a flow of
     * several requests (flows), the ceiling is of arrivals, as the capacity is: the level's rate over that CPU share.
     */
    public static Double machineCeiling(List<Level> levels, boolean flows) {
        return levels.stream()
                .filter(l -> Boolean.TRUE.equals(l.withinSlo()) && l.goodput() != null && l.cpu().serverCpu() != null && l.cpu().injectorCpu() != null
                        && l.cpu().serverCpu() + l.cpu().injectorCpu() > 0)
                .max(Comparator.comparingDouble(Level::goodput))
                .map(l -> (flows ? l.rate() : l.goodput()) / (l.cpu().serverCpu() + l.cpu().injectorCpu())).orElse(null);
    }

    /** A rate as the ladders use it: whole above 100 req/s, one decimal above 10, two below. */
    public static double round(double rate) {
        double scale = rate >= 100 ? 1 : rate >= 10 ? 10 : 100;
        return Math.round(rate * scale) / scale;
    }

}
