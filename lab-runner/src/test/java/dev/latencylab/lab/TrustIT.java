package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import dev.latencylab.load.result.HistogramCodec;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.lab.layout.FolderLock;
import dev.latencylab.lab.layout.Folders;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.layout.SearchFolder;
import dev.latencylab.lab.run.PointRecord;
import dev.latencylab.lab.run.TargetProcess;
import dev.latencylab.lab.flow.ExitCode;
import dev.latencylab.lab.run.Status;

/**
 * Paths to a wrong number that exited 0, found by an adversarial trial of the newer surfaces (merge, folders shared
 * by two commands, dependencies that die, searches cut short, options out of range), each tried through the real
 * command line: it must now be refused or recorded, with the documented exit code and one line that says why.
 */
class TrustIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Path SPLIT_RUN = Lab.repo().resolve("docs/results-injectors/webflux-l100-u20000-r1");

    @TempDir
    Path tmp;

    private Path console(String name) {
        return tmp.resolve(name + ".console");
    }

    // 1. a merge checks its parts

    /** One published injector file, edited as the trial edited it: each edit refused by name, nothing written. */
    static Stream<Arguments> tamperedParts() {
        return Stream.of(
                Arguments.of("a histogram with another count", (Consumer<ObjectNode>) r -> {
                    // a digit of the counts' array, changed so that it still decodes (found by trying): the values it holds change
                    String data = r.get("histogram").get("data").asString();
                    ((ObjectNode) r.get("histogram")).put("data", decodableEdit(data));
                }, "histogram holds"),
                Arguments.of("a negative ok", (Consumer<ObjectNode>) r -> ((ObjectNode) r.get("requests")).put("ok", -288_909),
                        "requests.ok is -288,909; a count cannot be negative"),
                Arguments.of("a raised total", (Consumer<ObjectNode>) r -> ((ObjectNode) r.get("requests")).put("total", 301_000),
                        "requests: ok 288,909 + ko 11,091 is not total 301,000"),
                Arguments.of("KO reasons that do not sum to KO", (Consumer<ObjectNode>) r -> {
                    ObjectNode reasons = (ObjectNode) r.get("requests").get("koByReason");
                    String first = reasons.propertyNames().iterator().next();
                    reasons.put(first, reasons.get(first).asLong() + 5);
                }, "requests.koByReason sums to 11,096, not ko 11,091"),
                Arguments.of("an unknown schema", (Consumer<ObjectNode>) r -> r.put("schema", "latency-lab/result/9"),
                        "schema is latency-lab/result/9; this version reads latency-lab/result/1"),
                Arguments.of("another histogram encoding", (Consumer<ObjectNode>) r -> ((ObjectNode) r.get("histogram")).put("encoding", "HdrHistogram V2"),
                        "histogram: encoding \"HdrHistogram V2\""),
                Arguments.of("a histogram that does not decode",
                        (Consumer<ObjectNode>) r -> ((ObjectNode) r.get("histogram")).put("data", "bm90IGEgaGlzdG9ncmFt"),
                        "histogram.data does not decode as an HdrHistogram"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tamperedParts")
    void aPartThatDoesNotAddUpIsRefusedByNameAndNothingIsWritten(String what, Consumer<ObjectNode> edit, String expected) throws IOException {
        Path part = tmp.resolve("injector-0.json");
        ObjectNode r = (ObjectNode) JSON.readTree(SPLIT_RUN.resolve("injector-0/result.json").toFile());
        edit.accept(r);
        JSON.writeValue(part.toFile(), r);
        Path out = tmp.resolve("merged");

        LabCommand.Finished merge = LabCommand.inThisJvm("merge", part.toString(),
                SPLIT_RUN.resolve("injector-1/result.json").toString(), "--out", out.toString());

        assertThat(merge.exitCode()).as(merge.output()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(merge.output()).startsWith("latency-lab: " + part + ": ").contains(expected);
        assertThat(merge.output().lines().count()).as("one line").isEqualTo(1);
        assertNoStackTrace(merge.output());
        try (Stream<Path> files = Files.list(tmp)) {
            assertThat(files.map(f -> f.getFileName().toString())).as("nothing written").containsExactly("injector-0.json");
        }
    }

    /** The same check stands before a sweep's page: a point's edited result stops the report with its name. */
    @Test
    void aReportRefusesAPointThatDoesNotAddUp() throws IOException {
        Path sweep = tmp.resolve("sweep");
        Lab.copyTree(Lab.repo().resolve("docs/results-http"), sweep);
        Path point = sweep.resolve("points/webflux-http-l100-u100-r1/result.json");
        ObjectNode r = (ObjectNode) JSON.readTree(point.toFile());
        ((ObjectNode) r.get("requests")).put("total", r.get("requests").get("total").asLong() + 100);
        JSON.writeValue(point.toFile(), r);

        LabCommand.Finished report = LabCommand.inThisJvm("report", sweep.toString());

        assertThat(report.exitCode()).as(report.output()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(report.output()).startsWith("latency-lab: " + point + ": requests: ok ").contains("is not total");
        assertNoStackTrace(report.output());
    }

    /** A sweep stopped before its last run: its page says so first, instead of reading as the whole answer. */
    @Test
    void theReportOfAStoppedSweepSaysItIsIncomplete() throws IOException {
        Path sweep = tmp.resolve("stopped");
        Lab.copyTree(Lab.repo().resolve("docs/results-http"), sweep);
        Folders.deleteTree(sweep.resolve("points/webflux-http-l100-u400-r1")); // its last run never recorded

        LabCommand.Finished report = LabCommand.inThisJvm("report", sweep.toString());

        assertThat(report.exitCode()).as(report.output()).isZero();
        assertThat(Files.readString(sweep.resolve("index.html"))).contains("<strong>Incomplete:</strong> 9 of the 10 runs its plan holds "
                + "have a record (the sweep was stopped, or is under way)").contains("--name stopped");
        // the published sweep itself is whole: no such sentence
        assertThat(Files.readString(Lab.repo().resolve("docs/results-http/index.html"))).doesNotContain("Incomplete");
    }

    // 2. one writer per folder and file

    @Test
    void twoMergesToOneFileLeaveOneRunsFilesAndTheOtherRefuses() throws Exception {
        Path out = tmp.resolve("merged");
        List<LabCommand> merges = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            merges.add(LabCommand.start(console("merge-" + i), "merge", SPLIT_RUN.resolve("injector-0").toString(),
                    SPLIT_RUN.resolve("injector-1").toString(), "--out", out.toString()));
        }
        List<Integer> exits = new ArrayList<>();
        for (LabCommand m : merges) {
            exits.add(m.await(Duration.ofMinutes(2)));
        }
        assertThat(exits).as(merges.get(0).output() + merges.get(1).output()).containsExactlyInAnyOrder(ExitCode.OK, ExitCode.BAD_INPUT);
        LabCommand refused = merges.get(exits.indexOf(ExitCode.BAD_INPUT));
        // refused at its write (the other linked the name first) or, had it started later, at its check before merging
        assertThat(refused.output()).contains("(merge never overwrites)").doesNotContain("Run page:");
        Path file = out.resolve("result.json");
        assertThat(ResultFile.read(file).requests().total()).isEqualTo(600_000);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).as("readable as every other file").isEqualTo("rw-r--r--");
        try (Stream<Path> files = Files.list(out)) {
            assertThat(files.map(f -> f.getFileName().toString())).as("no partial file")
                    .containsExactlyInAnyOrder("result.json", "result.html", "result-per-second.png");
        }
        LabCommand.Finished asFile = LabCommand.inThisJvm("merge", SPLIT_RUN.resolve("injector-0").toString(),
                SPLIT_RUN.resolve("injector-1").toString(), "--out", tmp.resolve("merged.json").toString());
        assertThat(asFile.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(asFile.output()).contains("give the merged run's folder; its result.json is written there");
    }

    @Test
    void aSweepFolderInUseIsRefusedNamingItsHolder() throws Exception {
        Path results = tmp.resolve("results");
        Path folder = Files.createDirectories(results.resolve("shared"));
        Process holder = new ProcessBuilder("sleep", "120").start();
        try {
            Files.writeString(folder.resolve(FolderLock.NAME), holder.pid() + "\n\nsweep --name shared\n");
            LabCommand.Finished busy = LabCommand.run(console("busy"), "sweep", "--targets", "webflux", "--users", "4",
                    "--results", results.toString(), "--name", "shared");
            assertThat(busy.exitCode()).as(busy.output()).isEqualTo(ExitCode.FAILED);
            assertThat(busy.output()).isEqualTo("latency-lab: %s is in use by another ./lab command (pid %d: sweep --name shared): "
                    .formatted(folder, holder.pid()) + "wait for it to end, or give another --name\n");
        }
        finally {
            holder.destroy();
            holder.waitFor(10, TimeUnit.SECONDS);
        }
        // its holder is gone (killed): said, and refused until the user takes it over
        LabCommand.Finished stale = LabCommand.run(console("stale"), "sweep", "--targets", "webflux", "--users", "4",
                "--results", results.toString(), "--name", "shared");
        assertThat(stale.exitCode()).as(stale.output()).isEqualTo(ExitCode.FAILED);
        assertThat(stale.output()).contains("was left locked by ./lab pid " + holder.pid()).contains("--take-over");
        assertThat(folder.resolve("sweep.json")).as("nothing written").doesNotExist();
    }

    @Test
    void twoNewSweepsStartedTogetherGetAFolderEach() throws Exception {
        Path results = tmp.resolve("results");
        // their one point fails at once (its port is taken): what counts here is where each sweep writes
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            List<LabCommand> sweeps = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                sweeps.add(LabCommand.start(console("new-" + i), "sweep", "--targets", "webflux", "--users", "4",
                        "--port", String.valueOf(taken.getLocalPort()), "--results", results.toString()));
            }
            for (LabCommand sweep : sweeps) {
                assertThat(sweep.await(Duration.ofMinutes(2))).as(sweep.output()).isEqualTo(ExitCode.FAILED);
            }
        }
        try (Stream<Path> folders = Files.list(results)) {
            List<Path> made = folders.toList();
            assertThat(made).as("a folder each").hasSize(2);
            for (Path folder : made) {
                assertThat(PointRecord.read(new RunFolder(folder.resolve("points/webflux-l100-u4-r1"))).outcome().status())
                        .isEqualTo(Status.FAILED);
                assertThat(folder.resolve(FolderLock.NAME)).as("released").doesNotExist();
            }
        }
    }

    // 4. a capacity search cut short says so

    @Test
    void aSearchStoppedInItsSecondLadderIsALowerBoundEverywhere() throws Exception {
        int port = Lab.freePort();
        // mvc-t4 at 100 ms: T/L 40 req/s, the first ladder 20, 40, 80 brackets it (20 met even with another test beside
        // it), the second refines it
        LabCommand lab = LabCommand.start(console("capacity"), List.of("setsid"), "capacity", "--target", "mvc-t4", "--start-rate", "20", "--level-seconds",
                "5",
                "--ramp-seconds", "1", "--warmup-seconds", "1", "--slo", "p99:400", "--port", String.valueOf(port),
                "--results", tmp.toString(), "--name", "cut");
        lab.awaitLine("latency-lab: ladder 2:", Duration.ofMinutes(3));
        awaitIn(tmp.resolve("cut/round-2/gatling.log"), "each held", Duration.ofMinutes(1)); // the second ladder's load is under way
        lab.terminate();
        assertThat(lab.await(Duration.ofMinutes(2))).isEqualTo(143);

        String out = lab.output();
        assertThat(out).contains("latency-lab: capacity of mvc-t4: interrupted before the search finished: ");
        assertNoStackTrace(out);
        Path dir = tmp.resolve("cut");
        JsonNode record = JSON.readTree(new SearchFolder(dir).capacityFile().toFile());
        assertThat(record.get("interrupted").asBoolean()).isTrue();
        assertThat(record.get("bracketed").asBoolean()).isFalse();
        assertThat(record.get("summary").asString()).startsWith("interrupted before the search finished");
        assertThat(record.get("rounds").get(1).get("status").asString()).isEqualTo("interrupted");
        assertThat(Files.size(dir.resolve("hockey-stick.png"))).isPositive();
        try (Stream<Path> files = Files.walk(dir)) {
            assertThat(files.map(f -> f.getFileName().toString())).as("no partial file, no lock left")
                    .noneMatch(f -> f.endsWith(".partial") || f.equals(FolderLock.NAME));
        }
        LabCommand.Finished report = LabCommand.run(console("capacity-report"), "report", dir.toString());
        assertThat(report.exitCode()).as(report.output()).isZero();
        assertThat(report.output()).contains("(interrupted)");
        LabCommand.Finished old = LabCommand.inThisJvm("capacity", "--report", dir.toString());
        assertThat(old.exitCode()).as(old.output()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(old.output()).as("the old spelling names the new one").contains("capacity --report: retired; give ./lab report DIR");
    }

    // 8. a ./lab killed with SIGKILL, which it cannot catch, leaves nothing running

    @Test
    void aKilledLabLeavesNoProcessNorDatabaseAndTheNextCommandSaysSo() throws Exception {
        // its own results folder: the run folder it leaves would be noted by every test's ./lab run beside it
        String runs = tmp.resolve("killed runs").toString();
        LabCommand lab = LabCommand.start(console("sigkill"), "run", "--target", "webflux-db", "--port", String.valueOf(Lab.freePort()),
                "--results", runs, "--warmup-seconds", "1", "--users", "20", "--requests-per-user", "10", "--ramp-seconds", "2", "--think-min-ms", "500",
                "--think-max-ms", "1000");
        long postgres = Long.parseLong(lab.awaitLine("PostgreSQL [^ ]+ \\(embedded, pid ([0-9]+),", Duration.ofMinutes(2)));
        Path data = Path.of("/proc/" + postgres + "/cwd").toRealPath(); // the postmaster runs in its data folder
        Path folder = Path.of(lab.awaitLine("\\(run folder: (.+)\\)$", Duration.ZERO));
        lab.awaitLine("latency-lab: 20 users over", Duration.ofMinutes(2));
        List<ProcessHandle> started = ProcessHandle.of(lab.pid()).orElseThrow().descendants().toList();
        assertThat(started).as("target, PostgreSQL, Maven, Gatling").hasSizeGreaterThanOrEqualTo(4);

        assertThat(new ProcessBuilder("kill", "-9", String.valueOf(lab.pid())).start().waitFor()).isZero();
        lab.await(Duration.ofSeconds(30));

        try {
            // the target sees its parent gone, PostgreSQL's watchdog stops it, Gatling's run ends (its target gone)
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (started.stream().anyMatch(ProcessHandle::isAlive) || Files.exists(data)) {
                assertThat(System.nanoTime()).as("left running: %s; data folder %s there: %s",
                        started.stream().filter(ProcessHandle::isAlive).map(p -> p.pid() + " " + p.info().commandLine().orElse("")).toList(),
                        data, Files.exists(data)).isLessThan(deadline);
                TargetProcess.sleep(500);
            }
            // the next command says what the killed one left
            LabCommand.Finished next = LabCommand.run(console("next"), "run", "--results", runs, "--target", "tomcat");
            assertThat(next.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
            assertThat(next.output()).contains("latency-lab: note: " + folder + " was left by ./lab pid " + lab.pid() + " (run --target webflux-db)");
            assertThat(Lab.repo().resolve("lab-runner/target/tmp/" + lab.pid())).as("its temporary files (PostgreSQL's detection script)")
                    .doesNotExist();
        }
        finally {
            started.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        }
    }

    // 5, 6, 7. bad input stops before anything starts: exit 2, one line that names the option (run in this JVM;
    // LabCommandLineIT gives such input to ./lab itself)

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
                Arguments.of(List.of("run", "--injectors", "1000", "--users", "1000"), "--injectors 1000: give 1 to "),
                Arguments.of(List.of("run", "--target", "mvc-t99999999999"), "target mvc-t99999999999: 99999999999 threads; give at most 100,000"),
                Arguments.of(List.of("sweep", "--name", "../../escape"), "--name '../../escape': give a single folder name"),
                Arguments.of(List.of("capacity", "--name", "a/b"), "--name 'a/b': give a single folder name"),
                Arguments.of(List.of("run", "--target", "mvc", "-Dserver.tomcat.max-threads=400", "--users", "500"),
                        "-Dserver.tomcat.max-threads: a setting of the server"),
                Arguments.of(List.of("run", "-Dfoo.bar=1"), "-Dfoo.bar: not a property of the simulation nor of Gatling"),
                Arguments.of(List.of("run", "--users", "500", "-Dsim.users=400"), "-Dsim.users: give --users instead"),
                Arguments.of(List.of("run", "--users", "0"), "sim.users=0"),
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
        assertThat(lab.output()).contains(expected).doesNotContain("starting").doesNotContain("capacity of");
        assertNoStackTrace(lab.output());
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

    /** A change that still decodes, to a histogram of another count (the first that does, from the middle on). */
    private static String decodableEdit(String data) {
        for (int i = data.length() / 2; i < data.length() - 4; i++) {
            String edited = data.substring(0, i) + (data.charAt(i) == 'Q' ? 'R' : 'Q') + data.substring(i + 1);
            try {
                if (HistogramCodec.decode(edited).getTotalCount() != HistogramCodec.decode(data).getTotalCount()) {
                    return edited;
                }
            }
            catch (RuntimeException doesNotDecode) {
                // try the next character
            }
        }
        throw new IllegalStateException("no one-character edit of the histogram decodes");
    }

    /** Polls a file until it holds the text. */
    private static void awaitIn(Path file, String text, Duration max) throws IOException {
        long deadline = System.nanoTime() + max.toNanos();
        while (!(Files.isRegularFile(file) && Files.readString(file).contains(text))) {
            assertThat(System.nanoTime()).as("%s holds '%s' within %s", file, text, max).isLessThan(deadline);
            TargetProcess.sleep(200);
        }
    }

    static void assertNoStackTrace(String output) {
        assertThat(output).doesNotContain("Exception").doesNotContain("\tat ").doesNotContain("[ERROR]");
    }
}
