package dev.latencylab.lab.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Which process holds a local TCP port, for the message that says the port is taken: Linux's socket tables
 * (/proc/net/tcp, tcp6) give the port's sockets, each process's open files the one that has them.
 */
final class PortHolder {

    private static final int COMMAND_SHOWN = 120;

    private PortHolder() {
    }

    /** "pid N: COMMAND" of a process with a socket on the port, listening ones first; empty where /proc does not say. */
    static Optional<String> of(int port) {
        Set<String> inodes = inodes(port);
        if (inodes.isEmpty()) {
            return Optional.empty();
        }
        try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
            return processes.filter(p -> p.getFileName().toString().matches("[0-9]+")).filter(p -> holds(p, inodes)).findFirst()
                    .map(p -> Long.parseLong(p.getFileName().toString()))
                    .map(pid -> "pid %d: %s".formatted(pid, command(pid)));
        }
        catch (IOException | UncheckedIOException e) {
            return Optional.empty();
        }
    }

    /** The inodes of the sockets bound to the port (LISTEN, state 0A, first); a socket no process owns has inode 0. */
    private static Set<String> inodes(int port) {
        String local = ":%04X".formatted(port);
        Set<String> listening = new LinkedHashSet<>();
        Set<String> others = new LinkedHashSet<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            try {
                for (String line : Files.readAllLines(Path.of(table))) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length > 9 && f[1].endsWith(local) && !f[9].equals("0")) {
                        (f[3].equals("0A") ? listening : others).add(f[9]);
                    }
                }
            }
            catch (IOException | RuntimeException e) {
                // no such table here (no IPv6, another OS): the other one may say
            }
        }
        listening.addAll(others);
        return listening;
    }

    private static boolean holds(Path process, Set<String> inodes) {
        try (Stream<Path> fds = Files.list(process.resolve("fd"))) {
            return fds.anyMatch(fd -> {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    return target.startsWith("socket:[") && inodes.contains(target.substring("socket:[".length(), target.length() - 1));
                }
                catch (IOException e) {
                    return false; // closed meanwhile
                }
            });
        }
        catch (IOException | UncheckedIOException e) {
            return false; // gone, or another user's
        }
    }

    private static String command(long pid) {
        String command = ProcessHandle.of(pid).flatMap(h -> h.info().commandLine()).orElse("?");
        return command.length() <= COMMAND_SHOWN ? command : command.substring(0, COMMAND_SHOWN) + "...";
    }
}
