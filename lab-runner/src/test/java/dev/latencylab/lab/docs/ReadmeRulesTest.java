package dev.latencylab.lab.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import dev.latencylab.lab.Lab;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.summary.Summary;
import dev.latencylab.lab.sweep.Sweep;

/**
 * README's rules of thumb, each a predicate evaluated over every published sweep it speaks of, at every load there:
 * the range README states is the range where the predicate holds, and each figure beside it is its point's. A rule
 * that stops holding on the data, or a range edited, fails here naming the rule.
 */
class ReadmeRulesTest {

    private static final String README = read(Lab.repo().resolve("README.md"));
    /** The clear-text default sweeps with waits in memory: this README's own, and the TLS page's clear-text one. */
    private static final List<String> CLEAR_DEFAULT = List.of("docs/results", "docs/results-tls/default-h1");
    /** The sweeps with real I/O behind each request. */
    private static final List<String> REAL_IO = List.of("docs/results-db", "docs/results-http");
    /** "Clearly the least": this far below every other stack at the same load. */
    private static final double CLEAR_MARGIN = 0.10;

    private static String read(Path file) {
        try {
            return Files.readString(file).replaceAll("\\s+", " ");
        }
        catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static List<Summary.PointRow> points(String sweep) {
        return Sweep.points(new SweepFolder(Lab.repo().resolve(sweep))).stream().filter(Summary.PointRow::done)
                .filter(p -> p.cpu().serverCpuMsPerRequest() != null).toList();
    }

    private static Map<Integer, List<Summary.PointRow>> byUsers(String sweep) {
        return points(sweep).stream().collect(Collectors.groupingBy(p -> p.identity().users(), java.util.TreeMap::new, Collectors.toList()));
    }

    private static double cpu(Summary.PointRow p) {
        return p.cpu().serverCpuMsPerRequest();
    }

    /** The loads of a sweep where target used less server CPU per response than every other target by the margin. */
    private static SortedSet<Integer> clearlyLeast(String sweep, String target, double margin) {
        SortedSet<Integer> holds = new TreeSet<>();
        byUsers(sweep).forEach((users, at) -> {
            Summary.PointRow mine = at.stream().filter(p -> p.identity().target().equals(target)).findFirst().orElse(null);
            if (mine != null && at.stream().filter(p -> p != mine).allMatch(p -> cpu(p) >= cpu(mine) * (1 + margin))) {
                holds.add(users);
            }
        });
        return holds;
    }

    /** The least load from which the set holds at every load of the sweep up to its highest; null when it does not hold at the highest. */
    private static Integer from(String sweep, SortedSet<Integer> holds) {
        List<Integer> loads = List.copyOf(byUsers(sweep).keySet());
        Integer from = null;
        for (int i = loads.size() - 1; i >= 0 && holds.contains(loads.get(i)); i--) {
            from = loads.get(i);
        }
        return from;
    }

    @Test
    void withWaitsInMemoryWebfluxIsClearlyTheCheapestFromTheLoadReadmeNamesAndNotEverywhereBelow() {
        List<Integer> froms = CLEAR_DEFAULT.stream().map(s -> from(s, clearlyLeast(s, "webflux", CLEAR_MARGIN))).toList();
        assertThat(froms).as("it holds at the highest load of each sweep").doesNotContainNull();
        int from = froms.stream().mapToInt(Integer::intValue).max().orElseThrow();
        assertThat(README).contains("clearly the least server CPU per response (%.0f%% or more below every other stack) from %,d users, in both "
                .formatted(100 * CLEAR_MARGIN, from) + "clear-text default sweeps");

        Map<String, Summary.PointRow> here = points("docs/results").stream().collect(Collectors.toMap(p -> p.identity().point(), Function.identity()));
        Summary.PointRow webflux = here.get("webflux-l100-u%d".formatted(from));
        double next = byUsers("docs/results").get(from).stream().filter(p -> !p.identity().target().equals("webflux")).mapToDouble(ReadmeRulesTest::cpu)
                .min().orElseThrow();
        assertThat(README).contains("%.3f ms against %.3f at %,d users here".formatted(cpu(webflux), next, from));

        // below it, the order is not WebFlux's everywhere: the lightest load of this README's sweep, the cheapest named
        int lightest = byUsers("docs/results").keySet().iterator().next();
        Summary.PointRow cheapest = byUsers("docs/results").get(lightest).stream().min(java.util.Comparator.comparingDouble(ReadmeRulesTest::cpu))
                .orElseThrow();
        assertThat(cheapest.identity().target()).as("the sentence says another stack was cheaper at %,d users", lightest).isNotEqualTo("webflux");
        assertThat(README).contains("at %,d users %s used %.3f ms against WebFlux's %.3f".formatted(lightest, cheapest.identity().target(),
                cpu(cheapest), cpu(here.get("webflux-l100-u%d".formatted(lightest)))));
    }

    @Test
    void withRealIoNoStackIsTheCheapestAtEveryLoad() {
        for (String sweep : REAL_IO) {
            Map<Integer, List<Summary.PointRow>> loads = byUsers(sweep);
            Collection<String> cheapest = loads.values().stream()
                    .map(at -> at.stream().min(java.util.Comparator.comparingDouble(ReadmeRulesTest::cpu)).orElseThrow().identity().target())
                    .collect(Collectors.toSet());
            assertThat(cheapest).as("%s: the cheapest stack at each of its loads %s", sweep, loads.keySet()).hasSizeGreaterThan(1);
        }
        List<Integer> runs = REAL_IO.stream().flatMap(s -> points(s).stream()).map(p -> p.outcome().runs()).distinct().sorted().toList();
        assertThat(runs).as("the runs a point of real I/O has").containsExactly(1, 2);
        assertThat(README).contains("With real I/O no stack was the cheapest at every load (one or two runs a point;");
    }

    @Test
    void http2CutTheConnectionCapsKoOnlyWhereUsersSharedConnections() {
        Map<String, Summary.PointRow> tls = points("docs/results-tls/default").stream()
                .collect(Collectors.toMap(p -> p.identity().point(), Function.identity()));
        for (String stack : List.of("mvc-t200", "mvc-virtual", "webflux")) {
            for (Summary.PointRow h1 : tls.values().stream().filter(p -> p.identity().target().equals(stack + "-tls")).toList()) {
                int users = h1.identity().users();
                Summary.PointRow h2 = tls.get("%s-h2-l100-u%d".formatted(stack, users));
                if (Objects.requireNonNullElse(h1.requests().koPercent(), 0.0) == 0) {
                    continue;
                }
                boolean shared = "shared".equals(h1.pool().connections());
                assertThat(h2.requests().koPercent() < h1.requests().koPercent()).as("%s at %,d users (%s): HTTP/2 cut the KO of HTTP/1.1", stack, users,
                        h1.pool().connections()).isEqualTo(shared);
            }
        }
        Summary.PointRow shared = tls.get("mvc-t200-tls-l100-u20000");
        Summary.PointRow each = tls.get("mvc-t200-tls-l100-u10000");
        assertThat(shared.pool().connections()).isEqualTo("shared");
        assertThat(each.pool().connections()).isEqualTo("per-user");
        assertThat(README).contains("HTTP/2 cut the cap's KO only where users shared connections: %.1f%% against %.1f%% over HTTP/1.1 at 20,000 users"
                .formatted(tls.get("mvc-t200-h2-l100-u20000").requests().koPercent(), shared.requests().koPercent()))
                .contains("with a connection each it did not, %.1f%% against %.1f%% at 10,000".formatted(
                        tls.get("mvc-t200-h2-l100-u10000").requests().koPercent(), each.requests().koPercent()));
        assertThat(read(Lab.repo().resolve("docs/README.md"))).as("the docs' index says the same rule")
                .contains("where HTTP/2 ends the connection cap's KO for users sharing connections (20,000), not for users with a connection "
                        + "each (10,000)");
    }

    /** running.md's queue of requests waiting for a Reactor Netty connection: the highest its gauge read in each sweep it cites. */
    @Test
    void theWaitingForAReactorNettyConnectionRunningMdCitesIsTheDatas() throws IOException {
        String running = read(Lab.repo().resolve("docs/running.md"));
        java.util.function.ToLongFunction<String> highest = sweep -> {
            try (var files = Files.walk(Lab.repo().resolve(sweep).resolve("points"))) {
                return Math.round(files.filter(f -> f.getParent().getFileName().toString().startsWith("webflux-http-l"))
                        .filter(f -> f.getFileName().toString().equals("result.json")).map(dev.latencylab.load.result.ResultFile::read)
                        .mapToDouble(r -> r.server().connectionPool().pending().max()).max().orElseThrow());
            }
            catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
        long http = highest.applyAsLong("docs/results-http");
        long http2 = highest.applyAsLong("docs/results-http2");
        assertThat(Math.max(http, http2)).as("more than twice the pool of 16").isGreaterThan(32);
        assertThat(running)
                .contains("its pending gauge read up to %d for WebFlux's pool of 16 in [results-http](results-http/README.md) and %d in ".formatted(http,
                        http2));
    }
}
