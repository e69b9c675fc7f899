package dev.latencylab.lab.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.latencylab.lab.capacity.Capacity;
import dev.latencylab.lab.compare.Comparison;
import dev.latencylab.lab.compare.Side;
import dev.latencylab.lab.footprint.Footprint;
import dev.latencylab.lab.history.ChangePoints;
import dev.latencylab.lab.history.History;
import dev.latencylab.lab.history.HistoryLines;
import dev.latencylab.lab.history.HistoryRuns;
import dev.latencylab.lab.layout.FootprintFolder;
import dev.latencylab.lab.layout.OutputFile;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.layout.SearchFolder;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.page.CapacityReport;
import dev.latencylab.lab.page.ComparePage;
import dev.latencylab.lab.page.SweepPage;
import dev.latencylab.lab.page.FootprintPage;
import dev.latencylab.lab.page.HistoryPage;
import dev.latencylab.lab.page.RunPage;
import dev.latencylab.lab.page.Verdict;
import dev.latencylab.lab.summary.ResultsTable;
import dev.latencylab.lab.sweep.Sweep;

/**
 * Every published page, table and chart, rebuilt from the data it is drawn from (./lab rebuild-docs): the sweeps'
 * summaries, pages and charts, the side-by-side page, the split runs' pages, the comparisons' pages, the capacity
 * searches and their chart, the footprint experiment's page and charts, and the tables in README.md and docs/*.md between their markers. A marker names the
 * command that prints its table, e.g. {@code <!-- results-table: ./lab report docs/results --markdown -->} ...
 * {@code <!-- /results-table -->}. With check, the rebuild runs on a copy and says which files came out different: what the golden tests prove.
 */
public final class Published {

    /** The sweeps whose folders are published whole (summary.csv, runs.csv, charts/, index.html). */
    public static final List<String> SWEEPS = List.of("docs/results", "docs/results-db", "docs/results-http", "docs/results-http2", "docs/results-http2-mvc",
            "docs/results-db-maxconn",
            "docs/results-injectors-open/k1", "docs/results-injectors-open/k2", "docs/results-twice/quick-1",
            "docs/results-twice/quick-2", "docs/results-jvm/off", "docs/results-jvm/on",
            "docs/results-jvm/db", "docs/results-jdk/jdk21", "docs/results-jdk/jdk25", "docs/results-jdk/jdbc21", "docs/results-jdk/jdbc25",
            "docs/results-service/visits",
            "docs/results-service/visits-pool20", "docs/results-service/visits-threads5", "docs/results-service/digest",
            "docs/results-service/flow", "docs/results-live/off", "docs/results-live/on", "docs/results-history/before",
            "docs/results-history/after", "docs/results-tls/quick", "docs/results-tls/shared",
            "docs/results-tls/shared-s100", "docs/results-tls/default", "docs/results-tls/default-h1");
    /** Histories (./lab history FOLDER --out FOLDER): the page and its charts in the folder of the runs they follow. */
    static final List<String> HISTORIES = List.of("docs/results-history");
    /** A published comparison: its page, and its sides A and B. */
    record PublishedComparison(String page, String a, String b) {
    }

