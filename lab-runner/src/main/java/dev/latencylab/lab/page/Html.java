package dev.latencylab.lab.page;

import java.util.Map;

import gg.jte.Content;

/** The HTML helpers of the pages the lab writes in Java (a sweep's, a run's, several runs'); the others are templates. */
public final class Html {

    private Html() {
    }

    /**
     * A page's head with the lab's stylesheet, up to the opening body tag: page.jte's, for the pages that are not yet
     * templates of their own.
     */
    static String head(String title) {
        String empty = Templates.render("page.jte", Map.of("title", title, "body", (Content) output -> { }));
        return empty.substring(0, empty.length() - "</body></html>".length());
    }

    /** A table cell, its text escaped; left: aligned left (a name), else right (a number). */
    static String td(String s, boolean left) {
        return (left ? "<td class=l>" : "<td>") + esc(s) + "</td>";
    }

    /** A figure grouped and whole; empty when there is none. */
    static String f0(Double v) {
        return v == null ? "" : "%,.0f".formatted(v);
    }

    /** A share as a whole percentage; empty when there is none. */
    static String pct(Double v) {
        return v == null ? "" : "%.0f%%".formatted(100 * v);
    }

    public static String esc(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
