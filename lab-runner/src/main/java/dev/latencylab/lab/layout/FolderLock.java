package dev.latencylab.lab.layout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One ./lab command at a time in a sweep's, search's or run's folder: a lock file created exclusively, holding the
 * owner's pid and start time, removed when the command ends (normally or by a signal). A second command finds it and
 * refuses, naming the holder. A lock whose process is gone (./lab was killed with SIGKILL, or the machine restarted)
 * is reported, and taken over only when the user says so: what that process left half-done is theirs to look at.
 */
public final class FolderLock implements AutoCloseable {

    public static final String NAME = ".lab.lock";

    /** Another command holds the folder, or held it and died: the command stops (exit 1). */
    public static final class FolderBusyException extends RuntimeException {
        FolderBusyException(String message) {
            super(message);
        }
    }

    private final Path file;
    private final String owner;

    private FolderLock(Path file, String owner) {
        this.file = file;
        this.owner = owner;
    }

    /**
     * @param takeOver take a lock whose process is gone (never one whose process runs)
     * @throws FolderBusyException when another command holds it, or held it and is gone (without takeOver)
     */
    public static FolderLock take(Path dir, String command, boolean takeOver) {
        Path file = dir.resolve(NAME);
        ProcessHandle me = ProcessHandle.current();
        String owner = me.pid() + "\n" + me.info().startInstant().map(Instant::toString).orElse("") + "\n" + command + "\n";
        try {
            Files.createDirectories(dir);
            for (int attempt = 0; attempt < 2; attempt++) {
                try {
                    create(file, owner);
                    FolderLock lock = new FolderLock(file, owner);
                    file.toFile().deleteOnExit(); // a signal: the JVM ends after the command's hook, this goes with it
                    return lock;
                }
                catch (FileAlreadyExistsException held) {
                    Holder h = Holder.read(file);
                    if (h == null) {
                        continue; // released just now
                    }
                    if (h.alive()) {
                        throw new FolderBusyException("%s is in use by another ./lab command (pid %d: %s): wait for it to end, "
                                .formatted(dir, h.pid(), h.command()) + "or give another --name");
                    }
                    if (!takeOver) {
                        throw new FolderBusyException(("%s was left locked by ./lab pid %d (%s), which is no longer running (killed?): "
                                + "what it was writing may be incomplete; look, then run again with --take-over to use the folder")
                                .formatted(dir, h.pid(), h.command()));
                    }
                    Files.deleteIfExists(file);
                }
            }
            throw new FolderBusyException(dir + " is being taken by another ./lab command at this moment; try again");
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot lock " + dir, e);
        }
    }

    /**
     * What a ./lab that was killed (SIGKILL, a lost machine) left under parent: a folder still locked by a process that
     * is gone, one line each for the next command to say. Its targets and PostgreSQL stopped themselves (see
     * TargetProcess and EmbeddedDatabase); what it was writing there may be incomplete.
     */
    static List<String> leftBehind(Path parent) {
        if (!Files.isDirectory(parent)) {
            return List.of();
        }
        try (java.util.stream.Stream<Path> dirs = Files.list(parent)) {
            List<String> notes = new java.util.ArrayList<>();
            for (Path lock : dirs.map(d -> d.resolve(NAME)).filter(Files::isRegularFile).sorted().toList()) {
                Holder h = Holder.read(lock);
                if (h != null && !h.alive()) {
                    notes.add("note: %s was left by ./lab pid %d (%s), which was killed while it ran there: its files may be incomplete"
                            .formatted(lock.getParent(), h.pid(), h.command()));
                }
            }
            return notes;
        }
        catch (IOException e) {
            return List.of(); // a note, not the command's work: never a reason to stop
        }
    }

    /**
     * The lock file, with its contents, or an exception if it exists: the owner is written to a file of this process's
     * first, then linked under the lock's name (atomic, and refused when the name exists), so that no reader ever
     * finds the lock empty and takes it for a dead owner's.
     */
    private static void create(Path file, String owner) throws IOException {
        Path mine = file.resolveSibling(NAME + "." + ProcessHandle.current().pid() + ".partial");
        Files.writeString(mine, owner);
        try {
            Files.createLink(file, mine);
        }
        finally {
            Files.deleteIfExists(mine);
        }
    }

    /**
     * A folder a command reads must not be one that another ./lab is writing, or left half-written when it was
     * killed: refused, naming the holder, before anything is read from it (exit 1, as for a folder in use).
     */
    public static void refuseIfLocked(Path dir) {
        Path file = dir.resolve(NAME);
        if (!Files.isRegularFile(file)) {
            return;
        }
        Holder h;
        try {
            h = Holder.read(file);
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        if (h == null) {
            return; // released just now
        }
        if (h.alive()) {
            throw new FolderBusyException("%s is being written by ./lab pid %d (%s): read it once that command has ended"
                    .formatted(dir, h.pid(), h.command()));
        }
        throw new FolderBusyException(("%s was left locked by ./lab pid %d (%s), which was killed while it ran there: its files may be "
                + "incomplete; finish it (a sweep: run it again with its --name and --take-over) or, having looked, remove %s")
                .formatted(dir, h.pid(), h.command(), file));
    }

    /** Removes the lock if it is still this command's. */
    @Override
    public void close() {
        try {
            if (Files.readString(file).equals(owner)) {
                Files.deleteIfExists(file);
            }
        }
        catch (NoSuchFileException gone) {
            // removed already
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Who holds a lock file: alive only when that pid runs and started when the file says (a pid is reused). */
    record Holder(long pid, String started, String command) {

        static Holder read(Path file) throws IOException {
            List<String> lines;
            try {
                lines = Files.readAllLines(file);
            }
            catch (NoSuchFileException gone) {
                return null;
            }
            long pid = lines.isEmpty() ? -1 : parse(lines.get(0));
            return new Holder(pid, lines.size() > 1 ? lines.get(1) : "", lines.size() > 2 ? lines.get(2) : "?");
        }

        boolean alive() {
            Optional<ProcessHandle> p = pid > 0 ? ProcessHandle.of(pid) : Optional.empty();
            return p.isPresent() && p.get().isAlive()
                    && (started.isEmpty() || p.get().info().startInstant().map(Instant::toString).map(started::equals).orElse(true));
        }

        private static long parse(String line) {
            try {
                return Long.parseLong(line.strip());
            }
            catch (NumberFormatException e) {
                return -1;
            }
        }
    }
}
