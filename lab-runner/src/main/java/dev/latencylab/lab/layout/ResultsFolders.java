package dev.latencylab.lab.layout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** Where ./lab keeps what it measured (under the repository unless --results says otherwise), and a new folder's name. */
public final class ResultsFolders {

    private ResultsFolders() {
    }

    /** The sweeps' folder, under the repository unless --results says otherwise; */
    public static final String RESULTS = "results";
    /** ./lab run's folders; */
    public static final String RUNS = RESULTS + "/runs";
    /** ./lab capacity's searches. */
    public static final String SEARCHES = RESULTS + "/capacity";
    /** ./lab footprint's experiments, in a results folder; */
    public static final String FOOTPRINT = "footprint";
    /** and in the repository's. */
    public static final String FOOTPRINTS = RESULTS + "/" + FOOTPRINT;

    /** The k-th repeat of a point or a search (1 first): its folder's name, e.g. webflux-l100-u5000-r2. */
    public static String repeat(String name, int k) {
        return name + "-r" + k;
    }

    /** The repeats of name beside it in parent (its name-r&lt;k&gt; folders), in k's order; none when parent is not a folder. */
    public static List<Path> repeats(Path parent, String name) {
        if (!Files.isDirectory(parent)) {
            return List.of();
        }
        Pattern repeat = Pattern.compile(Pattern.quote(name) + "-r([0-9]{1,6})");
        try (Stream<Path> files = Files.list(parent)) {
            return files.filter(Files::isDirectory).map(p -> repeat.matcher(p.getFileName().toString())).filter(Matcher::matches)
                    .sorted(Comparator.comparingInt(m -> Integer.parseInt(m.group(1)))).map(m -> parent.resolve(m.group())).toList();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A folder of its own for one run: a second run started in the same second gets another. */
    public static Path newFolder(Path parent, String name) {
        Folders.writableFolder("the results folder", parent);
        try {
            for (int i = 1;; i++) {
                Path dir = parent.resolve(i == 1 ? name : name + "-" + i);
                try {
                    return Files.createDirectory(dir);
                }
                catch (FileAlreadyExistsException taken) {
                    // another run's: try the next name
                }
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The folder the user named, made for this command alone: one that exists is refused (never a -2 beside it, which
     * two commands given one name would each take without a word).
     */
    public static Path namedFolder(String option, Path parent, String name, String hint) {
        Folders.writableFolder("the results folder", parent);
        try {
            return Files.createDirectory(parent.resolve(name));
        }
        catch (FileAlreadyExistsException taken) {
            throw new IllegalArgumentException("%s %s: %s exists already; %s".formatted(option, name, parent.resolve(name), hint));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The folder that holds a command's folders: --results as given (from the current folder), else inRepo under repo. */
    public static Path holder(Path given, Path repo, String inRepo) {
        return given != null ? given.toAbsolutePath() : repo.resolve(inRepo);
    }

    /** Folders under parent that a killed ./lab left locked: said once, before the command's own work. */
    public static void sayLeftBehind(Path parent, java.io.PrintWriter err) {
        FolderLock.leftBehind(parent).forEach(note -> err.println("latency-lab: " + note));
    }

    public static String stamp() {
        return LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    }
}