    /** The comparisons on pages of their own (./lab compare A B --out FILE.html). */
    static final List<PublishedComparison> COMPARISONS = List.of(
            new PublishedComparison("docs/results-twice/compare.html", "docs/results-twice/quick-1", "docs/results-twice/quick-2"),
            new PublishedComparison("docs/results-jvm/compare.html", "docs/results-jvm/off", "docs/results-jvm/on"),
            new PublishedComparison("docs/results-jdk/compare.html", "docs/results-jdk/jdk21", "docs/results-jdk/jdk25"),
            new PublishedComparison("docs/results-jdk/compare-jdbc.html", "docs/results-jdk/jdbc21", "docs/results-jdk/jdbc25"),
            new PublishedComparison("docs/results-service/compare.html", "docs/results-service/visits", "docs/results-service/visits-pool20"),
            new PublishedComparison("docs/results-live/compare.html", "docs/results-live/off", "docs/results-live/on"),
            new PublishedComparison("docs/capacity-repeats/t200-t400.html", "docs/capacity-repeats/mvc-t200-l100", "docs/capacity-repeats/mvc-t400-l100"),
            new PublishedComparison("docs/capacity-repeats/t200-twice.html", "docs/capacity-repeats/mvc-t200-l100",
                    "docs/capacity-repeats/mvc-t200-l100-again"),
            new PublishedComparison("docs/capacity-repeats/virtual-webflux.html", "docs/capacity-repeats/mvc-virtual-l100",
                    "docs/capacity-repeats/webflux-l100"));
    /** Sweeps on one page: the page's folder, then the sweeps. */
    static final List<String> SIDE_BY_SIDE = List.of("docs/results-injectors-open/side-by-side", "docs/results-injectors-open/k1",
            "docs/results-injectors-open/k2");
    /** The folder of the published split runs: each holds result.json, its page and chart. */
    static final String RUNS = "docs/results-injectors";
    /** The capacity searches: each a folder, and their chart beside them. */
    static final String CAPACITY = "docs/capacity";
    static final String CAPACITY_SEARCHES = "*-l100";
    /** Repeated capacity searches (./lab capacity --repeats), compared above: each search's data, without a chart each. */
    static final String CAPACITY_REPEATS = "docs/capacity-repeats";
    static final String REPEATED_SEARCHES = "*-r*";
    /** Capacity searches of the example service (docs/your-service.md): each search's data and its own chart. */
    static final List<String> SERVICE_SEARCHES = List.of("docs/results-service/capacity-visits", "docs/results-service/capacity-threads5");
    /**
     * The published footprint experiments (footprint.json, measurements.csv, each page and its charts): the one the docs
     * give, an earlier run of the same command that shows how its figures repeat, and the example service's idle
     * connections (docs/your-service.md).
     */
    static final List<String> FOOTPRINTS = List.of("docs/footprint", "docs/footprint/earlier", "docs/results-service/footprint");

    /** A published sweep read, or why it could not be (null: it was). */
    private record Read(SweepPage.Read sweep, RuntimeException failed) {

        static Read of(SweepFolder folder) {
            try {
                return new Read(SweepPage.read(folder), null);
            }
            catch (RuntimeException e) {
                return new Read(null, e);
            }
        }
    }

    /** What the task threw, or null: so that one sweep's failure waits for every other's task to end. */
    private static RuntimeException attempt(Runnable task) {
        try {
            task.run();
            return null;
        }
        catch (RuntimeException e) {
            return e;
        }
    }

    private static void throwFirst(Stream<RuntimeException> failures) {
        failures.filter(java.util.Objects::nonNull).findFirst().ifPresent(e -> {
            throw e;
        });
    }

    private static final Pattern MARKER = Pattern.compile("<!-- ([a-z0-9-]+): (\\./lab [^\\n]+?) -->\\n(.*?)<!-- /\\1 -->", Pattern.DOTALL);
    /** What a marker's opening looks like: one that MARKER does not read is refused, never left as it was. */
    private static final Pattern OPENING = Pattern.compile("<!-- (\\S+): \\./lab [^\\n]*-->");
    private static final Pattern SWEEP_TABLE = Pattern.compile("\\./lab report (\\S+) --markdown");
    /** A sweep's verdict, or a footprint experiment's: which, its folder says. */
    private static final Pattern SWEEP_VERDICT = Pattern.compile("\\./lab report (\\S+) --verdict");
    private static final Pattern COMPARE_VERDICT = Pattern.compile("\\./lab compare (\\S+) (\\S+) --verdict");
    private static final Pattern HISTORY = Pattern.compile("\\./lab history (\\S+)");
    /** A command's options: the marker options-COMMAND, filled from the same declarations its help prints. */
    private static final Pattern OPTIONS = Pattern.compile("\\./lab ([a-z-]+) --help");
    /** A reference table: the command whose help lists the same, and the table. */
    private record ReferenceTable(String command, java.util.function.Supplier<String> table) {
    }

    /** The reference tables by marker name. */
    private static final java.util.Map<String, ReferenceTable> REFERENCE = java.util.Map.of(
            "targets-table", new ReferenceTable("./lab run --help", Reference::targetsMarkdown),
            "properties-table", new ReferenceTable("./lab run --help", Reference::propertiesMarkdown),
            "flags-table", new ReferenceTable("./lab report --help", Reference::flagsMarkdown),
            "exit-codes", new ReferenceTable("./lab --help", Reference::exitCodesMarkdown));
    private static final Pattern CAPACITY_TABLE = Pattern.compile("\\./lab report (\\S+)/(\\*-l100|\\*-r\\*)");
    private static final Pattern CAPACITY_ONE = Pattern.compile("\\./lab report (\\S+)");

