package dev.latencylab.lab.layout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Comparator;

/** Folders the lab writes in: made (or refused with the reason), deleted whole; an I/O failure said in one line. */
public final class Folders {

    private Folders() {
    }

    /** The folder, made if needed; one that cannot be is bad input, known before anything starts. */
    public static Path writableFolder(String option, Path dir) {
        try {
            Files.createDirectories(dir);
            if (!Files.isWritable(dir)) {
                throw new IllegalArgumentException("%s %s: cannot write there (%s)".formatted(option, dir,
                        Files.getFileStore(dir).isReadOnly() ? "a read-only file system" : "permission denied"));
            }
            return dir;
        }
        catch (IOException e) {
            throw new IllegalArgumentException("%s %s: cannot make that folder: %s".formatted(option, dir, why(e)));
        }
    }

    /** The files that make a folder the data of a run, a sweep, a capacity search or a footprint experiment. */
    private static final java.util.List<String> DATA = java.util.List.of("sweep.json", SweepFolder.POINTS, "result.json",
            SearchFolder.CAPACITY_FILE, FootprintFolder.FOOTPRINT_FILE);

    /**
     * A folder for a page made of several inputs (report's side by side, capacity's chart of several searches): made if
     * needed, and never one that holds data of its own, whose page and charts are that data's and would be replaced.
     */
    public static Path pageFolder(String option, Path dir) {
        for (String data : DATA) {
            if (Files.exists(dir.resolve(data))) {
                throw new IllegalArgumentException("%s %s holds %s: it is a folder of data whose pages are its own; give a folder of its own"
                        .formatted(option, dir, data));
            }
        }
        // nor a folder inside such data (a sweep's points/): a page there would be read as one of its parts
        for (Path up = dir.toAbsolutePath().normalize().getParent(); up != null; up = up.getParent()) {
            for (String data : DATA) {
                if (!data.equals(SweepFolder.POINTS) && Files.isRegularFile(up.resolve(data))) {
                    throw new IllegalArgumentException("%s %s is inside %s, which holds %s: a folder of data; give a folder outside it"
                            .formatted(option, dir, up, data));
                }
            }
        }
        return writableFolder(option, dir);
    }

    /** An I/O failure under way as one line: what was being done (when its message says), the path and the reason. */
    public static String why(UncheckedIOException e) {
        // UncheckedIOException(cause) takes the cause's toString as its message: no context of its own then
        boolean context = e.getMessage() != null && !e.getMessage().equals(e.getCause().toString());
        return (context ? e.getMessage() + ": " : "") + why(e.getCause());
    }

    /** An I/O failure as one line: the path and the reason, without the exception's class. */
    public static String why(IOException e) {
        String path = e instanceof FileSystemException f && f.getFile() != null ? f.getFile() : null;
        String reason = e instanceof AccessDeniedException ? "permission denied"
                : e instanceof NoSuchFileException ? "no such file or folder"
                : e instanceof NotDirectoryException ? "not a folder"
                : e instanceof FileAlreadyExistsException ? "exists (is a file where a folder is needed, or was written meanwhile)"
                : e instanceof FileSystemException f && f.getReason() != null ? f.getReason()
                : e.getMessage();
        return path == null ? reason : path + ": " + reason;
    }

    /** A folder and everything in it; nothing when it is not there. */
    public static void deleteTree(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (var walk = Files.walk(path)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
