package dev.latencylab.lab.page;

import static dev.latencylab.lab.page.Html.esc;
import static dev.latencylab.lab.page.Html.td;

import java.nio.file.Path;

import dev.latencylab.lab.compare.Comparison;
import dev.latencylab.lab.format.Figures;
import dev.latencylab.lab.layout.OutputFile;

/**
 * A comparison read for a person (./lab compare A B --page FILE): the verdict first, over all points and then for
 * each, then each point's table of metrics, worse in the pages' red, with the method of its intervals and what to
 * weigh beside it.
 */
public final class ComparePage {

    private ComparePage() {
    }

    public static Path write(Comparison c, Path file) {
        writable(file);
        Path at = file.toAbsolutePath().normalize().getParent();
        OutputFile.text(file, html(c, seenFrom(at, c.a().given()), seenFrom(at, c.b().given())));
        return file;
    }

    /** The page's file, if it may be written: a new .html file or an earlier comparison page (see OutputFile.ownFile). */
    public static Path writable(Path file) {
        String head = Html.head(TITLE);
        return OutputFile.ownFile("--page", file, ".html", head.substring(0, head.indexOf(TITLE) + TITLE.length()));
    }

    /** How every comparison page's title starts: a page that does not is not compare's, and is never replaced. */
    private static final String TITLE = "B against A: ";

    /** A side's path from the page's folder; its own name when the page is in it. */
    private static String seenFrom(Path at, Path given) {
        Path side = given.toAbsolutePath().normalize();
        String relative = at.relativize(side).toString();
        return relative.isEmpty() ? String.valueOf(side.getFileName()) : relative;
    }

    /**
     * The verdict in Markdown, as README and the docs carry it between markers (./lab compare A B --verdict): the
     * count over all points, then each point where B came out better or worse.
     */
    public static String markdown(Comparison c) {
        StringBuilder md = new StringBuilder("- ").append(c.summary()).append(".\n");
        for (Comparison.Pair pair : c.pairs()) {
            if (pair.bound() != null || pair.outcomes().stream().anyMatch(o -> o.verdict() == Comparison.Call.BETTER
                    || o.verdict() == Comparison.Call.WORSE)) {
                md.append("- **").append(pair.pointB()).append("**: ").append(pair.headline())
                        .append(pair.bound() == null ? "" : "; " + pair.bound()).append(".\n");
            }
        }
        return md.toString();
    }

    /** @param a, b the sides as seen from the page's folder (a page and its data move together) */
    static String html(Comparison c, String a, String b) {
        String title = TITLE + "%s against %s".formatted(b, a);
        StringBuilder h = new StringBuilder(Html.head(title));
        h.append("<h1>").append(esc(title)).append("</h1>\n");
        h.append("<p class=verdict>").append(esc(c.summary())).append("</p>\n<ul>\n");
        for (Comparison.Pair pair : c.pairs()) {
            h.append("<li><b>").append(esc(pair.pointB())).append("</b>: ").append(esc(pair.headline()))
                    .append(esc(pair.bound() == null ? "" : "; " + pair.bound())).append("</li>\n");
        }
        h.append("</ul>\n");
        c.unmatched().forEach(u -> h.append("<p>Not compared, ").append(esc(u)).append("</p>\n"));
        for (Comparison.Pair pair : c.pairs()) {
            h.append("<h2>").append(esc("%s (%d) → %s (%d)".formatted(pair.pointA(), pair.runsA(), pair.pointB(), pair.runsB())))
                    .append("</h2>\n<p>").append(esc(pair.differs().isEmpty() ? "The same settings." : "Differs in " + pair.differs() + "."))
                    .append("</p>\n<table>\n<tr><th class=l>metric<th>A, mean<th>B, mean<th>B − A<th>share<th>95% interval<th class=l>verdict</tr>\n");
            for (Comparison.Outcome o : pair.outcomes()) {
                boolean worse = o.verdict() == Comparison.Call.WORSE;
                h.append("<tr>").append(td(o.metric().id() + " (" + o.metric().unit() + ")", true)).append(td(Figures.value(o.a()), false))
                        .append(td(Figures.value(o.b()), false)).append(td(Figures.signed(o.difference()), false))
                        .append(td(o.relative() == null ? "" : "%+.1f%%".formatted(o.relative() * 100), false))
                        .append(td(o.interval() == null ? "" : o.interval().range(), false))
                        .append(worse ? "<td class=\"l problem\">" : "<td class=l>").append(esc(o.verdictWords())).append("</td></tr>\n");
            }
            h.append("</table>\n");
            pair.methods().forEach(m -> h.append("<p>Interval: ").append(esc(m)).append(".</p>\n"));
            pair.notes().forEach(n -> h.append("<p class=flags>").append(esc(n)).append("</p>\n"));
        }
        return h.append("</body></html>\n").toString();
    }
}