    private Published() {
    }

    /**
     * Rebuilds every published file in repo, in place; returns the files it wrote.
     *
     * @param options a command's options as a Markdown table (the command line layer's, see OptionsReference), for
     *                the markers of ./lab COMMAND --help
     */
    public static List<Path> rebuild(Path repo, java.util.function.UnaryOperator<String> options) {
        // every sweep read and checked before any is drawn: one that does not add up is refused in a second, not after
        // every other's charts, and nothing is written. Each read, then each drawn, apart from every other: one on each
        // core. A failure is thrown once every read has ended (rebuild-docs --check deletes the copy they read).
        List<Read> read = SWEEPS.parallelStream().map(sweep -> Read.of(new SweepFolder(repo.resolve(sweep)))).toList();
        throwFirst(read.stream().map(Read::failed));
        throwFirst(read.parallelStream().map(r -> attempt(r.sweep()::write)).toList().stream());
        List<Path> written = new ArrayList<>();
        for (String published : SWEEPS) {
            SweepFolder folder = new SweepFolder(repo.resolve(published));
            written.addAll(List.of(folder.summaryCsv(), folder.runsCsv(), folder.page()));
            written.addAll(files(folder.charts()));
        }
        SweepFolder side = new SweepFolder(repo.resolve(SIDE_BY_SIDE.get(0)));
        SweepPage.write(SIDE_BY_SIDE.subList(1, SIDE_BY_SIDE.size()).stream().map(s -> new SweepFolder(repo.resolve(s))).toList(), side);
        written.add(side.page());
        written.addAll(files(side.charts()));
        for (Path run : folders(repo.resolve(RUNS), "*")) {
            Path result = new RunFolder(run).resultFile();
            written.add(RunPage.write(result));
            written.add(RunPage.chartOf(result));
        }
        // the searches first: the comparisons of capacity searches read them, checked against their result files
        List<Path> searches = folders(repo.resolve(CAPACITY), CAPACITY_SEARCHES);
        List<Capacity.Search> records = searches.stream().map(CapacityReport::rebuild).toList();
        for (Path search : searches) {
            SearchFolder folder = new SearchFolder(search);
            written.addAll(List.of(folder.capacityFile(), folder.levelsCsv()));
            written.addAll(folder.charts());
        }
        CapacityReport.draw(records, repo.resolve(CAPACITY));
        written.addAll(new SearchFolder(repo.resolve(CAPACITY)).charts());
        for (Path search : folders(repo.resolve(CAPACITY_REPEATS), REPEATED_SEARCHES)) {
            Capacity.rebuild(search);
            written.addAll(List.of(new SearchFolder(search).capacityFile(), new SearchFolder(search).levelsCsv()));
        }
        for (String published : SERVICE_SEARCHES) {
            SearchFolder folder = new SearchFolder(repo.resolve(published));
            CapacityReport.rebuild(folder.dir());
            written.addAll(List.of(folder.capacityFile(), folder.levelsCsv()));
            written.addAll(folder.charts());
        }
        for (PublishedComparison c : COMPARISONS) {
            written.add(ComparePage.write(compare(repo, c.a(), c.b()), repo.resolve(c.page())));
        }
        for (String published : HISTORIES) {
            Path page = HistoryPage.write(history(repo, published), repo.resolve(published));
            written.add(page);
            written.addAll(files(page.getParent()).stream().filter(f -> f.getFileName().toString().endsWith(".png")).toList());
        }
        for (String published : FOOTPRINTS) {
            FootprintFolder footprint = new FootprintFolder(repo.resolve(published));
            Footprint experiment = Footprint.read(footprint.dir());
            experiment.writeTable(footprint);
            written.add(footprint.measurementsCsv());
            written.add(FootprintPage.write(experiment, footprint));
            written.addAll(files(footprint.charts()));
        }
        for (Path text : texts(repo)) {
            OutputFile.text(text, tables(repo, read(text), options));
            written.add(text);
        }
        return written;
    }

