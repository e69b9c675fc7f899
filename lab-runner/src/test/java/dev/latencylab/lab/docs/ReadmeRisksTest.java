package dev.latencylab.lab.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import dev.latencylab.lab.Lab;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.summary.MachineCeiling;
import dev.latencylab.lab.summary.Points;
import dev.latencylab.lab.summary.Summary;
import dev.latencylab.lab.sweep.Sweep;
import dev.latencylab.lab.targets.Target;
import dev.latencylab.load.result.ResultFile;

/**
 * README's risks of each choice hold in the published data they cite: each figure is what its file gives, and each
 * comparison goes the way the sentence says.
 */
class ReadmeRisksTest {

    private static final String README = read(Lab.repo().resolve("README.md")).replaceAll("\\s+", " ");

    private static String read(Path file) {
        try {
            return Files.readString(file);
        }
        catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Summary.PointRow point(String sweep, String target, int users) {
        var runs = Sweep.rows(new SweepFolder(Lab.repo().resolve(sweep)));
        Map<String, Summary.PointRow> points = Points.of(runs, MachineCeiling.of(runs)).stream()
                .collect(Collectors.toMap(p -> p.identity().point(), Function.identity()));
        Summary.PointRow p = points.get("%s-l100-u%d".formatted(target, users));
        assertThat(p).as("%s in %s", target, sweep).isNotNull();
        return p;
    }

    private static String group(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertThat(m.find()).as(regex).isTrue();
        return m.group(1);
    }

    @Test
    void blockingInsideWebFluxAndClientsThatLeft() {
        String abandoned = read(Lab.repo().resolve("docs/results/abandoned-requests.txt"));
        assertThat(abandoned).contains(" 2 cores,").contains("two /block/5000 on the parallel scheduler").contains("500 clients of /hello/60000");
        double alone = Double.parseDouble(group(abandoned, "/hello/100 alone answered in ([0-9.]+) s"));
        double blocked = Double.parseDouble(group(abandoned, "/hello/100 sent 0.3 s after them answered in ([0-9.]+) s"));
        assertThat(alone).as("a 100-ms request alone").isLessThan(0.2);
        assertThat(README).contains("two 5-s sleeps on its 2 threads held a 100-ms request for %.2f s".formatted(blocked));

        String mvc = abandoned.substring(abandoned.indexOf("## mvc-with-latency"), abandoned.indexOf("## webflux-with-latency"));
        String webflux = abandoned.substring(abandoned.indexOf("## webflux-with-latency"));
        double waited = Double.parseDouble(group(mvc, "/hello first answered ([0-9.]+) s after the clients gave up"));
        assertThat(group(mvc, "hello.cancelled=([0-9.]+)")).as("MVC cancelled none").isEqualTo("0.0");
        assertThat(group(webflux, "hello.cancelled=([0-9.]+)")).as("WebFlux cancelled them all").isEqualTo("500.0");
        assertThat(README).contains("after 500 gave up, a new request waited %.1f s; WebFlux cancelled all 500 at once".formatted(waited));
    }

    @Test
    void virtualThreadsFailFastAtAFullPoolWherePlatformThreadsQueue() {
        Summary.PointRow virtual = point("docs/results-db", "mvc-virtual-db", 1600);
        Summary.PointRow platform = point("docs/results-db", "mvc-t200-db", 1600);
        assertThat(Target.parse("mvc-t200-db").properties()).containsEntry("server.tomcat.threads.max", "200");
        assertThat(virtual.pool().poolThreads()).as("HikariCP's 10 connections, the model's pool").isEqualTo(10);
        assertThat(virtual.requests().topKoReason()).isEqualTo("HTTP 503");
        assertThat(virtual.requests().koPercent()).isGreaterThan(platform.requests().koPercent());
        assertThat(platform.latency().p95Ms().median()).as("the platform threads' queue has no timeout: slower")
                .isGreaterThan(virtual.latency().p95Ms().median());
        assertThat(README).contains("%.1f%% HTTP 503 against %.1f%% on 200 platform threads".formatted(virtual.requests().koPercent(),
                platform.requests().koPercent())).contains("(HikariCP, 1,600 users;");
    }

    @Test
    void theHttpClientsDefaultPoolsDiffer() {
        Summary.PointRow t200 = point("docs/results-http", "mvc-t200-http", 100);
        Summary.PointRow virtual = point("docs/results-http", "mvc-virtual-http", 100);
        Summary.PointRow webflux = point("docs/results-http", "webflux-http", 100);
        assertThat(t200.pool().poolThreads()).isEqualTo(5);
        assertThat(virtual.pool().poolThreads()).isEqualTo(5);
        double low = Math.min(t200.rates().goodput().median(), virtual.rates().goodput().median());
        double high = Math.max(t200.rates().goodput().median(), virtual.rates().goodput().median());
        assertThat(high).as("5 connections over 100 ms").isLessThanOrEqualTo(50);
        assertThat(README).contains("5 connections to a host on MVC (%.0f–%.0f req/s at 100 users), %d on WebFlux".formatted(low, high,
                webflux.pool().poolThreads()));
    }

    @Test
    void whereThePostgresRefusesConnectionsR2dbcPoolFailsAndHikariWaits() {
        Summary.PointRow webflux = point("docs/results-db-maxconn", "webflux-db-p50-pg20", 400);
        for (String mvc : new String[] {"mvc-t200-db-p50-pg20", "mvc-virtual-db-p50-pg20"}) {
            Double ko = point("docs/results-db-maxconn", mvc, 400).requests().koPercent();
            assertThat(ko == null ? 0 : ko).as(mvc + ": none").isZero();
        }
        assertThat(webflux.requests().topKoReason()).isEqualTo("HTTP 503");
        assertThat(README).contains("r2dbc-pool fails while HikariCP waits:** %.1f%% HTTP 503 at 400 users against none"
                .formatted(webflux.requests().koPercent()));
    }

    @Test
    void virtualThreadsPausedForTheGcOverASecondAndWebFluxNever100Ms() throws IOException {
        try (Stream<Path> points = Files.list(Lab.repo().resolve("docs/results-jvm/on/points"))) {
            Map<String, List<Double>> longest = points.filter(p -> p.getFileName().toString().contains("-u20000-"))
                    .collect(Collectors.groupingBy(p -> p.getFileName().toString().replaceAll("-l100-.*", ""),
                            Collectors.mapping(p -> ResultFile.read(p.resolve("result.json")).jvm().gc().longestMs(), Collectors.toList())));
            assertThat(longest.get("mvc-virtual")).as("every run's longest pause").hasSize(3).allMatch(ms -> ms > 1_000);
            assertThat(longest.get("webflux")).hasSize(3).allMatch(ms -> ms < 100);
        }
        assertThat(README).contains("At 20,000 users MVC on virtual threads paused for the GC over a second, WebFlux never over 100 ms");
    }
}
