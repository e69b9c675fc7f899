package dev.latencylab.lab.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import dev.latencylab.lab.Lab;

/**
 * Every relative link in README, CONTRIBUTING and docs/ resolves: its file exists, and its #anchor is a heading of that
 * Markdown file (as GitHub names headings) or an id of that HTML page. Links to the web are not followed.
 */
class DocsLinksTest {

    /** [text](target) and ![alt](target); a target ends at a space (a title) or the closing parenthesis. */
    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    /** A reference-style link's definition: [name]: target */
    private static final Pattern REFERENCE = Pattern.compile("(?m)^\\[[^\\]]+\\]:\\s+(\\S+)$");
    private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6} (.+)$");
    private static final Pattern FENCE = Pattern.compile("(?ms)^```.*?^```");
    private static final Pattern HTML_ID = Pattern.compile("id=\"?([A-Za-z0-9_-]+)");

    /** Every Markdown file a reader reads: README, CONTRIBUTING and those under docs/. */
    static List<Path> markdown() throws IOException {
        Path repo = Lab.repo();
        List<Path> texts = new ArrayList<>(List.of(repo.resolve("README.md"), repo.resolve("CONTRIBUTING.md")));
        try (Stream<Path> docs = Files.walk(repo.resolve("docs"))) {
            docs.filter(f -> f.toString().endsWith(".md")).sorted().forEach(texts::add);
        }
        return texts;
    }

    /**
     * A command a reader copies from a code block runs in their shell as shown: a URL with a query (?) is quoted, else zsh
     * refuses it ("no matches found") and bash may expand it.
     */
    @Test
    void noCommandLeavesAQueryToTheShell() throws IOException {
        Pattern unquoted = Pattern.compile("(?<=[\\s=])https?://[^\\s'\"]*\\?");
        List<String> bare = new ArrayList<>();
        for (Path text : markdown()) {
            Matcher block = FENCE.matcher(Files.readString(text));
            while (block.find()) {
                if (block.group().startsWith("```bash")) {
                    block.group().lines().filter(l -> unquoted.matcher(l).find()).forEach(l -> bare.add(Lab.repo().relativize(text) + ": " + l.strip()));
                }
            }
        }
        assertThat(bare).isEmpty();
    }

    /**
     * CONTRIBUTING's tree of lab-runner's packages names each package, and only those; each package's package-info
     * names each class in it (a class moved or added is said where it lives, not in CONTRIBUTING).
     */
    @Test
    void contributingNamesEveryPackageOfTheRunnerAndEachPackageInfoItsClasses() throws IOException {
        Path root = Lab.repo().resolve("lab-runner/src/main/java/dev/latencylab/lab");
        String contributing = Files.readString(Lab.repo().resolve("CONTRIBUTING.md"));
        Matcher tree = Pattern.compile("(?ms)^`lab-runner`'s packages.*?^```\\n(.*?)^```").matcher(contributing);
        assertThat(tree.find()).as("CONTRIBUTING's package tree").isTrue();
        Set<String> listed = new HashSet<>();
        // a package per line; a line that starts with spaces goes on with the one above
        for (String line : tree.group(1).replaceAll("\\n +", " ").lines().toList()) {
            String pkg = line.split(" ", 2)[0];
            listed.add(pkg);
            String info = Files.readString(root.resolve(pkg).resolve("package-info.java"));
            try (Stream<Path> classes = Files.list(root.resolve(pkg))) {
                List<String> names = classes.map(f -> f.getFileName().toString().replace(".java", ""))
                        .filter(n -> !n.equals("package-info")).toList();
                assertThat(names).as("the classes of %s that its package-info names", pkg)
                        .allSatisfy(n -> assertThat(info).containsPattern("\\b" + n + "\\b"));
            }
        }
        try (Stream<Path> packages = Files.list(root)) {
            assertThat(packages.filter(Files::isDirectory).map(d -> d.getFileName().toString()).toList())
                    .containsExactlyInAnyOrderElementsOf(listed);
        }
    }

    /** CONTRIBUTING's table of what the tests prove names every test class of every module, so that none is lost from it. */
    @Test
    void contributingNamesEveryTestClass() throws IOException {
        String contributing = Files.readString(Lab.repo().resolve("CONTRIBUTING.md"));
        Matcher table = Pattern.compile("(?ms)^## What the tests prove$(.*?)(?=^## |\\z)").matcher(contributing);
        assertThat(table.find()).as("CONTRIBUTING's section on the tests").isTrue();
        List<String> tests;
        try (Stream<Path> files = Files.walk(Lab.repo(), 10)) {
            tests = files.filter(f -> f.toString().contains("/src/test/") && !f.toString().contains("/target/"))
                    .map(f -> f.getFileName().toString())
                    .filter(n -> n.matches("[A-Za-z]+(Test|Tests|IT)\\.java")).map(n -> n.replace(".java", "")).sorted().toList();
        }
        assertThat(tests).as("test classes found").hasSizeGreaterThan(50);
        assertThat(tests).as("the test classes CONTRIBUTING's table names").allSatisfy(t -> assertThat(table.group(1)).contains("`" + t + "`"));
    }

    @Test
    void everyRelativeLinkAndAnchorResolves() throws IOException {
        Path repo = Lab.repo();
        List<Path> texts = markdown();
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path text : texts) {
            String markdown = FENCE.matcher(Files.readString(text)).replaceAll(""); // a code block's brackets are code
            List<String> targets = new ArrayList<>();
            for (Pattern p : List.of(LINK, REFERENCE)) {
                Matcher m = p.matcher(markdown);
                while (m.find()) {
                    targets.add(m.group(1));
                }
            }
            for (String target : targets) {
                if (target.matches("[a-z]+:.*")) {
                    continue; // https:, mailto:
                }
                checked++;
                String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
                String anchor = target.contains("#") ? target.substring(target.indexOf('#') + 1) : null;
                Path to = file.isEmpty() ? text : text.getParent().resolve(file).normalize();
                String where = repo.relativize(text) + ": " + target;
                if (!Files.exists(to)) {
                    broken.add(where + " (no such file)");
                }
                else if (anchor != null && !anchors(to).contains(anchor)) {
                    broken.add(where + " (no such heading in " + repo.relativize(to) + ")");
                }
            }
        }
        assertThat(checked).as("links checked").isGreaterThan(20);
        assertThat(broken).as("broken links").isEmpty();
    }

    /** GitHub's heading ids: lower case, punctuation dropped, spaces as hyphens, a repeat numbered -1, -2, ... */
    @Test
    void headingsAreNamedAsGithubNamesThem() {
        assertThat(slug("Capacity under open arrival: `./lab capacity`")).isEqualTo("capacity-under-open-arrival-lab-capacity");
        assertThat(slug("Real I/O: the connection pool decides, not the threads")).isEqualTo("real-io-the-connection-pool-decides-not-the-threads");
        assertThat(slug("The machine's ceiling")).isEqualTo("the-machines-ceiling");
    }

    private static Set<String> anchors(Path file) throws IOException {
        Set<String> ids = new HashSet<>();
        if (Files.isDirectory(file)) {
            return ids;
        }
        String text = Files.readString(file);
        if (file.toString().endsWith(".md")) {
            Matcher h = HEADING.matcher(FENCE.matcher(text).replaceAll(""));
            while (h.find()) {
                String id = slug(h.group(1));
                String unique = id;
                for (int i = 1; ids.contains(unique); i++) {
                    unique = id + "-" + i;
                }
                ids.add(unique);
            }
        }
        Matcher id = HTML_ID.matcher(text);
        while (id.find()) {
            ids.add(id.group(1));
        }
        return ids;
    }

    static String slug(String heading) {
        return heading.trim().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }
}
