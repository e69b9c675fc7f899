package dev.latencylab.lab.page;

import java.nio.file.Path;
import java.util.Map;

import dev.latencylab.lab.compare.Comparison;
import dev.latencylab.lab.layout.OutputFile;

/**
 * A comparison read for a person (./lab compare A B --out FILE.html): the verdict first, over all points and then for
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
        return OutputFile.ownFile("--out", file, ".html", head.substring(0, head.indexOf(TITLE) + TITLE.length()));
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
        return Templates.render("compare.jte", Map.of("c", c, "title", TITLE + "%s against %s".formatted(b, a)));
    }
}
