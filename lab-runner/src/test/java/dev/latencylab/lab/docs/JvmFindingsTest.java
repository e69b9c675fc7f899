package dev.latencylab.lab.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import dev.latencylab.lab.Lab;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;

/**
 * What docs/findings.md says of the published JVM events holds in their data: the sweep without the recording has
 * none, the one with it has them in every run; at 20,000 users every MVC-on-virtual-threads run paused over a second
 * for the GC and WebFlux never over 100 ms; no virtual thread pinned, JDBC included.
 */
class JvmFindingsTest {

    private static List<Result> results(String sweep, String pointPrefix) throws IOException {
        try (Stream<Path> points = Files.list(Lab.repo().resolve("docs/results-jvm").resolve(sweep).resolve("points"))) {
            List<Result> found = points.filter(p -> p.getFileName().toString().startsWith(pointPrefix)).sorted()
                    .map(p -> ResultFile.read(p.resolve("result.json"))).toList();
            assertThat(found).as("%s/%s*", sweep, pointPrefix).isNotEmpty();
            return found;
        }
    }

    @Test
    void theRecordingIsThereExactlyWhereItRan() throws IOException {
        assertThat(results("off", "")).allMatch(r -> r.jvm() == null);
        assertThat(results("on", "")).hasSize(12).allMatch(r -> r.jvm() != null);
        assertThat(results("db", "")).allMatch(r -> r.jvm() != null);
    }

    @Test
    void atTwentyThousandUsersVirtualThreadsPauseForSecondsAndWebFluxDoesNot() throws IOException {
        assertThat(results("on", "mvc-virtual-l100-u20000")).hasSize(3).allSatisfy(r -> {
            assertThat(r.jvm().gc().longestMs()).isGreaterThan(1_000);
            assertThat(r.jvm().gc().totalMs()).isGreaterThan(2_000);
        });
        assertThat(results("on", "webflux-l100-u20000")).hasSize(3).allSatisfy(r -> assertThat(r.jvm().gc().longestMs()).isLessThan(100));
    }

    @Test
    void noVirtualThreadPinnedJdbcIncluded() throws IOException {
        for (String sweep : List.of("on", "db")) {
            assertThat(results(sweep, "")).allSatisfy(r -> assertThat(r.jvm().pinned().count()).isZero());
        }
        assertThat(results("db", "mvc-virtual-db")).hasSize(2);
    }
}
