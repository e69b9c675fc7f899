package dev.latencylab.lab;

import static dev.latencylab.lab.LabCommand.assertNoStackTrace;
import static org.assertj.core.api.Assertions.assertThat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import dev.latencylab.lab.flow.ExitCode;

/**
 * Bad input stops before anything starts: exit 2, one line that names the option and why (run in this JVM, as
 * ./lab's main runs it; LabCommandLineIT gives such input to ./lab itself).
 */
class BadInputIT {

    private static final Path SPLIT_RUN = Lab.repo().resolve("docs/results-injectors/webflux-l100-u20000-r1");

    @TempDir
    Path tmp;

    private Path console(String name) {
        return tmp.resolve(name + ".console");
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                Arguments.of(List.of("run", "--target", "mvc-t4", "-Dtarget=webflux"), "-Dtarget=webflux and --target mvc-t4: give the target once"),
                Arguments.of(List.of("run", "-Dtest.path=/hello/5", "--latency-ms", "50"), "-Dtest.path=/hello/5 and --latency-ms 50: give one"),
                Arguments.of(List.of("run", "--target", "mvc-t200", "-Dsim.model.threads=400"), "-Dsim.model.threads=400: mvc-t200's pool is 200"),
                Arguments.of(List.of("run", "--port", "0"), "--port 0: give a port from 1 to 64535"),
                Arguments.of(List.of("run", "--port", "65000"), "--port 65000: give a port from 1 to 64535 (the target's actuator listens on port + 1000"),
                Arguments.of(List.of("sweep", "--port", "64600"), "--port 64600: give a port from 1 to 64535"),
                Arguments.of(List.of("sweep", "--port", "9000", "--mvc-port", "9001"), "sweep --mvc-port: retired; give --port PORT"),
                Arguments.of(List.of("capacity", "--port", "0"), "--port 0: give a port"),
                Arguments.of(List.of("run", "--warmup-seconds", "-1"), "--warmup-seconds -1: give 0 or more seconds"),
                Arguments.of(List.of("run", "--latency-ms", "-5"), "--latency-ms -5: give 0 to 60,000 ms"),
                Arguments.of(List.of("capacity", "--latency-ms", "70000"), "--latency-ms 70000: give 1 to 60,000 ms"),
                Arguments.of(List.of("capacity", "--latency-ms", "-5"), "--latency-ms -5: give 1 to 60,000 ms"),
                Arguments.of(List.of("run", "--rates", "0.0001"), "sim.rate=1.0E-4 held for sim.level.seconds=60 plans no arrival"),
                Arguments.of(List.of("run", "--rates", "-3"), "sim.rate=-3: '-3' is not a positive number of requests per second"),
                Arguments.of(List.of("capacity", "--slo", "p99:fast"), "--slo p99:fast: give METRIC:NUMBER"),
                Arguments.of(List.of("capacity", "--start-rate", "0"), "--start-rate 0 and --max-rate 20,000: give 0 < start <= max"),
                Arguments.of(List.of("capacity", "--slo", "ko:1", "--max-ko-percent", "1"), "capacity --max-ko-percent: retired; give --slo ko:PERCENT"),
                Arguments.of(List.of("run", "--injectors", "1000", "--users", "1000"), "--injectors 1000: give 1 to "),
                Arguments.of(List.of("run", "--target", "mvc-t99999999999"), "target mvc-t99999999999: 99999999999 threads; give at most 100,000"),
                Arguments.of(List.of("sweep", "--name", "../../escape"), "--name '../../escape': give a single folder name"),
                Arguments.of(List.of("capacity", "--name", "a/b"), "--name 'a/b': give a single folder name"),
                Arguments.of(List.of("run", "--target", "mvc", "-Dserver.tomcat.max-threads=400", "--users", "500"),
                        "-Dserver.tomcat.max-threads: a setting of the server"),
                Arguments.of(List.of("run", "-Dfoo.bar=1"), "-Dfoo.bar: not a property of the simulation nor of Gatling"),
                Arguments.of(List.of("run", "--users", "500", "-Dsim.users=400"), "-Dsim.users: give --users instead"),
                Arguments.of(List.of("run", "--users", "0"), "sim.users=0"),
                Arguments.of(List.of("sweep", "-Dsim.users=5000"), "sweep -Dsim.users: ./lab sweep takes no -D property; give --users"),
                Arguments.of(List.of("capacity", "-Dsim.rate=50"),
                        "capacity -Dsim.rate: ./lab capacity takes no -D property; give --start-rate and --max-rate"),
                Arguments.of(List.of("run", "--url", "http://127.0.0.1:9/owners", "--header", "Authorization:"),
                        "--header Authorization: no value; give NAME: VALUE"),
                Arguments.of(List.of("run", "--url", "http://127.0.0.1:9/owners", "--jar", Lab.repo().resolve("pom.xml").toString(),
                        "--jar-start-seconds", "0"), "--jar-start-seconds 0: give 1 or more seconds"),
                Arguments.of(List.of("run", "--url", "http://127.0.0.1:9/owners", "--jar", "/no-such.jar"), "--jar /no-such.jar: no such file"),
                Arguments.of(List.of("sweep", "--results", "/proc/no-such"), "--results /proc/no-such: cannot make that folder"),
                Arguments.of(List.of("capacity", "--results", "/proc/no-such"), "/proc/no-such: cannot make that folder"),
                Arguments.of(List.of("merge", SPLIT_RUN.resolve("injector-0").toString(), SPLIT_RUN.resolve("injector-1").toString(),
                        "--out", "/proc/no-such/run"), "--out /proc/no-such/run: cannot make that folder"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void badInputStopsBeforeAnythingStarts(List<String> args, String expected) {
        LabCommand.Finished lab = LabCommand.inThisJvm(args.toArray(String[]::new));
        assertThat(lab.exitCode()).as(lab.output()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(lab.output()).contains(expected).doesNotContain("starting").doesNotContain("capacity of").doesNotContain("live view:");
        assertNoStackTrace(lab.output());
    }

    @Test
    void aLevelTooShortForAPercentileWritesNothing() {
        LabCommand.Finished level = LabCommand.inThisJvm("capacity", "--level-seconds", "2", "--results", tmp.toString(), "--name", "short");
        assertThat(level.exitCode()).as(level.output()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(level.output()).contains("sim.level.seconds=2 is out of range; allowed: a whole number from 5 to 86400");
        assertThat(tmp.resolve("short")).as("nothing written").doesNotExist();
    }

    /** Refusals said before any folder is made: a live view's port taken, a --ca-cert that is not a certificate. */
    @Test
    void aTakenLivePortOrAnUnreadableCaCertLeavesNoFolder() throws IOException {
        Path results = Files.createDirectories(tmp.resolve("results"));
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            String port = String.valueOf(taken.getLocalPort());
            for (List<String> args : List.of(List.of("run", "--target", "webflux", "--users", "1"), List.of("sweep", "--targets", "webflux",
                    "--users", "1", "--name", "s"), List.of("capacity", "--target", "webflux", "--name", "c"))) {
                List<String> all = new java.util.ArrayList<>(args);
                all.addAll(List.of("--live-port", port, "--results", results.toString()));
                LabCommand.Finished lab = LabCommand.inThisJvm(all.toArray(String[]::new));
                assertThat(lab.exitCode()).as(lab.output()).isEqualTo(ExitCode.BAD_INPUT);
                assertThat(lab.output()).contains("--live-port %s: cannot listen there".formatted(port)).doesNotContain("starting");
            }
        }
        LabCommand.Finished pem = LabCommand.inThisJvm("sweep", "--url", "https://127.0.0.1:9/owners", "--ca-cert", Lab.repo().resolve("pom.xml").toString(),
                "--users", "1", "--results", results.toString(), "--name", "tls");
        assertThat(pem.exitCode()).as(pem.output()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(pem.output()).contains("not a certificate file that can be read");
        try (java.util.stream.Stream<Path> left = Files.list(results)) {
            assertThat(left).as("no folder made").isEmpty();
        }
    }

    @Test
    void aResultsFolderThatIsAFileIsOneLine() throws IOException {
        Path repo = tmp.resolve("repo");
        Files.createDirectories(repo.resolve("results"));
        Files.writeString(repo.resolve("results/runs"), "a file where the runs' folder goes");
        LabCommand.Finished run = LabCommand.run(console("runs-file"), "--repo", repo.toString(), "run");
        assertThat(run.exitCode()).as(run.output()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(run.output()).contains("results/runs: cannot make that folder").contains("exists");
        assertNoStackTrace(run.output());
    }
}
