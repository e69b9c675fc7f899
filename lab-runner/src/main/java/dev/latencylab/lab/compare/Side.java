package dev.latencylab.lab.compare;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.lab.capacity.Capacity;
import dev.latencylab.lab.layout.FolderLock;
import dev.latencylab.lab.layout.ResultsFolders;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.layout.SearchFolder;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.machine.Machine;
import dev.latencylab.lab.run.PointRecord;
import dev.latencylab.lab.run.Status;
import dev.latencylab.lab.summary.Summary;
import dev.latencylab.lab.summary.Summary.RunRow;

/**
 * One side of a comparison, as given on the command line: its finished runs grouped by point (the repeats of one
 * point together), or its finished capacity searches (the repeats of one search), and the runs or searches that failed,
 * which are said and left out.
 *
 * @param given    the path as given
 * @param points   point id to its finished runs, in the order found (none for a side of searches)
 * @param searches the finished capacity searches, in their repeats' order (none for a side of runs)
 * @param failed   the runs or searches left out, each its folder and why (failed, problems reported, interrupted)
 */
public record Side(Path given, Map<String, List<Run>> points, List<Searched> searches, List<String> failed) {

    /** A finished run: its row (as the summary has it), its result file, and its point.json (null where it has none). */
    public record Run(RunRow row, Result result, PointRecord record) {

        /** The machine it ran on, as its point.json recorded it; null if unrecorded. */
        public Machine.Fingerprint machine() {
            return record == null || record.start() == null ? null : record.start().machine();
        }
    }

    /** A finished capacity search: its folder's name and its capacity.json. */
    public record Searched(String folder, Capacity.Search search) {
    }

    /**
     * Where this side is one run of a point that has more (a sweep point's folder, e.g. points/mvc-t200-l100-u5000-r1
     * beside -r2 and -r3): that point's folder without -r&lt;n&gt;, which names all its runs, and how many it has; else
     * empty.
     */
    public java.util.Optional<java.util.Map.Entry<Path, Long>> wholePoint() {
        java.util.regex.Matcher run = java.util.regex.Pattern.compile("(.+)-r[0-9]+")
                .matcher(given.getFileName() == null ? "" : given.getFileName().toString());
        Path parent = given.toAbsolutePath().normalize().getParent();
        if (ofSearches() || points.size() != 1 || points.values().iterator().next().size() != 1 || !run.matches() || parent == null) {
            return java.util.Optional.empty();
        }
        try (java.util.stream.Stream<Path> siblings = Files.list(parent)) {
            long runs = siblings
                    .filter(p -> Files.isDirectory(p) && p.getFileName().toString().matches(java.util.regex.Pattern.quote(run.group(1)) + "-r[0-9]+"))
                    .count();
            return runs > 1 ? java.util.Optional.of(java.util.Map.entry(given.resolveSibling(run.group(1)), runs)) : java.util.Optional.empty();
        }
        catch (java.io.IOException e) {
            return java.util.Optional.empty();
        }
    }

    /** A side of capacity searches, not of runs. */
    public boolean ofSearches() {
        return !searches.isEmpty();
    }

