package dev.latencylab.load.model;

import dev.latencylab.load.result.Result;

/**
 * An open level's verdict on the SLO, by the one rule a level recorded by one injector (ArrivalRecorder) and a level
 * merged from several (ResultMerge) are judged by: withinSlo null when the level was never reached or was cut short.
 */
public record SloJudgement(Boolean withinSlo, String verdict) {

    /**
     * Missed when more than 1% of its planned arrivals took longer than the SLO or more of them were KO than it allows
     * (seen while running, or from the counts afterwards: missed), or when its p99 from due or its KO share is above the
     * SLO; cut short when some of its arrivals were never sent or never answered. An arrival that is a user's flow
     * (flows) has no due time past its first request: its level is judged by its requests' own times (fromDueMs holds
     * them) and said so.
     */
    public static SloJudgement of(long planned, long arrivals, long ok, long ko, long unanswered, Result.ResponseTimes fromDueMs,
            boolean missed, long sloMs, double sloKoPercent, boolean flows) {
        if (arrivals == 0) {
            return new SloJudgement(null, "not reached");
        }
        long done = ok + ko;
        double koPercent = done == 0 ? 0 : 100.0 * ko / done;
        Boolean within;
        if (missed || fromDueMs.p99() > sloMs || koPercent > sloKoPercent) {
            within = false;
        }
        else {
            within = unanswered > 0 || arrivals < planned ? null : true;
        }
        String numbers = "%s %,d ms (SLO %,d), KO %.2f%% (SLO %s%%)".formatted("p99 " + Result.Open.p99Timed(flows ? Result.Open.FLOW : null), fromDueMs.p99(),
                sloMs,
                koPercent, sloKoPercent);
        return new SloJudgement(within, within == null ? "cut short by the stop: " + numbers
                : (within ? "within the SLO: " : "missed the SLO: ") + numbers);
    }

    /** Whether a level's counts miss the SLO: more than 1% of its planned arrivals slower than it, or more KO than it allows. */
    public static boolean missed(long planned, long slowerThanSlo, long ko, double sloKoPercent) {
        return slowerThanSlo > 0.01 * planned || ko > sloKoPercent / 100 * planned;
    }
}
