package dev.latencylab.lab.run;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * How a run, a point, a ladder of a capacity search or a footprint's measurement ended: its word in point.json, the
 * CSV tables and the search's and footprint's files. Only a ladder is interrupted (a signal stops the search).
 */
public enum Status {
    @JsonProperty("done")
    DONE,
    @JsonProperty("failed")
    FAILED,
    @JsonProperty("interrupted")
    INTERRUPTED;

    /** Its word, as the files spell it (a CSV cell, a page). */
    @Override
    public String toString() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
