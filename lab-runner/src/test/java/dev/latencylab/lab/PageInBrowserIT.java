package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.page.SweepPage;
import dev.latencylab.lab.page.RunPage;

/**
 * The comparison page as a reader sees it: rebuilt from the published sweep's result files and opened in headless
 * Chromium, every chart image must load and have a chart's size, and the page must render to a screenshot. The same
 * for a merged run's page, built by ./lab report from a published run of two injectors.
 */
class PageInBrowserIT {

    /**
     * Loads the page in a frame and writes, once every image has decoded or failed, what each one did. The handler is
     * the frame's own onload attribute: a listener added by a later script could miss a small page that loaded first.
     */
    private static final String PROBE = """
            <!DOCTYPE html><html><head><script>
            function probe() {
              const images = Array.from(document.getElementById('page').contentDocument.images);
              Promise.all(images.map(i => i.decode().then(() => 'ok', () => 'failed'))).then(states => {
                document.getElementById('out').textContent = JSON.stringify(images.map((i, k) =>
                  ({src: i.getAttribute('src'), state: states[k], width: i.naturalWidth, height: i.naturalHeight})));
              });
            }
            </script></head><body><pre id="out">pending</pre>
            <iframe id="page" src="%s" width="1400" height="900" onload="probe()"></iframe>
            </body></html>
            """;
    private static final Pattern OUT = Pattern.compile("<pre id=\"out\">([^<]*)</pre>");

    /** Loads the page in a frame of a screen's width and writes how wide its content is against the frame. */
    private static final String WIDTH_PROBE = """
            <!DOCTYPE html><html><head><script>
            function probe() {
              const d = document.getElementById('page').contentDocument.documentElement;
              document.getElementById('out').textContent = JSON.stringify({scrollWidth: d.scrollWidth, clientWidth: d.clientWidth});
            }
            </script></head><body style="margin:0"><pre id="out">pending</pre>
            <iframe id="page" src="%s" width="%d" height="%d" style="border:0" onload="probe()"></iframe>
            </body></html>
            """;

    @TempDir
    Path tmp;

    private SweepFolder publishedCopy() throws IOException {
        Path published = Lab.repo().resolve("docs/results");
        Path copy = tmp.resolve("results");
        Lab.copyTree(published.resolve("points"), copy.resolve("points"));
        Files.copy(published.resolve("sweep.json"), copy.resolve("sweep.json"));
        SweepFolder sweep = new SweepFolder(copy);
        SweepPage.write(sweep);
        return sweep;
    }

