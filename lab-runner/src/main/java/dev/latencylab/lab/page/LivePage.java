package dev.latencylab.lab.page;

import java.util.HashMap;
import java.util.Map;

/** The live view's page (live.jte): charts of the run's seconds as they come, drawn by uPlot in the browser. */
public final class LivePage {

    private LivePage() {
    }

    /** The page of a run titled title; boundPerSecond the model's bound, drawn beside the throughput (null: none). */
    public static String html(String title, Double boundPerSecond) {
        Map<String, Object> parameters = new HashMap<>();
        parameters.put("title", title);
        parameters.put("boundPerSecond", boundPerSecond);
        return Templates.render("live.jte", parameters);
    }
}
