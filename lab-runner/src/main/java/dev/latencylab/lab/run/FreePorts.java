package dev.latencylab.lab.run;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Free loopback ports for a service the lab starts (a downstream, a footprint's subject; the tests' targets), each with
 * its actuator port (+1000) free too. They are taken below the range the kernel gives outgoing connections their local
 * ports from: a port found free here is bound by the service seconds later, and in between any connection made on this
 * machine (a Gatling user's, a health check's) could otherwise be given it as its own port, and the service would not
 * start. In between, another lab process could find it free too (a service it starts binds its actuator port after
 * its own): each port handed out is reserved, by a lock on a file of its own that this JVM holds until it ends.
 */
public final class FreePorts {

    /** The lowest port handed out: above the well-known and the usual fixed ones (8080, 8091, 9090, ...). */
    static final int LOWEST = 10_000;
    /** Where Linux's outgoing ports begin when /proc does not say (its default range: 32768-60999). */
    static final int EPHEMERAL_DEFAULT = 32_768;
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    /** Where the kernel's range of outgoing ports begins, read once. */
    private static final int EPHEMERAL_START = readEphemeralStart();

    /** The next port to try: from a random place, so that two ./lab processes do not try the same ports in turn. */
    private static final AtomicInteger NEXT = new AtomicInteger(-1);

    /**
     * Where the reservations are: a file per port, locked by the JVM that handed it out, for as long as it runs. In the
     * machine's temporary folder, not java.io.tmpdir: ./lab gives each of its processes one of its own.
     */
    private static final Path RESERVATIONS = Path.of(java.util.Objects.requireNonNullElse(System.getenv("TMPDIR"), "/tmp"), "latency-lab-ports");
    /** The channels of this JVM's locks: a lock lasts as long as its channel is open. */
    private static final List<FileChannel> HELD = new CopyOnWriteArrayList<>();

    private FreePorts() {
    }

    /** A free loopback port whose actuator port (+1000) is free too, both below the outgoing connections' range. */
    public static int port() {
        return port(EPHEMERAL_START);
    }

    /** The same, below a given start of the outgoing range; the kernel's choice when that leaves fewer than 100 ports. */
    static int port(int ephemeralStart) {
        int span = ephemeralStart - TargetProcess.managementPort(0) - LOWEST;
        if (span < 100) {
            return anyPort(); // a machine whose outgoing range starts low: the kernel's choice is as good as any
        }
        NEXT.compareAndSet(-1, ThreadLocalRandom.current().nextInt(span));
        for (int i = 0; i < 200; i++) {
            int port = LOWEST + Math.floorMod(NEXT.getAndIncrement(), span);
            int management = TargetProcess.managementPort(port);
            // reserved before it is probed: a probe binds the port for a moment, and another thread or process probing a
            // port it has not reserved could find a reserved one taken (a target refused its own port so)
            if (reserve(port) && reserve(management) && free(port) && free(management)) {
                return port;
            }
        }
        throw new TargetProcess.TargetFailedException("no free pair of loopback ports (port and port + 1000) below " + ephemeralStart + " in 200 tries");
    }

    /** Where the kernel's range of outgoing ports begins. */
    static int ephemeralStart() {
        return EPHEMERAL_START;
    }

    private static int readEphemeralStart() {
        try {
            // by lines: Files.readString was seen to read this file's first byte alone (its size is not what it holds)
            return Integer.parseInt(Files.readAllLines(EPHEMERAL_RANGE).get(0).trim().split("\\s+")[0]);
        }
        catch (IOException | RuntimeException e) {
            return EPHEMERAL_DEFAULT;
        }
    }

    /**
     * Reserves a port for this JVM: false when another process holds it, or this JVM already does. Where no reservation
     * can be made (the folder cannot be written), true: the check of the port alone, as before.
     */
    static boolean reserve(int port) {
        FileChannel channel = null;
        try {
            Files.createDirectories(RESERVATIONS);
            channel = FileChannel.open(RESERVATIONS.resolve(String.valueOf(port)), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            if (channel.tryLock() == null) {
                channel.close();
                return false;
            }
            HELD.add(channel);
            return true;
        }
        catch (OverlappingFileLockException mine) {
            close(channel);
            return false;
        }
        catch (IOException e) {
            close(channel);
            return true;
        }
    }

    private static void close(FileChannel channel) {
        try {
            if (channel != null) {
                channel.close();
            }
        }
        catch (IOException e) {
            // nothing held
        }
    }

    /** Whether a listener could bind the loopback port now. */
    static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        }
        catch (IOException taken) {
            return false;
        }
    }

    private static int anyPort() {
        for (int i = 0; i < 50; i++) {
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                int port = s.getLocalPort();
                int management = TargetProcess.managementPort(port);
                if (management < 65536 && reserve(port) && reserve(management) && free(management)) {
                    return port;
                }
            }
            catch (IOException e) {
                throw new TargetProcess.TargetFailedException("no free loopback port: " + e.getMessage());
            }
        }
        throw new TargetProcess.TargetFailedException("no free pair of loopback ports (port and port + 1000) in 50 tries");
    }
}
