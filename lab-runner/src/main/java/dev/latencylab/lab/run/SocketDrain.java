package dev.latencylab.lab.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Waits until no TCP socket of a finished point is still open on its port (read from /proc/net/tcp and tcp6), so
 * that the next point starts clean. TIME_WAIT entries are not waited for: on loopback Linux reuses them for new
 * connections (net.ipv4.tcp_tw_reuse).
 */
public final class SocketDrain {

    private static final String TIME_WAIT = "06";
    /** Not a connection: once the point's target has stopped, a socket listening on its port is the next point's target. */
    private static final String LISTEN = "0A";

    private SocketDrain() {
    }

    /** Connections on this port, TIME_WAIT excluded (a listening socket is none); -1 when /proc/net/tcp cannot be read. */
    public static int openSockets(int port) {
        String hexPort = ":%04X".formatted(port);
        int count = 0;
        for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            try {
                for (String line : Files.readAllLines(Path.of(table))) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length < 4 || f[0].equals("sl")) {
                        continue;
                    }
                    boolean ours = f[1].endsWith(hexPort) || f[2].endsWith(hexPort);
                    if (ours && !f[3].equals(TIME_WAIT) && !f[3].equals(LISTEN)) {
                        count++;
                    }
                }
            }
            catch (IOException e) {
                return -1;
            }
        }
        return count;
    }

    /** @return the sockets still open when it gave up (0 when drained) */
    public static int await(int port, Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        int open = openSockets(port);
        while (open > 0 && System.nanoTime() < deadline) {
            TargetProcess.sleep(500);
            open = openSockets(port);
        }
        return Math.max(open, 0);
    }

}