    /**
     * Rebuilds the published files from their data alone, in a copy of repo's docs/ and README.md that lacks every
     * file the rebuild makes, and compares them with repo's, byte for byte.
     *
     * @return the files that came out different, or that repo holds and the rebuild no longer makes (relative to repo);
     *         empty when all are the same
     */
    public static List<String> check(Path repo, Path scratch, java.util.function.UnaryOperator<String> options) {
        List<String> derived = new ArrayList<>();
        try (Stream<Path> all = Files.walk(repo.resolve("docs"))) {
            for (Path from : all.toList()) {
                String relative = repo.relativize(from).toString();
                Path to = scratch.resolve(relative);
                if (Files.isDirectory(from)) {
                    Files.createDirectories(to);
                }
                else if (derived(relative)) {
                    derived.add(relative);
                }
                else {
                    Files.copy(from, to);
                }
            }
            Files.copy(repo.resolve("README.md"), scratch.resolve("README.md"));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> differ = new ArrayList<>();
        TreeSet<String> made = new TreeSet<>();
        for (Path again : rebuild(scratch, options)) {
            String relative = scratch.relativize(again).toString();
            made.add(relative);
            try {
                Path published = repo.resolve(relative);
                if (!Files.isRegularFile(published) || Files.mismatch(published, again) != -1) {
                    differ.add(relative);
                }
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        derived.stream().filter(f -> !made.contains(f)).map(f -> f + " (no longer made)").forEach(differ::add);
        return differ.stream().sorted().distinct().toList();
    }

    /**
     * Whether a published file (relative to the repository) is one the rebuild makes, not data it reads: named by the
     * classes that own those names (SweepFolder, RunPage, Capacity).
     */
    public static boolean derived(String relative) {
        Path p = Path.of(relative);
        Path parent = p.getParent();
        boolean ofSweep = Stream.concat(SWEEPS.stream(), Stream.of(SIDE_BY_SIDE.get(0))).map(s -> new SweepFolder(Path.of(s)))
                .anyMatch(sweep -> List.of(sweep.summaryCsv(), sweep.runsCsv(), sweep.page()).contains(p) || parent.equals(sweep.charts()));
        Path result = new RunFolder(parent).resultFile();
        boolean ofRun = Path.of(RUNS).equals(parent.getParent()) && List.of(RunPage.of(result), RunPage.chartOf(result)).contains(p);
        boolean ofSearch = Path.of(CAPACITY).equals(parent.getParent())
                && parent.getFileName().toString().matches(CAPACITY_SEARCHES.replace("*", ".*"));
        SearchFolder search = new SearchFolder(parent);
        boolean ofCapacity = (parent.equals(Path.of(CAPACITY)) || ofSearch) && (search.charts().contains(p) || p.equals(search.levelsCsv()));
        boolean ofRepeat = Path.of(CAPACITY_REPEATS).equals(parent.getParent()) && p.equals(search.levelsCsv());
        boolean ofService = SERVICE_SEARCHES.stream().map(Path::of).anyMatch(parent::equals)
                && (search.charts().contains(p) || p.equals(search.levelsCsv()));
        boolean ofComparison = COMPARISONS.stream().anyMatch(c -> Path.of(c.page()).equals(p));
        boolean ofHistory = HISTORIES.stream().map(Path::of).anyMatch(parent::equals)
                && (p.getFileName().toString().equals("index.html") || p.getFileName().toString().endsWith(".png"));
        boolean ofFootprint = FOOTPRINTS.stream().map(f -> new FootprintFolder(Path.of(f)))
                .anyMatch(footprint -> p.equals(footprint.page()) || parent.equals(footprint.charts()));
        return ofSweep || ofRun || ofCapacity || ofRepeat || ofService || ofComparison || ofHistory || ofFootprint;
    }

    /** The published capacity searches as committed (capacity.json each). */
    public static List<Capacity.Search> capacitySearches(Path repo) {
        return folders(repo.resolve(CAPACITY), CAPACITY_SEARCHES).stream().map(Capacity::read).toList();
    }

    /** The text between each marker of a Markdown file, printed again by the command the marker names. */
    static String tables(Path repo, String markdown, java.util.function.UnaryOperator<String> options) {
        refuseUnread(markdown);
        Matcher m = MARKER.matcher(markdown);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String command = m.group(2);
            Matcher sweep = SWEEP_TABLE.matcher(command);
            Matcher capacity = CAPACITY_TABLE.matcher(command);
            Matcher oneSearch = CAPACITY_ONE.matcher(command);
            Matcher verdict = SWEEP_VERDICT.matcher(command);
            Matcher compared = COMPARE_VERDICT.matcher(command);
            Matcher help = OPTIONS.matcher(command);
            Matcher history = HISTORY.matcher(command);
            String table;
            ReferenceTable reference = REFERENCE.get(m.group(1));
            if (reference != null) {
                if (!reference.command().equals(command)) {
                    throw new IllegalStateException("marker %s: its table is what %s lists, not %s".formatted(m.group(1), reference.command(), command));
                }
                table = reference.table().get();
            }
            else if (help.matches() && m.group(1).equals("options-" + help.group(1))) {
                table = options.apply(help.group(1));
            }
            else if (sweep.matches()) {
                table = ResultsTable.markdown(Sweep.points(new SweepFolder(repo.resolve(sweep.group(1)))));
            }
            else if (verdict.matches()) {
                Path dir = repo.resolve(verdict.group(1));
                table = Files.isRegularFile(new FootprintFolder(dir).footprintFile()) ? FootprintPage.markdown(Footprint.read(dir))
                        : Verdict.markdown(new SweepFolder(dir));
            }
            else if (compared.matches()) {
                table = ComparePage.markdown(compare(repo, compared.group(1), compared.group(2)));
            }
            else if (history.matches()) {
                table = "```\n" + String.join("\n", history(repo, history.group(1)).stream().flatMap(h -> HistoryLines.of(h).stream()).toList())
                        + "\n```\n";
            }
            else if (capacity.matches()) {
                table = CapacityReport.markdown(folders(repo.resolve(capacity.group(1)), capacity.group(2)).stream().map(Capacity::verified).toList());
            }
            else if (oneSearch.matches()) {
                table = CapacityReport.markdown(List.of(Capacity.verified(repo.resolve(oneSearch.group(1)))));
            }
            else {
                throw new IllegalStateException("marker %s names a command no table is made by: %s".formatted(m.group(1), command));
            }
            m.appendReplacement(out, Matcher.quoteReplacement("<!-- %s: %s -->\n%s<!-- /%s -->".formatted(m.group(1), command, table, m.group(1))));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** Every marker's opening is one MARKER reads: else its table would be left as it was, unchecked. */
    private static void refuseUnread(String markdown) {
        Matcher opening = OPENING.matcher(markdown);
        while (opening.find()) {
            if (!MARKER.matcher(markdown).region(opening.start(), markdown.length()).lookingAt()) {
                throw new IllegalStateException(("marker %s: not one the rebuild reads; name it in lower-case letters, digits and hyphens, "
                        + "its command on the same line, and close it with <!-- /%s -->").formatted(opening.group(1), opening.group(1)));
            }
        }
    }

    /** The histories of the runs under a folder given relative to repo, as ./lab history finds them by default. */
    private static List<History> history(Path repo, String folder) {
        return History.of(HistoryRuns.under(List.of(repo.resolve(folder))).runs(), ChangePoints.LAB);
    }

    /** B against A, both given relative to repo. */
    private static Comparison compare(Path repo, String a, String b) {
        return Comparison.of(Side.read(repo.resolve(a)), Side.read(repo.resolve(b)));
    }

    /** README.md and the Markdown files under docs/: where tables may sit between markers. */
    private static List<Path> texts(Path repo) {
        List<Path> texts = new ArrayList<>(List.of(repo.resolve("README.md")));
        try (Stream<Path> docs = Files.walk(repo.resolve("docs"))) {
            docs.filter(f -> f.toString().endsWith(".md")).filter(f -> OPENING.matcher(read(f)).find()).sorted().forEach(texts::add);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return texts;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> folders(Path parent, String glob) {
        try (var dirs = Files.newDirectoryStream(parent, glob)) {
            List<Path> found = new ArrayList<>();
            dirs.forEach(d -> {
                if (Files.isDirectory(d)) {
                    found.add(d);
                }
            });
            found.sort(null);
            return found;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> files(Path dir) {
        try (Stream<Path> all = Files.list(dir)) {
            return all.filter(Files::isRegularFile).sorted().toList();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
