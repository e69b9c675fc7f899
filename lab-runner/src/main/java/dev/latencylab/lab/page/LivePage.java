package dev.latencylab.lab.page;

import java.util.Map;

/**
 * The live view's page (live.jte): charts of the run's seconds as they come, drawn by uPlot in the browser; for a
 * sweep, each point's run in turn, the lines of those that ended listed above.
 */
public final class LivePage {

    private LivePage() {
    }

    /** The page of the work titled title (a run, a sweep). */
    public static String html(String title) {
        return Templates.render("live.jte", Map.of("title", title));
    }
}
