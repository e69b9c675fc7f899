package dev.latencylab.lab.run;

import com.fasterxml.jackson.annotation.JsonInclude;

/** What a target run came to: finished (whether Gatling's run counts or not), or stopped by a signal first. */
public sealed interface RunOutcome {

    /** Gatling's outcome (its report in the run's folder) and what the run started, for the run's record. */
    record Finished(GatlingLauncher.Exit gatling, Started started) implements RunOutcome {
    }

    /** Ended by a signal after the warm-up or under load: what ran is no measurement, and there is nothing to record. */
    record Stopped() implements RunOutcome {
    }

    /**
     * What a run started beside the load, as its point.json records it: the target's pid and when its JVM was started
     * (in a sweep, before the point's own start when it was started while the last point ended), an http target's
     * downstream service, a db target's database, and the warm-up; a dependency the target has not, absent.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Started(Long targetPid, java.time.Instant targetStartedAt, Downstream downstream, EmbeddedDatabase.Described database,
            Warmed warmup) {
    }

    /** The downstream service an http target calls: its pid and URL. */
    record Downstream(long pid, String url) {
    }

    /** The warm-up: how long, and how many of its requests were answered OK or failed. */
    record Warmed(long seconds, long ok, long failed) {
    }
}
