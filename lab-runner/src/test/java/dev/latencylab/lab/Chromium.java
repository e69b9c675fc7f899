package dev.latencylab.lab;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;

import dev.latencylab.lab.run.TargetProcess;
import dev.latencylab.load.result.Json;

/**
 * Headless Chromium kept open on one page and driven through its DevTools protocol (a WebSocket on loopback), for a
 * page that changes while a test watches it (the live view): evaluate an expression in the page, take a screenshot,
 * as often as the test likes. One browser per instance, started by the test and ended by its PID when closed.
 */
final class Chromium implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://127\\.0\\.0\\.1:([0-9]+)/\\S+)");
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private final Process process;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> answers = new ConcurrentHashMap<>();

    private Chromium(Process process, WebSocket socket) {
        this.process = process;
        this.socket = socket;
    }

    /** The browser on this machine (.ci/run installs Debian's chromium). */
    static String executable() {
        for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
            for (String dir : System.getenv("PATH").split(":")) {
                if (Files.isExecutable(Path.of(dir, name))) {
                    return Path.of(dir, name).toString();
                }
            }
        }
        throw new IllegalStateException("no Chromium: apt-get install chromium (.ci/run does)");
    }

    /** Chromium in a window of width × height showing url, its error stream written to errors. */
    static Chromium open(String url, int width, int height, Path errors) throws Exception {
        Process p = new ProcessBuilder(executable(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "--window-size=%d,%d".formatted(width, height), url)
                .redirectErrorStream(true).redirectOutput(errors.toFile()).start();
        try {
            Matcher m = LISTENING.matcher("");
            Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
            while (!m.find()) {
                if (!p.isAlive() || Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException("Chromium did not open its DevTools port: " + Files.readString(errors));
                }
                TargetProcess.sleep(100);
                m = LISTENING.matcher(Files.readString(errors));
            }
            String page = null;
            while (page == null) {
                JsonNode targets = Json.MAPPER.readTree(HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:%s/json/list".formatted(m.group(2))))
                        .build(), HttpResponse.BodyHandlers.ofString()).body());
                for (JsonNode t : targets) {
                    if (t.path("type").asString().equals("page")) {
                        page = t.path("webSocketDebuggerUrl").asString();
                    }
                }
                if (Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException("Chromium opened no page: " + targets);
                }
                TargetProcess.sleep(100);
            }
            Listener listener = new Listener();
            Chromium browser = new Chromium(p, HTTP.newWebSocketBuilder().buildAsync(URI.create(page), listener).get(30, TimeUnit.SECONDS));
            listener.browser = browser;
            return browser;
        }
        catch (Exception | Error e) {
            p.destroyForcibly();
            throw e;
        }
    }

    /** The value of a JavaScript expression in the page (a string, a number, a boolean; an object as JSON). */
    JsonNode evaluate(String expression) throws Exception {
        JsonNode answer = call("Runtime.evaluate", Map.of("expression", expression, "returnByValue", true, "awaitPromise", true));
        if (answer.has("exceptionDetails")) {
            throw new IllegalStateException(expression + " threw in the page: " + answer.path("exceptionDetails"));
        }
        return answer.path("result").path("value");
    }

    /** The page as it is now, as PNG. */
    byte[] screenshot() throws Exception {
        return Base64.getDecoder().decode(call("Page.captureScreenshot", Map.of("format", "png")).path("data").asString());
    }

    private JsonNode call(String method, Map<String, Object> params) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        answers.put(id, answer);
        socket.sendText(Json.LINE.writeValueAsString(Map.of("id", id, "method", method, "params", params)), true).get(30, TimeUnit.SECONDS);
        JsonNode reply = answer.get(60, TimeUnit.SECONDS);
        if (reply.has("error")) {
            throw new IllegalStateException(method + ": " + reply.path("error"));
        }
        return reply.path("result");
    }

    /** Gathers each message's parts and hands each answer to the call that waits for it; events are not asked for. */
    private static final class Listener implements WebSocket.Listener {
        private final StringBuilder message = new StringBuilder();
        private volatile Chromium browser;

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            message.append(data);
            if (last) {
                JsonNode reply = Json.MAPPER.readTree(message.toString());
                message.setLength(0);
                CompletableFuture<JsonNode> waiting = reply.has("id") ? browser.answers.remove(reply.path("id").asInt()) : null;
                if (waiting != null) {
                    waiting.complete(reply);
                }
            }
            webSocket.request(1);
            return null;
        }
    }

    @Override
    public void close() throws IOException {
        socket.abort();
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
