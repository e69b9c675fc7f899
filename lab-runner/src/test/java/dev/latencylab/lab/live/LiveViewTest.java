package dev.latencylab.lab.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.load.live.LiveSample;
import dev.latencylab.load.result.Json;

/**
 * The live view without a run: a feed written line by line (a line cut in two waits for its end); two runs followed in
 * turn, as a sweep's points, served on loopback to a page that comes after the last second and still gets every event
 * in order, then the end; the metrics of the run followed now; the run's folder served only once it has ended, and
 * nothing outside it.
 */
class LiveViewTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path tmp;

    private static LiveSample second(int s, long ok) {
        return new LiveSample(s, 10, ok, 0, 5, 100L, 110L, 120L, 0.2, 0.5, 0.1, 3.0, 0.0, 7.0);
    }

    @Test
    void aFeedIsReadWholeLinesAtATimeAndServedFromItsFirstSecond() throws Exception {
        Path feed = tmp.resolve(LiveSample.FILE);
        LiveFeedReader reader = new LiveFeedReader(feed);
        assertThat(reader.readNew()).as("no file yet").isEmpty();
        String first = Json.LINE.writeValueAsString(second(1, 5)) + "\n";
        String next = Json.LINE.writeValueAsString(second(2, 10)) + "\n";
        Files.writeString(feed, first + next.substring(0, 10));
        assertThat(reader.readNew()).containsExactly(second(1, 5));
        Files.writeString(feed, next.substring(10), StandardOpenOption.APPEND);
        assertThat(reader.readNew()).containsExactly(second(2, 10));

        StringWriter console = new StringWriter();
        Path runFolder = Files.createDirectories(tmp.resolve("run-1"));
        Files.writeString(runFolder.resolve("result.html"), "<p>the run's page</p>");
        Files.writeString(tmp.resolve("secret.txt"), "not the run's");
        try (LiveView view = LiveView.start(0, "a sweep", new PrintWriter(console, true), null)) {
            String base = "http://127.0.0.1:%d/".formatted(view.port());
            view.follow(new LiveView.Watched("[1/2] first", "mvc", "u5", null, null), tmp.resolve("none-yet.jsonl"));
            view.ended("[1/2] first  its line");
            view.follow(new LiveView.Watched("[2/2] t", "mvc-t200", "u10", 125.0, 200), feed);
            assertThat(get(base + "run/result.html").statusCode()).as("before the run ends").isEqualTo(404);
            view.end("it finished", runFolder.resolve("result.html"));
            String events = get(base + "events").body();
            assertThat(events).as("a page opened after the last second gets every event, in order").containsSubsequence(
                    "event: run\ndata: {\"title\":\"[1/2] first\",\"modelBoundPerSecond\":null,\"poolSize\":null}",
                    "event: said\ndata: {\"line\":\"[1/2] first  its line\"}",
                    "event: run\ndata: {\"title\":\"[2/2] t\",\"modelBoundPerSecond\":125.0,\"poolSize\":200}",
                    "data: " + Json.LINE.writeValueAsString(second(1, 5)),
                    "data: " + Json.LINE.writeValueAsString(second(2, 10)),
                    "event: end\ndata: {\"said\":\"it finished\",\"page\":\"run/result.html\",\"pagePath\":");
            assertThat(get(base + "run/result.html").body()).isEqualTo("<p>the run's page</p>");
            assertThat(get(base + "run/..%2Fsecret.txt").statusCode()).as("nothing outside the run's folder").isEqualTo(404);
            assertThat(get(base + "run/%2E%2E/secret.txt").statusCode()).isEqualTo(404);
            assertThat(get(base + "metrics").body()).as("the run followed now").doesNotContain("target=\"mvc\"")
                    .contains("latency_lab_model_bound_per_second{point=\"u10\",target=\"mvc-t200\"} 125.0")
                    .contains("latency_lab_model_pool_size{point=\"u10\",target=\"mvc-t200\"} 200.0")
                    .contains("latency_lab_threads_busy{point=\"u10\",target=\"mvc-t200\"} 7.0")
                    .contains("latency_lab_pool_in_use{point=\"u10\",target=\"mvc-t200\"} 3.0");
        }
        assertThat(console.toString()).contains("live view: http://127.0.0.1:").contains("latency-lab: live 1 s: 10 users, 5 OK, 0 KO so far; "
                + "last second 5 responses, p99 120 ms, threads busy 7, pool in use 3 (waiting 0); CPU server 20%, machine 50%");
    }

    private static HttpResponse<String> get(String url) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
