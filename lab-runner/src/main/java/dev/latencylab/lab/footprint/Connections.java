package dev.latencylab.lab.footprint;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import dev.latencylab.lab.run.TargetProcess.TargetFailedException;

/**
 * N connections this JVM holds open to a target on loopback, one plain socket each: in flight, each has sent a request
 * the target holds for its latency and is never read; idle, each has had one quick request answered (one at a time, so
 * that no pool grows for them) and then stays open. Closed with a reset (SO_LINGER 0): the next point's connections
 * find no port of these left in TIME_WAIT, and the target stops waiting for them.
 */
final class Connections implements AutoCloseable {

    /** How long one connect or one answer may take before the point fails. */
    private static final int TIMEOUT_MS = 10_000;

    private final List<Socket> sockets = new ArrayList<>();

    private Connections() {
    }

    /**
     * Opens n connections to the target on port, each sending GET path; when answered is true, each reads its answer
     * before the next connects.
     *
     * @throws TargetFailedException when a connection or an answer fails (every connection opened is closed)
     */
    static Connections open(int port, int n, String path, boolean answered) {
        Connections c = new Connections();
        InetSocketAddress target = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        byte[] request = ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        try {
            for (int i = 0; i < n; i++) {
                Socket s = new Socket();
                c.sockets.add(s);
                s.setSoLinger(true, 0);
                s.setSoTimeout(TIMEOUT_MS);
                s.connect(target, TIMEOUT_MS);
                s.getOutputStream().write(request);
                if (answered) {
                    awaitAnswer(s.getInputStream(), i);
                }
            }
            return c;
        }
        catch (IOException e) {
            int opened = c.sockets.size();
            c.close();
            throw new TargetFailedException("connection %d of %d to port %d failed: %s".formatted(opened, n, port, e.getMessage()));
        }
    }

    /**
     * Reads one whole answer (its headers, then Content-Length bytes, or chunks up to the last, empty one, as a service
     * answers JSON): the target answered, and keeps the connection alive for the next request.
     */
    private static void awaitAnswer(InputStream in, int i) throws IOException {
        StringBuilder got = new StringBuilder();
        byte[] buffer = new byte[1024];
        int bodyAt;
        while ((bodyAt = got.indexOf("\r\n\r\n")) < 0) {
            read(in, buffer, got, i);
        }
        String head = got.substring(0, bodyAt);
        java.util.regex.Matcher length = CONTENT_LENGTH.matcher(head);
        boolean chunked = CHUNKED.matcher(head).find();
        if (!head.startsWith("HTTP/1.1 200") || !(chunked || length.find())) {
            throw new IOException("connection " + i + " answered " + head.lines().findFirst().orElse("")
                    + " (want 200 with a Content-Length or chunks)");
        }
        if (chunked) {
            // no trailers: the last chunk is "0" and an empty line (searched from the head's last line end, for an empty body)
            while (got.indexOf("\r\n0\r\n\r\n", bodyAt + 2) < 0) {
                read(in, buffer, got, i);
            }
            return;
        }
        int end = bodyAt + 4 + Integer.parseInt(length.group(1));
        while (got.length() < end) {
            read(in, buffer, got, i);
        }
    }

    private static final java.util.regex.Pattern CHUNKED = java.util.regex.Pattern.compile("(?im)^transfer-encoding:\\s*chunked");
    private static final java.util.regex.Pattern CONTENT_LENGTH = java.util.regex.Pattern.compile("(?im)^content-length:\\s*([0-9]+)");

    private static void read(InputStream in, byte[] buffer, StringBuilder got, int i) throws IOException {
        int read = in.read(buffer);
        if (read < 0) {
            throw new IOException("connection " + i + " closed before its answer: " + got);
        }
        got.append(new String(buffer, 0, read, StandardCharsets.US_ASCII));
    }

    /** Connections this side still has open: a target that closed one (an idle timeout) shows as end of stream here. */
    int stillOpen() {
        int open = 0;
        for (Socket s : sockets) {
            try {
                s.setSoTimeout(1);
                if (s.getInputStream().read() != -1) {
                    open++; // unexpected bytes, but the connection is there
                }
            }
            catch (java.net.SocketTimeoutException quiet) {
                open++;
            }
            catch (IOException closed) {
                // reset or closed by the target
            }
        }
        return open;
    }

    int size() {
        return sockets.size();
    }

    @Override
    public void close() {
        for (Socket s : sockets) {
            try {
                s.close();
            }
            catch (IOException e) {
                // a reset socket has nothing left to release
            }
        }
        sockets.clear();
    }
}
