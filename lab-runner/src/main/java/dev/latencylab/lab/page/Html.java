package dev.latencylab.lab.page;

/** The one stylesheet and the HTML helpers of every page the lab writes: a sweep's, a run's, several runs'. */
public final class Html {

    private Html() {
    }

    /** A page's head with the lab's stylesheet, up to the opening body tag. */
    static String head(String title) {
        return """
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8"><title>%s</title>
                <style>
                body{font-family:sans-serif;margin:2em;max-width:1400px}
                table{border-collapse:collapse;font-size:13px;margin-bottom:1em}
                td,th{border:1px solid #ccc;padding:3px 6px;text-align:right}
                td.l,th.l{text-align:left}
                tr.failed{background:#fde}
                .flags{color:#a40;text-align:left}
                .range{color:#777;font-size:11px}
                .problem{color:#b00;font-weight:bold}
                .verdict{font-size:16px}
                img{width:100%%;border:1px solid #eee;margin:4px 0}
                pre{background:#f6f6f6;padding:8px;overflow-x:auto}
                .scroll{overflow-x:auto}
                </style></head><body>
                """.formatted(esc(title));
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
