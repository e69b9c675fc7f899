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
 * A sweep watched while it lasts, as a user would through ./lab sweep (issue 61): the live view's address said first,
 * its Prometheus metrics labelled with the target while users are active, its events caught up from the sweep's
 * start by a page opened late, each point's run in turn with its seconds adding up to that point's result file, the
 * points' lines as they end, then the end with a link to the sweep's page; and a line on the console every five
 * seconds. (./lab run's view is the same with one run: LabCommandLineIT checks its feed against its result.)
 */
class LiveViewIT {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Pattern ACTIVE = Pattern.compile("^latency_lab_active_users\\{point=\"[^\"]+\",target=\"webflux\"} ([0-9.]+)$",
            Pattern.MULTILINE);

    @TempDir
    Path tmp;

    /** A run's events as a page got them: its title and its seconds. */
    private record Run(String title, List<LiveSample> seconds) {
    }

    @Test
    void aSweepIsWatchedPointByPointAndEachPointsSecondsAddUpToItsResult() throws Exception {
        LabCommand lab = LabCommand.start(tmp.resolve("sweep.console"), "sweep", "--targets", "webflux", "--users", "20,40", "--ramp-seconds",
                "2", "--requests-per-user", "4", "--port", String.valueOf(Lab.freePort()), "--warmup-seconds", "1", "--drain-seconds", "5",
                "--no-gatling-report", "--results", tmp.resolve("results").toString(), "--name", "watched");
        String live = lab.awaitLine("latency-lab: live view: (http://127\\.0\\.0\\.1:[0-9]+/) ", Duration.ofMinutes(2));

        // the metrics, polled until the first point's users are active (a poll once ./lab has ended fails: nothing listens)
        String metrics = "";
        double active = 0;
        while (active == 0) {
            metrics = get(live + "metrics").body();
            Matcher m = ACTIVE.matcher(metrics);
            active = m.find() && !m.group(1).equals("NaN") ? Double.parseDouble(m.group(1)) : 0;
            TargetProcess.sleep(200);
        }
        assertThat(metrics).contains("latency_lab_responses_ok_total{", "latency_lab_cpu_share{", "process=\"machine\"");
        // scraped again while the users are active: the counter of OK responses has grown
        double okBefore = okTotal(metrics);
        double okLater = okBefore;
        while (okLater <= okBefore) {
            TargetProcess.sleep(500);
            okLater = okTotal(get(live + "metrics").body());
        }
        assertThat(okLater).isGreaterThan(okBefore);
        assertThat(get(live).body()).contains("<title>sweep watched: live</title>").contains("uPlot.iife.min.js");
        assertThat(get(live + "uPlot.iife.min.js").statusCode()).isEqualTo(200);

        // a page opened now gets every event from the sweep's start, then each as it comes, then the end
        List<Run> runs = new ArrayList<>();
        List<String> said = new ArrayList<>();
        String end = null;
        String event = "message";
        HttpResponse<java.util.stream.Stream<String>> events = HTTP.send(HttpRequest.newBuilder(URI.create(live + "events")).build(),
                HttpResponse.BodyHandlers.ofLines());
        for (String line : (Iterable<String>) events.body()::iterator) {
            if (line.startsWith("event: ")) {
                event = line.substring("event: ".length());
                continue;
            }
            if (!line.startsWith("data: ")) {
                event = line.isEmpty() ? "message" : event;
                continue;
            }
            String data = line.substring("data: ".length());
            switch (event) {
                case "run" -> runs.add(new Run(Json.MAPPER.readTree(data).get("title").asString(), new ArrayList<>()));
                case "said" -> said.add(Json.MAPPER.readTree(data).get("line").asString());
                case "end" -> end = data;
                default -> runs.getLast().seconds().add(Json.MAPPER.readValue(data, LiveSample.class));
            }
        }

        assertThat(lab.await(Duration.ofMinutes(3))).as(lab.output()).isZero();
        assertThat(end).as("the stream ends with the sweep").contains("the sweep finished").contains("\"page\":\"run/index.html\"");
        assertThat(runs).extracting(Run::title).containsExactly("[1/2] webflux users=20 run 1", "[2/2] webflux users=40 run 1");
        assertThat(said).hasSize(2).allSatisfy(line -> assertThat(line).contains("goodput"));
        assertThat(runs.getFirst().seconds().getFirst().second()).as("caught up from the first second").isLessThan(2);
        for (int users : new int[] {20, 40}) {
            List<LiveSample> seconds = runs.get(users / 20 - 1).seconds();
            Result result = ResultFile.read(tmp.resolve("results/watched/points/webflux-l100-u%d-r1/result.json".formatted(users)));
            assertThat(seconds).extracting(LiveSample::second).isSorted();
            assertThat(seconds.getLast().ok()).as("%d users: the last second's count of OK is the run's", users).isEqualTo(result.requests().ok());
            assertThat(seconds.stream().mapToLong(LiveSample::completed).sum()).as("each response in one second").isEqualTo(result.requests().total());
        }
        assertThat(lab.output()).containsPattern("latency-lab: live [0-9]+ s: [0-9]+ users, [0-9,]+ OK, 0 KO so far");
    }

    private static final Pattern OK_TOTAL = Pattern.compile("^latency_lab_responses_ok_total\\{[^}]*} ([0-9.]+)$", Pattern.MULTILINE);

    private static double okTotal(String metrics) {
        Matcher m = OK_TOTAL.matcher(metrics);
        assertThat(m.find()).as(metrics).isTrue();
        return Double.parseDouble(m.group(1));
    }

    private static HttpResponse<String> get(String url) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
