package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.load.live.LiveSample;
import dev.latencylab.load.result.Json;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.lab.docs.Published;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.page.RunPage;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.run.Overhead;
import dev.latencylab.lab.run.PointRecord;
import dev.latencylab.lab.run.TargetProcess;
import dev.latencylab.lab.summary.ResultsTable;
import dev.latencylab.lab.sweep.Sweep;
import dev.latencylab.lab.flow.ExitCode;

/**
 * The ways a run can go wrong, tried through the real command line ({@code ./lab} in its own process, real targets,
 * real Gatling runs): each must stop the run or mark its result, with the documented exit code.
 */
class LabCommandLineIT {

    @TempDir
    Path tmp;

    private final int port = Lab.freePort();

    /** A tiny run: 30 users, 2 requests each. */
    private String[] run(String... more) {
        return run(30, 2, 20, 60, more);
    }

    /** A run of these users, requests each and think times, over a 2-s ramp. */
    private String[] run(int users, int requestsPerUser, int thinkMinMs, int thinkMaxMs, String... more) {
        List<String> args = new ArrayList<>(List.of("run", "--port", String.valueOf(port), "--warmup-seconds", "1", "--no-gatling-report",
                "--users", String.valueOf(users), "--requests-per-user", String.valueOf(requestsPerUser), "--ramp-seconds", "2",
                "--think-min-ms", String.valueOf(thinkMinMs), "--think-max-ms", String.valueOf(thinkMaxMs)));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    /** A tiny sweep of one webflux point: 4 users, 2 requests each. */
    private String[] sweep(String name, int repeat, int thinkMinMs) {
        return new String[] {"sweep", "--targets", "webflux", "--users", "4", "--ramp-seconds", "1", "--no-gatling-report",
                "--requests-per-user", String.valueOf(repeat), "--think-min-ms", String.valueOf(thinkMinMs),
                "--think-max-ms", String.valueOf(thinkMinMs + 1000), "--warmup-seconds", "1", "--drain-seconds", "10",
                "--port", String.valueOf(port),
                "--results", tmp.resolve("results").toString(), "--name", name};
    }

    private Path console(String name) {
        return tmp.resolve(name + ".console");
    }

    // 1. resume: SweepIT (extended, resumed, changed settings refused); after a signal: 3

    // 2. two runs, one port

    @Test
    void twoRunsOnOnePortNeverMeasureOneServerTwice() throws IOException {
        LabCommand a = LabCommand.start(console("a"), run("--label", "commit abc123"));
        LabCommand b = LabCommand.start(console("b"), run("--label", "commit abc123"));
        int exitA = a.await(Duration.ofMinutes(4));
        int exitB = b.await(Duration.ofMinutes(4));

        assertThat(List.of(exitA, exitB)).as(a.output() + "\n----\n" + b.output()).containsExactlyInAnyOrder(0, 1);
        LabCommand winner = exitA == 0 ? a : b;
        LabCommand loser = exitA == 0 ? b : a;
        // in use at its check, or bound by the other JVM first: either way named, and nothing measured
        assertThat(loser.output()).containsAnyOf("port " + port + " is in use", "are served by another process",
                "Port " + port + " was already in use");
        assertThat(loser.output()).doesNotContain("Result file: /");

        long targetPid = Long.parseLong(winner.awaitLine("target pid ([0-9]+) warmed up", Duration.ZERO));
        Result result = ResultFile.read(Path.of(winner.awaitLine("^Result file: (.+)$", Duration.ZERO)));
        assertThat(result.server().process().pid()).as("the server measured is the one this run started").isEqualTo(targetPid);
        assertThat(result.problems()).isEmpty();
        assertThat(result.label()).as("--label, kept in the result for ./lab history").isEqualTo("commit abc123");
        // watched live: its view's address said first, its seconds (live.jsonl) adding up to its result
        assertThat(winner.output()).contains("latency-lab: live view: http://127.0.0.1:")
                .containsPattern("(?m)^latency-lab: live [0-9]+ s: [0-9]+ users, [0-9,]+ OK").as("in a pipe: plain lines").doesNotContain("\r", "\033");
        List<LiveSample> seconds = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of(folder(winner)).resolve(LiveSample.FILE))) {
            seconds.add(Json.MAPPER.readValue(line, LiveSample.class));
        }
        assertThat(seconds.getLast().ok()).isEqualTo(result.requests().ok());
        assertThat(seconds.stream().mapToLong(LiveSample::completed).sum()).isEqualTo(result.requests().total());
        // the target's flight recording, written at its exit, read into the result within the run's window
        assertThat(result.jvm()).as("JVM events").isNotNull();
        assertThat(Path.of(folder(winner)).resolve(result.jvm().recording())).isNotEmptyFile();
        assertThat(result.jvm().gc().msPerSecond()).hasSize((int) Math.ceil(result.durationSeconds()));
        assertThat(result.jvm().tls()).as("clear text: no TLS handshake").isNull();
        assertThat(Files.readString(RunPage.of(Path.of(folder(winner)).resolve("result.json")))).contains("the target's JVM")
                .contains("virtual threads pinned (20 ms or more): 0");
        assertThat(folder(a)).isNotEqualTo(folder(b));
        assertStartedFromAotCaches(Path.of(folder(winner)));
        // the overhead the run printed is the one its point.json records: before the first request (the 1 s warm-up
        // among it) and after the last response
        Overhead.Recorded overhead = PointRecord.read(new RunFolder(Path.of(folder(winner)))).ended().overheadSeconds();
        assertThat(winner.output()).contains("overhead %.1f s beside the scenario's".formatted(overhead.total()),
                "%.1f s to the first request (the warm-up's 1 s among them), %.1f s from the last response".formatted(
                        overhead.beforeFirstRequest(), overhead.afterLastResponse()));
        assertThat(overhead.warmup()).isEqualTo(1);
        assertThat(overhead.beforeFirstRequest()).isGreaterThan(overhead.warmup());
        assertThat(overhead.afterLastResponse()).isPositive();
    }

    /**
     * On JDK 25+, the build trained AOT caches (tools/TargetLaunch.java, GatlingTraining): the target and Gatling
     * started from them (their logs' first lines are their commands), and neither JVM refused its cache (it says so in
     * "[aot]" error lines, then starts without it: seconds slower, silently).
     */
    private static void assertStartedFromAotCaches(Path run) throws IOException {
        if (Runtime.version().feature() < 25) {
            return;
        }
        for (String log : List.of("target.log", "gatling.log")) {
            List<String> lines = Files.readAllLines(run.resolve(log));
            assertThat(lines.get(0)).as(log + ": the command").contains("-XX:AOTCache=");
            // the JVM pads the level or not, by its log decorations: "[error][aot]" and "[error  ][aot]" alike
            assertThat(lines).as(log).noneMatch(l -> l.matches(".*\\[error *\\]\\[aot\\].*"));
        }
    }

    private static String folder(LabCommand run) {
        return run.awaitLine("\\(run folder: (.+)\\)", Duration.ZERO);
    }

    // 3. signals

    @Test
    void aSignalToTheFrontEndAloneEndsEverythingAndSaysHowToResume() throws Exception {
        LabCommand lab = LabCommand.start(console("term"), sweep("signalled", 2, 3000));
        awaitSimulation(lab, "signalled");
        lab.terminate(); // SIGTERM to ./lab's process only, not its group

        assertThat(lab.await(Duration.ofMinutes(2))).isEqualTo(128 + 15);
        assertThat(lab.output()).contains("run the same command with --name signalled to resume");
        assertNothingLeft();
        assertThat(tmp.resolve("results/signalled/points/webflux-l100-u4-r1/point.json")).as("the stopped point is not recorded").doesNotExist();

        LabCommand.Finished resumed = LabCommand.run(console("resumed"), sweep("signalled", 2, 3000));
        assertThat(resumed.exitCode()).as(resumed.output()).isZero();
        assertThat(resumed.output()).contains("resuming");
    }

    @Test
    void ctrlCToTheWholeGroupEndsEverythingAndSaysHowToResume() throws Exception {
        // setsid: ./lab leads a process group of its own, as in a terminal, so the group can be signalled like Ctrl-C.
        // A terminal's programs take SIGINT; a JVM started with it ignored keeps ignoring it (as under nohup), and these
        // tests may run under a launcher that ignores it (a background job of a script): restore it first.
        LabCommand lab = LabCommand.start(console("int"), List.of("python3", "-c", SIGINT_AS_IN_A_TERMINAL, "setsid"),
                sweep("interrupted", 2, 3000));
        awaitSimulation(lab, "interrupted");
        Process kill = new ProcessBuilder("kill", "-INT", "--", "-" + lab.pid()).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0).as("kill -INT to the group").isTrue();

        assertThat(lab.await(Duration.ofMinutes(2))).isEqualTo(128 + 2);
        assertThat(lab.output()).contains("run the same command with --name interrupted to resume");
        assertNothingLeft();
    }

    /** Runs its arguments with SIGINT's default action, whatever this JVM inherited. */
    private static final String SIGINT_AS_IN_A_TERMINAL = "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])";

    /** Waits until the sweep's only point is inside its Gatling run: its users think 3-4 s between their 2 requests. */
    private void awaitSimulation(LabCommand lab, String name) throws IOException {
        lab.awaitLine("\\[1/1\\] webflux users=4 run 1 latency=100 ms  starting", Duration.ofMinutes(2));
        Path log = tmp.resolve("results").resolve(name).resolve("points/webflux-l100-u4-r1/gatling.log");
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (!(Files.isRegularFile(log) && Files.readString(log).contains("latency-lab: 4 users over"))) {
            assertThat(System.nanoTime()).as("the simulation started").isLessThan(deadline);
            TargetProcess.sleep(200);
        }
        TargetProcess.sleep(2000);
    }

    /** No target, Maven or Gatling JVM of this test is left, and the target's ports are free. */
    private void assertNothingLeft() throws IOException {
        assertThat(ProcessHandle.allProcesses().filter(p -> {
            String cmd = p.info().commandLine().orElse("");
            return cmd.contains("--server.port=" + port) || cmd.contains(tmp.toString());
        }).map(p -> p.pid() + " " + p.info().commandLine().orElse(""))).as("processes left").isEmpty();
        for (int p : new int[] {port, TargetProcess.managementPort(port)}) {
            try (ServerSocket free = new ServerSocket(p, 1, InetAddress.getLoopbackAddress())) {
                assertThat(free.getLocalPort()).isEqualTo(p);
            }
        }
    }

    // 4, 5. properties and paths

    @Test
    void aMisspeltPropertyStopsBeforeAnyTargetStarts() {
        LabCommand.Finished run = LabCommand.run(console("typo"), run("-Dsim.user=5"));
        assertThat(run.exitCode()).as(run.output()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(run.output()).contains("sim.user is not a property of the simulation (a typo?); did you mean sim.users?")
                .doesNotContain("starting webflux");
        assertNoStackTrace(run.output());
    }

    @Test
    void aPathThatIsNotAPlainPathStopsBeforeAnyTargetStarts() {
        LabCommand.Finished run = LabCommand.run(console("expression"), run("-Dtest.path=/hello/#{x}"));
        assertThat(run.exitCode()).as(run.output()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(run.output()).contains("test.path=/hello/#{x} is not a URL path").doesNotContain("starting webflux");
    }

    @Test
    void aPathTheTargetRejectsStopsBeforeAnyLoad() {
        LabCommand.Finished run = LabCommand.run(console("rejected"), run("-Dtest.path=/hello/-1"));
        assertThat(run.exitCode()).as(run.output()).isEqualTo(ExitCode.FAILED);
        assertThat(run.output()).contains("the target answers GET http://localhost:" + port + "/hello/-1 with HTTP 400, not 2xx")
                .contains("latency '-1' is out of range").doesNotContain("users over");
    }

    @Test
    void aRunInWhichEveryRequestFailedFails() throws Exception {
        // every request times out after 50 ms; the target itself answers (preflight) in 100 ms
        LabCommand.Finished run = LabCommand.run(console("all-ko"), run("-Dgatling.http.requestTimeout=50"));
        assertThat(run.exitCode()).as(run.output()).isEqualTo(ExitCode.FAILED);
        assertThat(run.output()).contains("RUN FAILED: every request failed (60 KO: {no response: request timeout (50 ms)=60})");
        Path result = Path.of(run.output().lines().filter(l -> l.startsWith("Result file: ")).findFirst().orElseThrow().substring(13));
        assertThat(ResultFile.problems(result)).containsExactly("every request failed (60 KO: {no response: request timeout (50 ms)=60})");
    }

    // 6. a target that dies

    @Test
    void aTargetThatDiesMidRunFailsTheRunAndIsRecorded() throws Exception {
        LabCommand lab = LabCommand.start(console("killed"), run(40, 7, 500, 1000));
        long targetPid = Long.parseLong(lab.awaitLine("target pid ([0-9]+) warmed up", Duration.ofMinutes(2)));
        lab.awaitLine("latency-lab: 40 users over", Duration.ofMinutes(2));
        TargetProcess.sleep(3000); // into the run: its last user, started within 2 s, needs at least 4 s more
        ProcessHandle target = ProcessHandle.of(targetPid).orElseThrow();
        assertThat(new ProcessBuilder("kill", "-9", String.valueOf(targetPid)).start().waitFor()).isZero();
        target.onExit().get(10, TimeUnit.SECONDS);

        assertThat(lab.await(Duration.ofMinutes(3))).as(lab.output()).isEqualTo(ExitCode.FAILED);
        assertThat(lab.output()).contains("RUN FAILED: the target JVM (pid " + targetPid + ") exited");
        Result result = ResultFile.read(Path.of(lab.awaitLine("^Result file: (.+)$", Duration.ZERO)));
        assertThat(result.server().process().exitedAtSecond()).isBetween(1.0, 60.0);
        assertThat(result.server().sampling().refusedSamples()).isPositive();
        assertThat(String.join("; ", result.problems())).contains("exited").contains("refused connections");
    }

    // 8. exit codes and messages

    @Test
    void badInputExitsTwoWithTheMessageAndAHintOnly() {
        LabCommand.Finished users = LabCommand.run(console("users"), "sweep", "--users", "1k");
        assertThat(users.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(users.output()).isEqualTo("latency-lab: Invalid value for option '--users' (<users>): '1k' is not an int\n"
                + "Try './lab sweep --help'.\n");

        LabCommand.Finished target = LabCommand.run(console("target"), "run", "--target", "tomcat");
        assertThat(target.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(target.output()).startsWith("latency-lab: unknown target 'tomcat'; known: mvc (= mvc-t200)");
        assertNoStackTrace(target.output());

        LabCommand.Finished label = LabCommand.run(console("label"), "sweep", "--label", "two\nlines");
        assertThat(label.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(label.output()).isEqualTo("latency-lab: --label (with a control character): give one line of text, up to 200 characters "
                + "(a commit, a version)\n");

        LabCommand.Finished notASweep = LabCommand.run(console("report"), "report", tmp.resolve("no sweep here").toString());
        assertThat(notASweep.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(notASweep.output()).contains("is not a sweep folder");
        assertThat(tmp.resolve("no sweep here")).doesNotExist();
    }

    @Test
    void argumentsWithSpacesReachTheRunnerWhole() throws Exception {
        Path published = Lab.repo().resolve("docs/results-db");
        Path sweep = tmp.resolve("my sweep");
        Lab.copyTree(published, sweep);
        LabCommand.Finished report = LabCommand.run(console("space"), "report", sweep.toString(), "--markdown");
        assertThat(report.exitCode()).as(report.output()).isZero();
        assertThat(report.output()).isEqualTo(ResultsTable.markdown(Sweep.points(new SweepFolder(published)))).contains("| 400 |");
        // the table is the runs': a folder holding only a summary.csv is refused, not printed empty
        Path csvOnly = Files.createDirectories(tmp.resolve("only a csv"));
        Files.copy(published.resolve("summary.csv"), csvOnly.resolve("summary.csv"));
        LabCommand.Finished refused = LabCommand.inThisJvm("report", csvOnly.toString(), "--markdown");
        assertThat(refused.exitCode()).as(refused.output()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(refused.output()).contains(csvOnly + " has no points/");
    }

    /** ./lab report of a sweep folder that holds only its data (sweep.json, points): its summary and page, as published. */
    @Test
    void reportRebuildsASweepFromItsResultFiles() throws Exception {
        Path published = Lab.repo().resolve("docs/results-injectors-open/k2");
        Path copy = tmp.resolve("copy").resolve(published.getFileName().toString()); // the same folder name: the page's title names it
        try (var files = Files.walk(published)) {
            for (Path f : files.toList()) {
                Path to = copy.resolve(published.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                }
                else if (!Published.derived(Lab.repo().relativize(f).toString())) {
                    Files.copy(f, to); // only what the report reads: sweep.json and the points
                }
            }
        }
        LabCommand.Finished report = LabCommand.inThisJvm("report", copy.toString());
        assertThat(report.exitCode()).as(report.output()).isZero();
        SweepFolder rebuilt = new SweepFolder(copy);
        assertThat(rebuilt.summaryCsv()).hasSameBinaryContentAs(published.resolve("summary.csv"));
        assertThat(rebuilt.page()).hasSameBinaryContentAs(published.resolve("index.html"));
    }

    @Test
    void helpListsEveryPropertyOfTheSimulationAndEveryExitCode() {
        LabCommand.Finished help = LabCommand.run(console("help"), "run", "--help");
        assertThat(help.exitCode()).isZero();
        assertThat(dev.latencylab.load.settings.SimulationProperties.PROPERTIES).hasSizeGreaterThan(20).allSatisfy(
                p -> assertThat(help.output()).contains("-D" + p.name() + "  [" + p.defaultValue().substring(0, Math.min(20, p.defaultValue().length()))));
        assertThat(help.output()).contains("-Dsim.users  [1000]").contains("-Dsim.injection  [closed]");
        LabCommand.Finished lab = LabCommand.run(console("lab-help"), "--help");
        assertThat(lab.exitCode()).isZero();
        assertThat(lab.output()).as("every command's help ends with ./lab's exit codes").contains("Exit codes:")
                .containsPattern("(?m)^ +2 +bad input: an unknown option").containsPattern("(?m)^ +130, 143 +stopped by Ctrl-C or SIGTERM");
        assertThat(help.output()).contains("Exit codes:");
    }

    @Test
    void versionNamesWhatItRunsWith() {
        LabCommand.Finished version = LabCommand.run(console("version"), "--version");
        assertThat(version.exitCode()).isZero();
        assertThat(version.output()).containsPattern("latency-lab [0-9]").containsPattern("Gatling [0-9.]+")
                .containsPattern("Spring Boot [0-9.]+").contains("JDK ");
    }

    private static void assertNoStackTrace(String output) {
        assertThat(output).doesNotContain("Exception").doesNotContain("\tat ").doesNotContain("[ERROR]");
    }
}
