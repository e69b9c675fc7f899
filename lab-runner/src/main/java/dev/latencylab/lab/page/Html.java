package dev.latencylab.lab.page;

import java.util.Map;

import gg.jte.Content;

/** What the pages' templates share beside the layout: figures as the tables show them, and the layout's head alone. */
final class Html {

    private Html() {
    }

    /**
     * A page's head with the lab's stylesheet, up to the opening body tag (page.jte's): how a page of the lab begins,
     * which tells it from a file the lab must not replace.
     */
    static String head(String title) {
        String empty = Templates.render("page.jte", Map.of("title", title, "body", (Content) output -> {
        }));
        return empty.substring(0, empty.length() - "</body></html>".length());
    }

    /** A figure grouped and whole; empty when there is none. */
    static String f0(Double v) {
        return v == null ? "" : "%,.0f".formatted(v);
    }

    /** A share as a whole percentage; empty when there is none. */
    static String pct(Double v) {
        return v == null ? "" : "%.0f%%".formatted(100 * v);
    }
}
