package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import dev.latencylab.lab.run.TargetProcess;
import dev.latencylab.load.live.LiveSample;
import dev.latencylab.load.result.Json;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;

/**
 * A sweep watched while it lasts, as a user would through ./lab sweep (issue 61): the live view's address said first,
 * its Prometheus metrics labelled with the target while users are active, the page in Chromium at a 1,366 px screen
 * changing as the load goes (its OK count and the threads busy differ between two screenshots) and, at the end, each
 * point's line, the link to the sweep's page and a chart whose OK add up to the last point's; its events caught up
 * from the sweep's start by a page opened late, each point's run in turn with its seconds adding up to that point's
 * result file, then the end; and, on a terminal, a status line rewritten each second. (./lab run's view is the same
 * with one run: LabCommandLineIT checks its feed against its result, and its plain line every five seconds in a pipe.)
 */
class LiveViewIT {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Pattern ACTIVE = Pattern.compile("^latency_lab_active_users\\{point=\"[^\"]+\",target=\"mvc-t20\"} ([0-9.]+)$",
            Pattern.MULTILINE);

    @TempDir
    Path tmp;

    /** Until when the page may take to show what is waited for (a loop past it fails rather than hangs). */
    private Instant deadline;

    /** A run's events as a page got them: its title and its seconds. */
    private record Run(String title, List<LiveSample> seconds) {
    }

    @Test
    void aSweepIsWatchedPointByPointAndEachPointsSecondsAddUpToItsResult() throws Exception {
        // on a terminal, as a user runs it: a pseudo-terminal of Python's between ./lab and the console file
        LabCommand lab = LabCommand.start(tmp.resolve("sweep.console"), List.of("env", "TERM=xterm", "COLUMNS=100", "python3", "-c",
                "import os, pty, sys; sys.exit(os.waitstatus_to_exitcode(pty.spawn(sys.argv[1:])))"), "sweep", "--targets", "mvc-t20", "--users", "20,40",
                "--ramp-seconds",
                "2", "--requests-per-user", "12", "--think-min-ms", "100", "--think-max-ms", "200", "--port", String.valueOf(Lab.freePort()),
                "--warmup-seconds", "1", "--drain-seconds", "5",
                "--no-gatling-report", "--results", tmp.resolve("results").toString(), "--name", "watched");
        String live = lab.awaitLine("latency-lab: live view: (http://127\\.0\\.0\\.1:[0-9]+/) ", Duration.ofMinutes(2));
        try (Chromium browser = Chromium.open(live, 1366, 768, tmp.resolve("chromium.log"))) {
            watch(lab, live, browser);
        }
    }

    private void watch(LabCommand lab, String live, Chromium browser) throws Exception {
        deadline = Instant.now().plus(Duration.ofMinutes(4));

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

        // the page in the browser: what it says now, and later, as the load goes on, with a screenshot of each
        String first = now(browser, "");
        byte[] firstShot = browser.screenshot();
        String later = now(browser, first);
        while (number(later, "([0-9]+) OK,").equals(number(first, "([0-9]+) OK,"))
                || number(later, "threads busy ([0-9.]+) of").equals(number(first, "threads busy ([0-9.]+) of"))) {
            TargetProcess.sleep(300);
            later = now(browser, later);
            assertThat(Instant.now()).as("the page changed: %s, then %s", first, later).isBefore(deadline);
        }
        assertThat(later).as("the pool's size beside the threads busy").contains(" of 20");
        assertThat(browser.screenshot()).as("a second screenshot, of the page changed").isNotEqualTo(firstShot);
        assertThat(firstShot.length).as("a rendered page, not a blank one").isGreaterThan(20_000);

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
        assertThat(runs).extracting(Run::title).containsExactly("[1/2] mvc-t20 users=20 run 1", "[2/2] mvc-t20 users=40 run 1");
        assertThat(said).hasSize(2).allSatisfy(line -> assertThat(line).contains("goodput"));
        assertThat(runs.getFirst().seconds().getFirst().second()).as("caught up from the first second").isLessThan(2);
        for (int users : new int[] {20, 40}) {
            List<LiveSample> seconds = runs.get(users / 20 - 1).seconds();
            Result result = ResultFile.read(tmp.resolve("results/watched/points/mvc-t20-l100-u%d-r1/result.json".formatted(users)));
            assertThat(seconds).extracting(LiveSample::second).isSorted();
            assertThat(seconds.getLast().ok()).as("%d users: the last second's count of OK is the run's", users).isEqualTo(result.requests().ok());
            assertThat(seconds.stream().mapToLong(LiveSample::completed).sum()).as("each response in one second").isEqualTo(result.requests().total());
        }
        // the terminal's status line: each second rewritten in place, cut to its width, wiped before any other line
        assertThat(lab.output()).containsPattern("\r\033\\[Klatency-lab: live [0-9]+ s: [0-9]+ users, [0-9,]+ OK, 0 KO so far");
        Matcher status = Pattern.compile("\r\033\\[K(latency-lab: live [^\r\n]*)").matcher(lab.output());
        int shown = 0;
        while (status.find()) {
            shown++;
            assertThat(status.group(1).length()).as(status.group(1)).isLessThan(100);
        }
        assertThat(shown).as("a status each second of the two points").isGreaterThan(3);

        // the page at the end: each point's line as the console said it, the sweep's page linked, the last chart complete
        String state = "";
        while (!state.startsWith("ended")) {
            state = browser.evaluate("document.getElementById('state').textContent").asString();
            TargetProcess.sleep(200);
            assertThat(Instant.now()).as("the page says the sweep ended: " + state).isBefore(deadline);
        }
        assertThat(state).contains("the sweep finished").contains(tmp.resolve("results/watched/index.html").toString());
        assertThat(browser.evaluate("document.querySelector('#state a').getAttribute('href')").asString()).isEqualTo("run/index.html");
        JsonNode lines = browser.evaluate("Array.from(document.querySelectorAll('#done li')).map(li => li.textContent)");
        assertThat(lines).hasSize(2).allSatisfy(line -> assertThat(lab.output()).contains(line.asString()));
        Result last = ResultFile.read(tmp.resolve("results/watched/points/mvc-t20-l100-u40-r1/result.json"));
        assertThat(browser.evaluate("charts[0][0].data[1].reduce((a, b) => a + b, 0)").asLong()).as("the chart's OK, second by second")
                .isEqualTo(last.requests().ok());
        JsonNode width = browser.evaluate("({scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth})");
        assertThat(width.path("scroll").asInt()).as("fits a 1,366 px screen: %s", width).isLessThanOrEqualTo(width.path("client").asInt());
    }

    /** What the page says of the second it shows last, once it says something other than before. */
    private String now(Chromium browser, String before) throws Exception {
        String now = before;
        while (now.equals(before) || !now.contains("threads busy")) {
            TargetProcess.sleep(200);
            now = browser.evaluate("document.getElementById('now').textContent").asString();
            assertThat(Instant.now()).as("the page shows a new second: " + now).isBefore(deadline);
        }
        return now;
    }

    private static String number(String text, String pattern) {
        Matcher m = Pattern.compile(pattern).matcher(text);
        assertThat(m.find()).as(text).isTrue();
        return m.group(1);
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
