package dev.latencylab.lab.live;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.latencylab.load.live.LiveSample;
import dev.latencylab.load.result.Json;

/**
 * The live view's server, on loopback only: the page (/), uPlot from its webjar, the seconds as server-sent events
 * (/events: every second so far first, so a page opened late or reloaded catches up, then each as it comes, then an
 * "end" event), and the metrics in Prometheus' text format (/metrics). A client that goes away ends only its own stream.
 */
final class LiveServer implements AutoCloseable {

    private static final String UPLOT = "/META-INF/resources/webjars/uplot/1.6.30/dist/";

    private final HttpServer server;
    private final List<LiveSample> seconds = new ArrayList<>();
    private String end;
    /** The run's folder, served under /run/ once the run has ended (its page and charts); null before. */
    private volatile java.nio.file.Path runFolder;

    LiveServer(int port, String page, LiveMetrics metrics) throws IOException {
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
        server.createContext("/metrics", exchange -> send(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", metrics.scrape()));
        server.createContext("/events", this::events);
        server.createContext("/run/", this::runFile);
        server.start();
    }

    /** The port it listens on (the one asked for, or the one the system gave for 0). */
    int port() {
        return server.getAddress().getPort();
    }

    synchronized void add(LiveSample s) {
        seconds.add(s);
        notifyAll();
    }

    /** The run's folder, whose files (its page, its charts) /run/NAME serves from now on. */
    void serve(java.nio.file.Path folder) {
        runFolder = folder.toAbsolutePath().normalize();
    }

    /** A file of the run's folder, by its name: nothing outside it, nothing before the run has ended. */
    private void runFile(HttpExchange exchange) throws IOException {
        java.nio.file.Path folder = runFolder;
        String name = exchange.getRequestURI().getPath().substring("/run/".length());
        java.nio.file.Path file = folder == null ? null : folder.resolve(name).normalize();
        if (file == null || !file.startsWith(folder) || !java.nio.file.Files.isRegularFile(file)) {
            send(exchange, 404, "text/plain", "no such file of the run (its page is here once the run has ended)");
            return;
        }
        byte[] body = java.nio.file.Files.readAllBytes(file);
        String type = name.endsWith(".html") ? "text/html; charset=utf-8" : name.endsWith(".png") ? "image/png"
                : name.endsWith(".svg") ? "image/svg+xml" : "application/octet-stream";
        exchange.getResponseHeaders().add("Content-Type", type);
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** The run is over: each stream gets an "end" event with this JSON, then ends. */
    synchronized void end(String json) {
        end = json;
        notifyAll();
    }

    private void events(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream; charset=utf-8");
        exchange.getResponseHeaders().add("Cache-Control", "no-cache");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            int sent = 0;
            while (true) {
                List<LiveSample> next;
                String ended;
                synchronized (this) {
                    while (sent == seconds.size() && end == null) {
                        wait();
                    }
                    next = List.copyOf(seconds.subList(sent, seconds.size()));
                    ended = end;
                }
                StringBuilder chunk = new StringBuilder();
                for (LiveSample s : next) {
                    chunk.append("data: ").append(Json.LINE.writeValueAsString(s)).append("\n\n");
                }
                sent += next.size();
                if (ended != null) {
                    chunk.append("event: end\ndata: ").append(ended).append("\n\n");
                }
                out.write(chunk.toString().getBytes(StandardCharsets.UTF_8));
                out.flush();
                if (ended != null) {
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

    private static void resource(HttpExchange exchange, String name, String type) throws IOException {
        try (InputStream in = LiveServer.class.getResourceAsStream(UPLOT + name)) {
            if (in == null) {
                send(exchange, 500, "text/plain", "uPlot's " + name + " is not on the lab's classpath");
                return;
            }
            byte[] body = in.readAllBytes();
            exchange.getResponseHeaders().add("Content-Type", type);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private static void send(HttpExchange exchange, int status, String type, String text) throws IOException {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", type);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** Ends every stream (an "end" event if the run did not say one) and stops, giving the streams a second to send it. */
    @Override
    public void close() {
        synchronized (this) {
            if (end == null) {
                end("{\"said\": \"the lab stopped\"}");
            }
        }
        server.stop(1);
    }
}
