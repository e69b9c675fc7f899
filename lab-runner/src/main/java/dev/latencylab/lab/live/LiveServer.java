package dev.latencylab.lab.live;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * The live view's server, on loopback only: the page (/), uPlot from its webjar, the events as server-sent events
 * (/events: every event so far first, so a page opened late or reloaded catches up, then each as it comes, until the
 * "end" event), the metrics in Prometheus' text format (/metrics), and, once the work has ended, the files of the folder
 * its page is in (/run/NAME, nothing outside it). A client that goes away ends only its own stream.
 */
final class LiveServer implements AutoCloseable {

    private static final String UPLOT = "/META-INF/resources/webjars/uplot/1.6.30/dist/";

    private final HttpServer server;
    /** Every event so far, as its server-sent chunk, in order. */
    private final List<String> events = new ArrayList<>();
    private boolean ended;
    private volatile LiveMetrics metrics;
    /** The folder served under /run/ once the work has ended (its page and charts); null before. */
    private volatile Path runFolder;

    LiveServer(int port, String page, LiveMetrics metrics) throws IOException {
        this.metrics = metrics;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", exchange -> {
            if (!exchange.getRequestURI().getPath().equals("/")) {
                send(exchange, 404, "text/plain", "not here: the live view serves /, /events and /metrics");
                return;
            }
            send(exchange, 200, "text/html; charset=utf-8", page);
        });
        server.createContext("/uPlot.iife.min.js", exchange -> resource(exchange, "uPlot.iife.min.js", "text/javascript"));
        server.createContext("/uPlot.min.css", exchange -> resource(exchange, "uPlot.min.css", "text/css"));
        server.createContext("/metrics", exchange -> send(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", this.metrics.scrape()));
        server.createContext("/events", this::events);
        server.createContext("/run/", this::runFile);
        server.start();
    }

    /** The port it listens on (the one asked for, or the one the system gave for 0). */
    int port() {
        return server.getAddress().getPort();
    }

    /** The metrics /metrics shows from now on (a new run's). */
    void metrics(LiveMetrics now) {
        metrics = now;
    }

    /** A second of the run, as a message event. */
    synchronized void data(String json) {
        add("data: " + json + "\n\n");
    }

    /** An event of a name of its own (a run begins, a run's line); ignored once ended. */
    synchronized void event(String name, String json) {
        add("event: " + name + "\ndata: " + json + "\n\n");
    }

    /** The work is over: each stream gets an "end" event with this JSON, then ends. The first end counts. */
    synchronized void end(String json) {
        event("end", json);
        ended = true;
    }

    private void add(String chunk) {
        if (!ended) {
            events.add(chunk);
            notifyAll();
        }
    }

    /** The folder whose files (the page, its charts) /run/NAME serves from now on. */
    void serve(Path folder) {
        runFolder = folder.toAbsolutePath().normalize();
    }

    private void events(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream; charset=utf-8");
        exchange.getResponseHeaders().add("Cache-Control", "no-cache");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            int sent = 0;
            while (true) {
                List<String> next;
                boolean over;
                synchronized (this) {
                    while (sent == events.size() && !ended) {
                        wait();
                    }
                    next = List.copyOf(events.subList(sent, events.size()));
                    over = ended;
                }
                sent += next.size();
                out.write(String.join("", next).getBytes(StandardCharsets.UTF_8));
                out.flush();
                if (over) {
                    return;
                }
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        catch (IOException gone) {
            // the page was closed or reloaded: its stream ends, the others go on
        }
    }

    /** A file of the served folder, by its name: nothing outside it, nothing before the work has ended. */
    private void runFile(HttpExchange exchange) throws IOException {
        Path folder = runFolder;
        String name = exchange.getRequestURI().getPath().substring("/run/".length());
        Path file = folder == null ? null : folder.resolve(name).normalize();
        if (file == null || !file.startsWith(folder) || !Files.isRegularFile(file)) {
            send(exchange, 404, "text/plain", "no such file of the run (its page is here once the run has ended)");
            return;
        }
        String type = name.endsWith(".html") ? "text/html; charset=utf-8" : name.endsWith(".png") ? "image/png"
                : name.endsWith(".svg") ? "image/svg+xml" : "application/octet-stream";
        send(exchange, 200, type, Files.readAllBytes(file));
    }

    private static void resource(HttpExchange exchange, String name, String type) throws IOException {
        try (InputStream in = LiveServer.class.getResourceAsStream(UPLOT + name)) {
            if (in == null) {
                send(exchange, 500, "text/plain", "uPlot's " + name + " is not on the lab's classpath");
                return;
            }
            send(exchange, 200, type, in.readAllBytes());
        }
    }

    private static void send(HttpExchange exchange, int status, String type, String text) throws IOException {
        send(exchange, status, type, text.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", type);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** Ends every stream (an "end" event if the work did not say one) and stops, giving the streams a second to send it. */
    @Override
    public void close() {
        synchronized (this) {
            if (!ended) {
                end("{\"said\": \"the lab stopped\"}");
            }
        }
        server.stop(1);
    }
}