    /**
     * What a path names: a sweep (its folder: sweep.json and points/), a point of a sweep (its folder without -r&lt;n&gt;:
     * every repeat), a run (./lab run's folder, a sweep point's folder, or a result file), a capacity search (its
     * folder), or the repeats of one (./lab capacity --repeats: their name without -r&lt;n&gt;).
     */
    public static Side read(Path given) {
        Path path = given.toAbsolutePath().normalize();
        SweepFolder sweep = new SweepFolder(path);
        if (Files.isRegularFile(new SearchFolder(path).capacityFile())) {
            return ofSearches(given, List.of(path));
        }
        if (Files.isDirectory(path) && Files.isDirectory(sweep.points()) && !Files.isRegularFile(path.resolve(ResultFile.NAME))) {
            return of(given, listed(sweep.points()));
        }
        if (Files.isRegularFile(path) || Files.isRegularFile(path.resolve(ResultFile.NAME))) {
            return of(given, List.of(Files.isRegularFile(path) ? path : path.resolve(ResultFile.NAME)));
        }
        Path parent = path.getParent();
        List<Path> repeats = parent == null ? List.of() : ResultsFolders.repeats(parent, path.getFileName().toString());
        if (!repeats.isEmpty()) {
            return repeats.stream().allMatch(r -> Files.isRegularFile(new SearchFolder(r).capacityFile())) ? ofSearches(given, repeats)
                    : of(given, repeats);
        }
        throw new IllegalArgumentException(("%s: neither a sweep (a folder with points/), a point of one (its folder without -r<n>, "
                + "e.g. results/my-sweep/points/webflux-l100-u5000), a run's folder, a result file, a capacity search's folder nor "
                + "its repeats' name without -r<n>").formatted(given));
    }

    /** Searches stopped before their end, or with a ladder that failed, say no capacity: they are left out, and said. */
    private static Side ofSearches(Path given, List<Path> folders) {
        List<Searched> found = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        for (Path dir : folders) {
            Capacity.Search search = Capacity.verified(dir);
            String name = dir.getFileName().toString();
            if (search.wasInterrupted()) {
                failed.add(name + " (interrupted before its end)");
            }
            else if (search.rounds().stream().anyMatch(r -> r.status() != Status.DONE)) {
                failed.add(name + " (a ladder failed)");
            }
            else {
                found.add(new Searched(name, search));
            }
        }
        if (found.isEmpty()) {
            throw new IllegalArgumentException("%s: no finished capacity search to compare (%s)".formatted(given,
                    String.join(", ", failed)));
        }
        return new Side(given, Map.of(), found, failed);
    }

    private static Side of(Path given, List<Path> runs) {
        List<Run> found = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        for (Path p : runs) {
            Path file = Files.isRegularFile(p) ? p : p.resolve(ResultFile.NAME);
            RunFolder folder = new RunFolder(file.getParent());
            unlocked(folder.dir());
            PointRecord record = Files.isRegularFile(folder.pointRecord()) && folder.resultFile().equals(file) ? PointRecord.read(folder) : null;
            if (record != null && !record.outcome().done() || !Files.isRegularFile(file)) {
                failed.add(folder.dir().getFileName() + " (failed)");
                continue;
            }
            Result result = ResultFile.read(file);
            if (!result.problems().isEmpty()) {
                // the run itself says its numbers are not the target's answer (it exited, refused, a dependency died)
                failed.add("%s (its result reports: %s)".formatted(folder.dir().getFileName(), String.join("; ", result.problems())));
                continue;
            }
            found.add(new Run(Summary.row(file), result, record));
        }
        // in a sweep's order: latency, target, users, rate, run
        Map<String, List<Run>> points = new LinkedHashMap<>();
        found.stream().sorted(java.util.Comparator.comparing(r -> r.row().identity(), RunRow.Identity.ORDER))
                .forEach(r -> points.computeIfAbsent(r.row().pointId(), id -> new ArrayList<>()).add(r));
        if (points.isEmpty()) {
            throw new IllegalArgumentException("%s: no finished run to compare%s".formatted(given,
                    failed.isEmpty() ? "" : " (failed: " + String.join(", ", failed) + ")"));
        }
        return new Side(given, points, List.of(), failed);
    }

    /** A run's folder, and the sweep it is a point of: neither may be under another command's lock, live or left. */
    private static void unlocked(Path runDir) {
        FolderLock.refuseIfLocked(runDir);
        Path parent = runDir.toAbsolutePath().normalize().getParent();
        if (parent != null && parent.getFileName() != null && parent.getFileName().toString().equals(SweepFolder.POINTS) && parent.getParent() != null) {
            FolderLock.refuseIfLocked(parent.getParent());
        }
    }

    private static List<Path> listed(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(Files::isDirectory).sorted().toList();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