    private String browser(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Chromium.executable(), "--headless", "--no-sandbox", "--disable-gpu",
                "--hide-scrollbars", "--allow-file-access-from-files"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectError(tmp.resolve("chromium.err").toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("chromium ended").isTrue();
        return out;
    }

    /** What each image of the page did, as the probe page reports it. */
    private JsonNode images() throws Exception {
        return images("results/index.html");
    }

    /** @param page relative to the temporary folder */
    private JsonNode images(String page) throws Exception {
        Files.writeString(tmp.resolve("probe.html"), PROBE.formatted(page));
        // headless Chromium may dump the DOM before a local frame has loaded (its virtual time runs on while files
        // load): "pending" is the probe not run yet, not a page that failed; a few tries, then it counts as a failure
        String found = "pending";
        for (int attempt = 0; attempt < 5 && found.equals("pending"); attempt++) {
            String dom = browser("--virtual-time-budget=20000", "--dump-dom", tmp.resolve("probe.html").toUri().toString());
            Matcher m = OUT.matcher(dom);
            assertThat(m.find()).as(dom).isTrue();
            found = m.group(1);
        }
        assertThat(found).as("the probe finished").isNotEqualTo("pending");
        return JsonMapper.builder().build().readTree(found.replace("&quot;", "\""));
    }

    @Test
    void everyChartLoadsWithAChartsSize() throws Exception {
        SweepFolder sweep = publishedCopy();
        JsonNode images = images();

        assertThat(images).as("one image per chart").hasSize(9);
        for (JsonNode image : images) {
            assertThat(image.path("state").asString()).as(image.toString()).isEqualTo("ok");
            assertThat(image.path("width").asInt()).as(image.toString()).isGreaterThanOrEqualTo(1000);
            assertThat(image.path("height").asInt()).as(image.toString()).isGreaterThanOrEqualTo(400);
        }

        Path screenshot = tmp.resolve("page.png");
        browser("--window-size=1450,2200", "--screenshot=" + screenshot, sweep.page().toUri().toString());
        assertThat(Files.size(screenshot)).as("a rendered page, not a blank one").isGreaterThan(100_000);

        // no screen scrolls it sideways: the points table scrolls inside its own box
        for (int[] screen : new int[][] {{1366, 768}, {1920, 1080}}) {
            Files.writeString(tmp.resolve("width.html"), WIDTH_PROBE.formatted(sweep.page().toUri(), screen[0], screen[1]));
            String probed = browser("--virtual-time-budget=10000", "--window-size=%d,%d".formatted(screen[0] + 40, screen[1] + 100), "--dump-dom",
                    tmp.resolve("width.html").toUri().toString());
            Matcher m = OUT.matcher(probed);
            assertThat(m.find()).as(probed).isTrue();
            JsonNode width = JsonMapper.builder().build().readTree(m.group(1).replace("&quot;", "\""));
            assertThat(width.path("scrollWidth").asInt()).as("at %dx%d: %s", screen[0], screen[1], width)
                    .isPositive().isLessThanOrEqualTo(width.path("clientWidth").asInt());
        }

        // the page opens with its verdict: the first section after the title, a line per target
        String dom = browser("--dump-dom", sweep.page().toUri().toString());
        assertThat(dom.indexOf("<h2>")).as("the first section").isEqualTo(dom.indexOf("<h2>Verdict</h2>")).isPositive();
        assertThat(dom.substring(dom.indexOf("<h2>Verdict</h2>"), dom.indexOf("<h2>How to read")))
                .contains("<section class=\"verdict\">").contains("<li><strong>mvc-t200</strong>: followed the offered load");
    }

    @Test
    void aMergedRunsPageShowsItsChartAndItsInjectors() throws Exception {
        Path published = Lab.repo().resolve("docs/results-injectors/webflux-l100-u20000-r1");
        Path copy = tmp.resolve("run");
        for (String f : List.of("result.json", "injector-0/result.json", "injector-1/result.json")) {
            Files.createDirectories(copy.resolve(f).getParent());
            Files.copy(published.resolve(f), copy.resolve(f));
        }
        LabCommand.Finished report = LabCommand.inThisJvm("report", copy.toString());
        assertThat(report.exitCode()).as(report.output()).isZero();
        assertThat(report.output()).contains("Run page: " + RunPage.of(copy.resolve("result.json")).toAbsolutePath());

        JsonNode images = images("run/result.html");
        assertThat(images).as("the chart of responses per second").singleElement().satisfies(image -> {
            assertThat(image.path("state").asString()).as(image.toString()).isEqualTo("ok");
            assertThat(image.path("width").asInt()).isGreaterThanOrEqualTo(1000);
        });
        String page = Files.readString(copy.resolve("result.html"));
        assertThat(page).contains("<title>webflux, 20,000 users on 2 injectors, L 100 ms, 22 Nov 2026 22:31 UTC</title>")
                .containsPattern(
                        "<p class=\"verdict\">goodput [0-9,]+ req/s .* model 12,500 req/s, bounded by the offered load: this machine's CPU bounded it first  flags: machine-cpu-bound")
                .contains("injector-0/result.json").contains("injector-1/result.json");
        assertThat(page).as("each injector's file found: its series drawn beside the merge").doesNotContain("are not beside this result");
        Path screenshot = tmp.resolve("run.png");
        browser("--window-size=1250,1400", "--screenshot=" + screenshot, copy.resolve("result.html").toUri().toString());
        assertThat(Files.size(screenshot)).as("a rendered page, not a blank one").isGreaterThan(50_000);
    }

    /** ./lab report RUN_A RUN_B --out DIR: several runs' page, opened in a browser, shows its chart and names each run. */
    @Test
    void runsSideBySideShowTheirChartAndEachRun() throws Exception {
        List<String> given = new ArrayList<>();
        for (String published : List.of("docs/results/points/mvc-t200-l100-u5000-r1", "docs/results-injectors/webflux-l100-u20000-r1")) {
            Path copy = tmp.resolve(Path.of(published).getFileName());
            Lab.copyTree(Lab.repo().resolve(published), copy);
            given.add(copy.toString());
        }
        given.addAll(List.of("--out", tmp.resolve("side").toString()));
        List<String> args = new ArrayList<>(List.of("report"));
        args.addAll(given);
        LabCommand.Finished report = LabCommand.inThisJvm(args.toArray(String[]::new));
        assertThat(report.exitCode()).as(report.output()).isZero();
        assertThat(report.output()).contains("Runs page: " + tmp.resolve("side/index.html").toAbsolutePath());

        assertThat(images("side/index.html")).as("the chart of both runs").singleElement()
                .satisfies(image -> assertThat(image.path("state").asString()).as(image.toString()).isEqualTo("ok"));
        String page = Files.readString(tmp.resolve("side/index.html"));
        assertThat(page).contains("<h1>2 runs side by side</h1>")
                .contains("<b>mvc-t200, 5,000 users, L 100 ms, 22 Nov 2026 06:38 UTC</b>: goodput 1,993 req/s")
                .contains("<b>webflux, 20,000 users on 2 injectors, L 100 ms, 22 Nov 2026 22:31 UTC</b>: goodput")
                .contains("server.tomcat.threads.max=200").contains("<a href=\"../webflux-l100-u20000-r1/result.html\">");

        LabCommand.Finished mixed = LabCommand.inThisJvm("report", given.get(0), Lab.repo().resolve("docs/results").toString(),
                "--out", tmp.resolve("mixed").toString());
        assertThat(mixed.exitCode()).isEqualTo(2);
        assertThat(mixed.output()).contains("is a run's folder and").contains("a sweep's: give runs, or sweeps");
        LabCommand.Finished noOut = LabCommand.inThisJvm("report", given.get(0), given.get(1));
        assertThat(noOut.exitCode()).isEqualTo(2);
        assertThat(noOut.output()).contains("2 runs: give --out DIR");
    }

    /** ./lab compare A B --out FILE.html: opened in a browser, the verdict comes first and no screen scrolls it sideways. */
    @Test
    void aComparisonPageOpensWithItsVerdictAndFitsTheScreen() throws Exception {
        Path page = tmp.resolve("compare.html");
        LabCommand.Finished c = LabCommand.inThisJvm("compare", Lab.repo().resolve("docs/results/points/mvc-t200-l100-u5000")
                .toString(), Lab.repo().resolve("docs/results/points/mvc-t400-l100-u5000").toString(), "--out", page.toString());
        assertThat(c.exitCode()).as(c.output()).isZero();
        assertThat(c.output()).contains("Comparison page: " + page.toAbsolutePath());

        String dom = browser("--dump-dom", page.toUri().toString());
        assertThat(dom.indexOf("<p class=\"verdict\">")).as("the verdict, before any table").isPositive().isLessThan(dom.indexOf("<table>"));
        assertThat(dom).contains("1 point compared, 6 metrics: 4 better, 1 no difference beyond the noise, 1 the same value on both sides")
                .contains("<b>mvc-t400-l100-u5000</b>: B: better in goodput (+56.4%)");
        Files.writeString(tmp.resolve("width.html"), WIDTH_PROBE.formatted(page.toUri(), 1366, 768));
        Matcher m = OUT.matcher(browser("--virtual-time-budget=10000", "--window-size=1406,868", "--dump-dom", tmp.resolve("width.html").toUri().toString()));
        assertThat(m.find()).isTrue();
        JsonNode width = JsonMapper.builder().build().readTree(m.group(1).replace("&quot;", "\""));
        assertThat(width.path("scrollWidth").asInt()).as(width.toString()).isPositive().isLessThanOrEqualTo(width.path("clientWidth").asInt());
    }

    /**
     * The docs as a site (mkdocs.yml, MkDocs with the Material theme), built as CI builds it: strict, so a link or an
     * anchor that leads nowhere fails the build; its longest pages have a table of contents and fit a 1,366-px screen.
     */
    @Test
    void theDocsSiteBuildsWithEveryLinkFoundAndItsPagesFitTheScreen() throws Exception {
        Path site = tmp.resolve("site");
        ProcessBuilder build = new ProcessBuilder("python3", "-m", "mkdocs", "build", "--strict", "--site-dir", site.toString())
                .directory(Lab.repo().toFile()).redirectErrorStream(true);
        build.environment().put("NO_MKDOCS_2_WARNING", "1");
        Process p = build.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("mkdocs ended").isTrue();
        assertThat(p.exitValue()).as("python3 -m mkdocs build --strict (pip install mkdocs-material: .ci/run does)\n" + output).isZero();
        assertThat(output).doesNotContain("WARNING");

        for (String page : List.of("index.html", "your-service/index.html", "findings/index.html", "results-service/about/index.html")) {
            Path file = site.resolve(page);
            assertThat(file).as(page).isRegularFile();
            if (!page.equals("index.html")) {
                assertThat(Files.readString(file)).as("%s: a table of contents", page).contains("md-nav--secondary");
            }
            Files.writeString(tmp.resolve("width.html"), WIDTH_PROBE.formatted(file.toUri(), 1366, 768));
            Matcher m = OUT
                    .matcher(browser("--virtual-time-budget=10000", "--window-size=1406,868", "--dump-dom", tmp.resolve("width.html").toUri().toString()));
            assertThat(m.find()).as(page).isTrue();
            JsonNode width = JsonMapper.builder().build().readTree(m.group(1).replace("&quot;", "\""));
            assertThat(width.path("scrollWidth").asInt()).as("%s: %s", page, width).isPositive().isLessThanOrEqualTo(width.path("clientWidth").asInt());
        }
        assertThat(Files.readString(site.resolve("your-service/index.html"))).as("README's links, where they land in the site")
                .contains("href=\"../results-service/visits-threads5/\"");
        assertThat(unreached(site)).as("published pages that no link of the site leads to").isEmpty();
    }

    private static final Pattern HREF = Pattern.compile("href=\"([^\"#?]+)");

    /** The published HTML pages under docs/ that no chain of links from the site's home page reaches. */
    private static List<String> unreached(Path site) throws IOException {
        Path docs = Lab.repo().resolve("docs");
        List<Path> published;
        try (var files = Files.walk(docs)) {
            published = files.filter(f -> f.toString().endsWith(".html")).map(f -> site.resolve(docs.relativize(f).toString()).normalize()).toList();
        }
        java.util.Set<Path> seen = new java.util.HashSet<>();
        java.util.ArrayDeque<Path> next = new java.util.ArrayDeque<>(List.of(site.resolve("index.html")));
        while (!next.isEmpty()) {
            Path page = next.poll();
            if (!seen.add(page) || !Files.isRegularFile(page)) {
                continue;
            }
            Matcher m = HREF.matcher(Files.readString(page));
            while (m.find()) {
                String href = m.group(1);
                if (href.matches("^[a-z]+:.*") || href.startsWith("/") || !(href.endsWith("/") || href.endsWith(".html"))) {
                    continue;
                }
                Path to = page.getParent().resolve(href).normalize();
                next.add(href.endsWith("/") ? to.resolve("index.html") : to);
            }
        }
        return published.stream().filter(p -> !seen.contains(p)).map(p -> site.relativize(p).toString()).sorted().toList();
    }

    @Test
    void aMissingChartIsSeen() throws Exception {
        SweepFolder sweep = publishedCopy();
        Files.delete(sweep.charts().resolve("p95-l100.svg"));

        JsonNode images = images();
        assertThat(images).filteredOn(i -> i.path("src").asString().equals("charts/p95-l100.svg"))
                .singleElement().satisfies(i -> assertThat(i.path("state").asString()).isEqualTo("failed"));
    }
}
