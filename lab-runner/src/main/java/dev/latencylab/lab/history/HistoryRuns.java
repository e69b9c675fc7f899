package dev.latencylab.lab.history;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import dev.latencylab.lab.compare.Side;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.load.result.ResultFile;

/**
 * The finished runs under the paths given to ./lab history: a run's folder or result file, a sweep (each of its points'
 * runs), or a folder of either (./lab run's results/runs). Each run is read as ./lab compare reads it; one that failed
 * or whose result reports a problem is left out and said.
 *
 * @param runs    the runs found, each with its folder
 * @param leftOut the runs left out, each its folder and why
 */
public record HistoryRuns(List<History.Entry> runs, List<String> leftOut) {

    public static HistoryRuns under(List<Path> given) {
        List<Path> folders = new ArrayList<>();
        for (Path path : given) {
            Path p = path.toAbsolutePath().normalize();
            if (!Files.exists(p)) {
                throw new IllegalArgumentException(path + ": no such file or folder: give run folders, sweeps or a folder of them");
            }
            folders.addAll(runFolders(p));
        }
        if (folders.isEmpty()) {
            throw new IllegalArgumentException("%s: no run found (a folder with result.json, a sweep, or a folder of them)".formatted(given));
        }
        List<History.Entry> runs = new ArrayList<>();
        List<String> leftOut = new ArrayList<>();
        for (Path folder : folders.stream().distinct().toList()) {
            Side side;
            try {
                side = Side.read(folder);
            }
            catch (IllegalArgumentException e) {
                leftOut.add(folder.getFileName() + " (" + e.getMessage().replace(folder + ": ", "") + ")");
                continue;
            }
            for (List<Side.Run> point : side.points().values()) {
                for (Side.Run r : point) {
                    RunStart.checked(folder, r); // refused, not left out: an edited run would vanish from its series unseen
                    runs.add(new History.Entry(folder, r.result().start(), r.result().label(), r.machine(), r));
                }
            }
            leftOut.addAll(side.failed());
        }
        return new HistoryRuns(runs, leftOut);
    }

    /** The run folders a path names: itself (a run or its result file), a sweep's points, or those of each folder in it. */
    private static List<Path> runFolders(Path p) {
        if (Files.isRegularFile(p)) {
            return List.of(p.getParent());
        }
        if (Files.isRegularFile(p.resolve(ResultFile.NAME))) {
            return List.of(p);
        }
        SweepFolder sweep = new SweepFolder(p);
        if (Files.isDirectory(sweep.points())) {
            return listed(sweep.points()).stream().filter(f -> Files.isRegularFile(f.resolve(ResultFile.NAME))).toList();
        }
        List<Path> found = new ArrayList<>();
        for (Path child : listed(p)) {
            if (Files.isRegularFile(child.resolve(ResultFile.NAME)) || Files.isDirectory(new SweepFolder(child).points())) {
                found.addAll(runFolders(child));
            }
        }
        return found;
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
