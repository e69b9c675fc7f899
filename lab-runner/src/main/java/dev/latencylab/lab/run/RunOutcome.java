package dev.latencylab.lab.run;

import java.util.LinkedHashMap;
import java.util.Map;

/** What a target run came to: finished (whether Gatling's run counts or not), or stopped by a signal first. */
public sealed interface RunOutcome {

    /** Gatling's outcome (its report in the run's folder) and what the run started, for the run's record. */
    record Finished(GatlingLauncher.Outcome gatling, Started started) implements RunOutcome {
    }

    /** Ended by a signal after the warm-up or under load: what ran is no measurement, and there is nothing to record. */
    record Stopped() implements RunOutcome {
    }

    /**
     * What a run started beside the load: the target's pid, an http target's downstream service, a db target's
     * database (as {@link EmbeddedDatabase} describes it), and the warm-up.
     */
    record Started(long targetPid, Downstream downstream, Map<String, Object> database, Warmed warmup) {

        /** The entries a run's point.json holds for these, in its order; a dependency the target has not, absent. */
        public Map<String, Object> details() {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("targetPid", targetPid);
            if (downstream != null) {
                d.put("downstream", downstream);
            }
            if (database != null) {
                d.put("database", database);
            }
            d.put("warmup", warmup);
            return d;
        }
    }

    /** The downstream service an http target calls: its pid and URL. */
    record Downstream(long pid, String url) {
    }

    /** The warm-up: how long, and how many of its requests were answered OK or failed. */
    record Warmed(long seconds, long ok, long failed) {
    }
}
