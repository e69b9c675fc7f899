package dev.latencylab.lab.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import dev.latencylab.lab.Lab;
import dev.latencylab.lab.run.TargetRun;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;

/**
 * What docs/findings.md says of the published JDK 21 and JDK 25 sweeps holds in their data: on JDK 21 a wait inside
 * synchronized pins a carrier in every run, and above the carriers' C/L each run's goodput is C/L within 5%, moving
 * with P; on JDK 25 nothing pins and the same target follows the offered load; the wait outside a monitor
 * (mvc-virtual, /hello) follows it on both. The same for a real library: PostgreSQL's JDBC driver 42.5.6.
 */
class JdkFindingsTest {

    /** Above both carrier bounds (C/L: 20 and 10 req/s at 100 ms). */
    private static final double ABOVE = 25;

    private static List<Result> results(String sweep, String pointPrefix) throws IOException {
        return results(sweep, pointPrefix, 3);
    }

    private static List<Result> results(String sweep, String pointPrefix, int runs) throws IOException {
        try (Stream<Path> points = Files.list(Lab.repo().resolve("docs/results-jdk").resolve(sweep).resolve("points"))) {
            List<Result> found = points.filter(p -> p.getFileName().toString().startsWith(pointPrefix)).sorted()
                    .map(p -> ResultFile.read(p.resolve("result.json"))).toList();
            assertThat(found).as("%s/%s*", sweep, pointPrefix).hasSize(runs);
            return found;
        }
    }

    /** The rate of the JDBC sweeps: twice the 2 carriers' C/L at 100 ms, below the 10 connections' 100 req/s. */
    private static final double JDBC_RATE = 40;

    /**
     * PostgreSQL's JDBC driver 42.5.6 (-jdbc425) on virtual threads, JDK 21: each query pins its carrier, goodput held
     * at the carriers' C/L within 5%; the build's driver beside it, the same driver on platform threads and WebFlux
     * serve the rate; on JDK 25 all four serve it and nothing pins.
     */
    @Test
    void theOldJdbcDriverOnVirtualThreadsIsHeldAtItsCarriersOnJdk21Only() throws IOException {
        assertThat(results("jdbc21", "mvc-virtual-db-jdbc425-l100-rate40-", 2)).allSatisfy(r -> {
            assertThat(r.target().properties()).containsEntry("latency-lab.jdbc-driver", "42.5.6");
            assertThat(r.model().poolBoundPerSecond()).as("2 carriers / 100 ms").isEqualTo(20);
            assertThat(levelGoodput(r)).isCloseTo(20, within(20 * 0.05));
            assertThat(r.jvm().pinned().count()).isPositive();
            assertThat(String.join("\n", r.jvm().pinned().topStack())).as("the driver's read, inside its synchronized execute")
                    .startsWith("org.postgresql.core.VisibleBufferedInputStream").contains("org.postgresql.core.v3.QueryExecutorImpl.execute");
        });
        for (String control : List.of("mvc-virtual-db-l100", "mvc-t200-db-jdbc425-l100", "webflux-db-l100")) {
            assertThat(results("jdbc21", control + "-rate40-", 2)).as(control).allSatisfy(r -> {
                assertThat(levelGoodput(r)).isCloseTo(JDBC_RATE, within(JDBC_RATE * 0.05));
                assertThat(r.jvm().pinned().count()).isZero();
            });
        }
        for (String target : List.of("mvc-virtual-db-jdbc425-l100", "mvc-virtual-db-l100", "mvc-t200-db-jdbc425-l100", "webflux-db-l100")) {
            assertThat(results("jdbc25", target + "-rate40-", 2)).as(target).allSatisfy(r -> {
                assertThat(levelGoodput(r)).isCloseTo(JDBC_RATE, within(JDBC_RATE * 0.05));
                assertThat(r.jvm().pinned().count()).isZero();
            });
        }
    }

    private static double levelGoodput(Result r) {
        return r.open().topLevel().goodputPerSecond();
    }

    @Test
    void onJdk21EveryPinnedRunIsHeldAtItsCarriersOverL() throws IOException {
        for (int carriers : List.of(2, 1)) {
            String point = (carriers == 2 ? "mvc-virtual-pinned" : "mvc-virtual-pinned-c1") + "-l100-rate25-";
            assertThat(results("jdk21", point)).allSatisfy(r -> {
                assertThat(r.target().properties().get(TargetRun.JDK_PROPERTY)).startsWith("21.");
                assertThat(r.model().poolBoundPerSecond()).isEqualTo(carriers * 10.0);
                assertThat(levelGoodput(r)).as("C/L within 5%").isCloseTo(carriers * 10.0, within(carriers * 10.0 * 0.05));
                assertThat(r.jvm().pinned().count()).isPositive();
            });
        }
        // the default carriers are this machine's cores: two here
        assertThat(results("jdk21", "mvc-virtual-pinned-l100-rate25-"))
                .allSatisfy(r -> assertThat(r.target().properties()).doesNotContainKey("jdk.virtualThreadScheduler.parallelism"));
    }

    @Test
    void onJdk25NothingPinsAndTheSameTargetFollowsTheOfferedLoad() throws IOException {
        for (String target : List.of("mvc-virtual-pinned", "mvc-virtual-pinned-c1", "mvc-virtual")) {
            assertThat(results("jdk25", target + "-l100-rate25-")).allSatisfy(r -> {
                assertThat(r.target().properties()).doesNotContainKey(TargetRun.JDK_PROPERTY);
                assertThat(r.model().poolBoundPerSecond()).isNull();
                assertThat(levelGoodput(r)).isCloseTo(ABOVE, within(ABOVE * 0.05));
                assertThat(r.jvm().pinned().count()).isZero();
            });
        }
    }

    @Test
    void aWaitOutsideAMonitorIsTheSameOnBothJdks() throws IOException {
        for (String sweep : List.of("jdk21", "jdk25")) {
            assertThat(results(sweep, "mvc-virtual-l100-rate25-")).allSatisfy(r -> {
                assertThat(levelGoodput(r)).isCloseTo(ABOVE, within(ABOVE * 0.05));
                assertThat(r.jvm().pinned().count()).isZero();
            });
        }
    }
}
