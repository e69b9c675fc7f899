package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.lab.run.TargetProcess;
import dev.latencylab.load.live.LiveSample;
import dev.latencylab.load.result.Json;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;

/**
 * A run watched while it lasts, as a user would through ./lab run (issue 61): the live view's address said first, its
 * Prometheus metrics labelled with the target while users are active, its events caught up from the run's first
 * second by a page opened late and ended with a link to the run's page, its seconds adding up to the result file,
 * and a line on the console every five seconds.
 */
class LiveViewIT {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Pattern ACTIVE = Pattern.compile("^latency_lab_active_users\\{point=\"[^\"]+\",target=\"webflux\"} ([0-9.]+)$",
            Pattern.MULTILINE);

    @TempDir
    Path tmp;

    @Test
    void aRunIsWatchedWhileItLastsAndItsSecondsAddUpToItsResult() throws Exception {
        LabCommand lab = LabCommand.start(tmp.resolve("run.console"), "run", "--target", "webflux", "--users", "40", "--ramp-seconds", "2",
                "--requests-per-user", "5", "--port", String.valueOf(Lab.freePort()), "--warmup-seconds", "1", "--no-gatling-report",
                "--results", tmp.resolve("results").toString());
        String live = lab.awaitLine("latency-lab: live view: (http://127\\.0\\.0\\.1:[0-9]+/) ", Duration.ofMinutes(2));

        // the metrics, polled until the users are active (a poll once ./lab has ended fails: nothing listens)
        String metrics = "";
        double active = 0;
        while (active == 0) {
            metrics = get(live + "metrics").body();
            Matcher m = ACTIVE.matcher(metrics);
            active = m.find() && !m.group(1).equals("NaN") ? Double.parseDouble(m.group(1)) : 0;
            TargetProcess.sleep(200);
        }
        assertThat(metrics).contains("latency_lab_responses_ok_total{", "latency_lab_cpu_share{", "process=\"machine\"");
        assertThat(get(live).body()).contains("<title>webflux users=40 run 1: live</title>").contains("uPlot.iife.min.js");
        assertThat(get(live + "uPlot.iife.min.js").statusCode()).isEqualTo(200);

        // a page opened now gets every second from the first, then each as it comes, then the end
        List<LiveSample> seconds = new ArrayList<>();
        String end = null;
        String event = "message";
        HttpResponse<java.util.stream.Stream<String>> events = HTTP.send(HttpRequest.newBuilder(URI.create(live + "events")).build(),
                HttpResponse.BodyHandlers.ofLines());
        for (String line : (Iterable<String>) events.body()::iterator) {
            if (line.startsWith("event: ")) {
                event = line.substring("event: ".length());
            }
            else if (line.startsWith("data: ") && event.equals("end")) {
                end = line.substring("data: ".length());
            }
            else if (line.startsWith("data: ")) {
                seconds.add(Json.MAPPER.readValue(line.substring("data: ".length()), LiveSample.class));
            }
        }

        assertThat(lab.await(Duration.ofMinutes(2))).as(lab.output()).isZero();
        assertThat(end).as("the stream ends with the run").contains("it finished").contains("\"page\":\"run/result.html\"");
        assertThat(seconds.getFirst().second()).as("caught up from the first second").isLessThan(2);
        assertThat(seconds).extracting(LiveSample::second).isSorted();
        Result result = ResultFile.read(Path.of(lab.awaitLine("^Result file: (.+)$", Duration.ZERO)));
        assertThat(seconds.getLast().ok()).as("the last second's count of OK is the run's").isEqualTo(result.requests().ok());
        assertThat(seconds.stream().mapToLong(LiveSample::completed).sum()).as("each response in one second").isEqualTo(result.requests().total());
        assertThat(lab.output()).containsPattern("latency-lab: live [0-9]+ s: [0-9]+ users, [0-9,]+ OK, 0 KO so far");
    }

    private static HttpResponse<String> get(String url) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
