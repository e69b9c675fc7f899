package dev.latencylab.lab.run;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Free loopback ports for a service the lab starts (a downstream, a footprint's subject; the tests' targets), each with
 * its actuator port (+1000) free too. They are taken below the range the kernel gives outgoing connections their local
 * ports from: a port found free here is bound by the service seconds later, and in between any connection made on this
 * machine (a Gatling user's, a health check's) could otherwise be given it as its own port, and the service would not
 * start.
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
            if (free(port) && free(TargetProcess.managementPort(port))) {
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
                if (TargetProcess.managementPort(port) < 65536 && free(TargetProcess.managementPort(port))) {
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
