package dev.latencylab.lab;

import static dev.latencylab.lab.LabCommand.assertNoStackTrace;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import dev.latencylab.lab.layout.FolderLock;
import dev.latencylab.lab.layout.Folders;
import dev.latencylab.lab.flow.ExitCode;

/**
 * The commands that read what others wrote (compare, report of a sweep, a run, capacity searches, a footprint), through
 * the command line (run in this JVM, as ./lab's main runs it): a derived figure that disagrees with its raw data, a
 * sweep stopped before its end, a gate that cannot judge, a folder that is not a finished run, an output onto an
 * input, a name taken twice. Each is refused with its exit code and one line naming what is wrong, or said first on the
 * page; nothing given is changed.
 */
class ReadersIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Path DOCS = Lab.repo().resolve("docs");
    /** One point of two published sweeps, three runs each; and one run of each. */
    private static final Path SWEEP_A = DOCS.resolve("results-twice/quick-1");
    private static final Path SWEEP_B = DOCS.resolve("results-twice/quick-2");
    private static final String POINT = "mvc-t20-l100-u1000";
    private static final Path RUN_A = SWEEP_A.resolve("points/" + POINT + "-r1");
    private static final Path RUN_B = SWEEP_B.resolve("points/" + POINT + "-r1");
    private static final Path SEARCHES = DOCS.resolve("capacity-repeats");

    @TempDir
    Path tmp;

    /** ./lab's command line in this JVM: these commands read files and start nothing (LabCommandLineIT runs ./lab). */
    private LabCommand.Finished lab(String... args) {
        return LabCommand.inThisJvm(args);
    }

    private static void edit(Path json, Consumer<ObjectNode> change) throws IOException {
        ObjectNode r = (ObjectNode) JSON.readTree(json.toFile());
        change.accept(r);
        JSON.writeValue(json.toFile(), r);
    }

    private static void refusedInOneLine(LabCommand.Finished c, int exit, String... says) {
        assertThat(c.exitCode()).as(c.output()).isEqualTo(exit);
        assertThat(c.output()).contains(says);
        assertNoStackTrace(c.output());
    }

    // a figure that can be derived is checked against what it is derived from

    @Test
    void aGoodputThatItsSeriesDoNotGiveIsRefusedByCompareAndReport() throws IOException {
        Path b = tmp.resolve("b");
        Lab.copyTree(SWEEP_A, b);
        for (int r = 1; r <= 3; r++) {
            edit(b.resolve("points/%s-r%d/result.json".formatted(POINT, r)), j -> ((ObjectNode) j.get("throughput"))
                    .put("goodputPlateauPerSecond", j.get("throughput").get("goodputPlateauPerSecond").asDouble() / 2));
        }
        Path halved = b.resolve("points/%s-r1/result.json".formatted(POINT));
        double written = JSON.readTree(halved.toFile()).get("throughput").get("goodputPlateauPerSecond").asDouble();

        refusedInOneLine(lab("compare", SWEEP_A.resolve("points/" + POINT).toString(), b.resolve("points/" + POINT).toString(),
                "--fail-if-worse", "goodput:5"), ExitCode.BAD_INPUT,
                halved + ": throughput.goodputPlateauPerSecond is " + written
                        + "; throughput.okPerSecond gives " + written * 2);
        refusedInOneLine(lab("report", b.toString()), ExitCode.BAD_INPUT, b.resolve("points/" + POINT).toString(),
                "/result.json: throughput.goodputPlateauPerSecond is ", "; throughput.okPerSecond gives ");

        // rebuild-docs --check refuses it too, naming the published file (not its scratch copy): its advice never republishes it
        Path repo = tmp.resolve("repo");
        Lab.copyTree(DOCS, repo.resolve("docs"));
        Files.copy(Lab.repo().resolve("README.md"), repo.resolve("README.md"));
        Path published = repo.resolve("docs/results/points/mvc-t200-l100-u1000-r1/result.json");
        edit(published, j -> ((ObjectNode) j.get("throughput")).put("goodputPlateauPerSecond", 1.0));
        refusedInOneLine(lab("rebuild-docs", "--check", "--repo", repo.toString()), ExitCode.BAD_INPUT,
                published + ": throughput.goodputPlateauPerSecond is 1.0; throughput.okPerSecond gives ");
        // and rebuild-docs itself reads every sweep before it draws any: refused, it has written no other sweep's files
        Path otherSummary = repo.resolve("docs/results-db/summary.csv");
        Files.delete(otherSummary);
        refusedInOneLine(lab("rebuild-docs", "--repo", repo.toString()), ExitCode.BAD_INPUT,
                published + ": throughput.goodputPlateauPerSecond is 1.0; throughput.okPerSecond gives ");
        assertThat(otherSummary).as("another sweep's summary, not written").doesNotExist();

        Path single = tmp.resolve("single.json");
        Files.copy(RUN_B.resolve("result.json"), single);
        edit(single, j -> ((ObjectNode) j.get("throughput")).put("goodputPlateauPerSecond", 1e308));
        refusedInOneLine(lab("compare", RUN_A.toString(), single.toString()), ExitCode.BAD_INPUT,
                "throughput.goodputPlateauPerSecond is 1.0E308; throughput.okPerSecond gives ");
    }

    /**
     * A pool's bound is its size over its hold time, never taken as written: a bound edited to 5,000 (10 connections held
     * 101 ms give 99), a hold time of 0 or below, a size of 0 or NaN are refused by report and compare, naming the field.
     */
    @Test
    void aPoolBoundThatItsSizeAndHoldTimeDoNotGiveIsRefused() throws IOException {
        Path sweep = tmp.resolve("visits");
        Lab.copyTree(DOCS.resolve("results-service/visits"), sweep);
        Path run = sweep.resolve("points/example-l0-u400-r1");
        Path result = run.resolve("result.json");
        edit(result, j -> ((ObjectNode) j.get("server").get("pools").get("published").get(0)).put("boundPerSecond", 5000.0));
        refusedInOneLine(lab("report", sweep.toString(), "--verdict"), ExitCode.BAD_INPUT,
                "server.pools.published[0] (HikariCP).boundPerSecond is 5000.0; its size / holdMs gives 98.");
        refusedInOneLine(lab("compare", DOCS.resolve("results-service/visits/points/example-l0-u400-r1").toString(), run.toString()),
                ExitCode.BAD_INPUT, "server.pools.published[0] (HikariCP).boundPerSecond is 5000.0");
        for (String[] bad : new String[][] {{"holdMs", "-5"}, {"holdMs", "0"}, {"size", "0"}, {"size", "NaN"}}) {
            Files.copy(DOCS.resolve("results-service/visits/points/example-l0-u400-r1/result.json"), result,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            edit(result, j -> {
                ObjectNode p = (ObjectNode) j.get("server").get("pools").get("published").get(0);
                if (bad[1].equals("NaN")) {
                    p.put(bad[0], "NaN");
                }
                else {
                    p.put(bad[0], Double.parseDouble(bad[1]));
                }
            });
            refusedInOneLine(lab("compare", DOCS.resolve("results-service/visits/points/example-l0-u400-r1").toString(), run.toString()),
                    ExitCode.BAD_INPUT, "server.pools.published[0] (HikariCP).%s is %s; give a number above 0".formatted(bad[0],
                            bad[1].equals("NaN") ? "NaN" : Double.parseDouble(bad[1])));
        }
    }

    /** An SLO verdict its own values do not give (edited to met) is refused, naming the objective; one that they give is said. */
    @Test
    void anSloVerdictThatItsValuesDoNotGiveIsRefused() throws IOException {
        Path run = tmp.resolve("run");
        Lab.copyTree(DOCS.resolve("results-service/visits/points/example-l0-u400-r1"), run);
        Path result = run.resolve("result.json");
        java.util.function.BiConsumer<Boolean, Boolean> verdict = (objectiveMet, met) -> {
            try {
                edit(result, j -> {
                    ObjectNode slo = j.putObject("slo");
                    slo.put("met", met);
                    ObjectNode p99 = slo.putArray("objectives").addObject();
                    p99.put("metric", "p99").put("unit", "ms").put("limit", 500.0).put("atMost", true).put("value", 3000.0).put("met", objectiveMet);
                });
            }
            catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
        verdict.accept(true, true);
        refusedInOneLine(lab("report", run.toString()), ExitCode.BAD_INPUT, "slo.objectives[0] (p99): met is true, but 3000.0 <= 500.0 is false");
        verdict.accept(false, true);
        refusedInOneLine(lab("report", run.toString()), ExitCode.BAD_INPUT, "slo.met is true, but its objectives give false");
        verdict.accept(false, false);
        LabCommand.Finished said = lab("report", run.toString());
        assertThat(said.exitCode()).as(said.output()).isZero();
        assertThat(said.output()).contains("SLO missed: p99 3,000 ms > 500 ms");
    }

    /**
     * A load whose users were never all active at once (its runs' peak of active users edited to half of them): flagged,
     * said in the verdict and on the goodput chart's title, and the service's model not calibrated on it.
     */
    @Test
    void aLoadWhoseUsersWereNeverAllActiveIsSaidSoAndCalibratesNoModel() throws IOException {
        Path sweep = tmp.resolve("visits");
        Lab.copyTree(DOCS.resolve("results-service/visits"), sweep);
        LabCommand.Finished before = lab("report", sweep.toString(), "--verdict");
        assertThat(before.output()).contains("the knee at").doesNotContain("never all");
        for (int r = 1; r <= 2; r++) {
            edit(sweep.resolve("points/example-l0-u20-r%d/result.json".formatted(r)), j -> ((ObjectNode) j.get("injector")).put("peakActiveUsers", 10));
        }
        LabCommand.Finished verdict = lab("report", sweep.toString(), "--verdict");
        assertThat(verdict.exitCode()).as(verdict.output()).isZero();
        assertThat(verdict.output()).contains("at 20 users (").contains("never all its users active at once: no plateau")
                .doesNotContain("the knee at");
        assertThat(dev.latencylab.lab.page.SweepCharts.charts(List.of(new dev.latencylab.lab.layout.SweepFolder(sweep))).get("throughput-l0")
                .getTitle()).contains("never all active at 20 users: no plateau");
        Path run = sweep.resolve("points/example-l0-u20-r1");
        assertThat(lab("report", run.toString()).exitCode()).isZero();
        assertThat(run.resolve("result.html")).content().contains("none: never all 20 users active at once (at most 10)");
    }

    /**
     * An open level the injector did not hold (two injectors sharing 2,400 arrivals a second on two cores: WebFlux's
     * started up to 4 s late in a 15-s level) is said so: no plateau at that rate, on the run page too; the same rate
     * on one injector (lag p99 under 0.1 s) and a capacity ladder stopped at the level that missed its SLO are not.
     */
    @Test
    void anOpenLevelTheInjectorDidNotHoldIsSaidSo() throws IOException {
        LabCommand.Finished two = lab("report", DOCS.resolve("results-injectors-open/k2").toString(), "--verdict");
        assertThat(two.exitCode()).as(two.output()).isZero();
        assertThat(two.output().lines().filter(l -> l.startsWith("- **webflux**"))).singleElement().asString()
                .contains("its rate not held by the injector: no plateau");
        assertThat(two.output().lines().filter(l -> l.startsWith("- **mvc-t200**"))).singleElement().asString().doesNotContain("not held");
        assertThat(lab("report", DOCS.resolve("results-injectors-open/k1").toString(), "--verdict").output()).doesNotContain("not held");
        Map<String, Boolean> runs = Map.of("results-injectors-open/k2/points/webflux-l100-rate2400-r1", true,
                "results-injectors-open/k1/points/webflux-l100-rate2400-r1", false, "capacity/webflux-l100/round-3", false);
        for (Map.Entry<String, Boolean> published : runs.entrySet()) {
            Path run = tmp.resolve(published.getKey());
            Lab.copyTree(DOCS.resolve(published.getKey()), run);
            assertThat(lab("report", run.toString()).exitCode()).isZero();
            assertThat(run.resolve("result.html").toFile().exists()).isTrue();
            assertThat(Files.readString(run.resolve("result.html")).contains("none: the injector did not hold a level's rate"))
                    .as(published.getKey()).isEqualTo(published.getValue());
        }
    }

    /** A result file emptied or holding a NaN is refused in its own words: the field or line, never the reader's settings. */
    @Test
    void anEmptyResultOrANanIsRefusedInTheFilesWords() throws IOException {
        String published = Files.readString(DOCS.resolve("results-service/visits/points/example-l0-u400-r1/result.json"));
        Path empty = Files.writeString(tmp.resolve("empty.json"), "{}");
        Path nan = Files.writeString(tmp.resolve("nan.json"), published.replaceFirst("\"holdMs\" : [0-9.]+", "\"holdMs\" : NaN"));
        assertThat(nan).content().contains("\"holdMs\" : NaN");
        for (Path bad : List.of(empty, nan)) {
            LabCommand.Finished c = lab("compare", RUN_A.toString(), bad.toString());
            refusedInOneLine(c, ExitCode.BAD_INPUT, bad + ": not a result file of this version: ");
            assertThat(c.output()).doesNotContain("Feature").doesNotContain("to allow");
        }
        assertThat(lab("compare", RUN_A.toString(), nan.toString()).output()).contains("a number that is not one (NaN); give a number");
        assertThat(lab("compare", RUN_A.toString(), empty.toString()).output()).contains("missing, or null; it is required");
    }

    @Test
    void aCapacityThatItsLaddersDoNotGiveIsRefusedAndCapacityReportWritesOnlyItsChart() throws IOException {
        Path searches = tmp.resolve("searches");
        for (String s : List.of("mvc-t200-l100-r1", "mvc-t200-l100-r2", "mvc-t400-l100-r1", "mvc-t400-l100-r2")) {
            Lab.copyTree(SEARCHES.resolve(s), searches.resolve(s));
        }
        Map<Path, Long> before = sizes(searches);
        Path chart = tmp.resolve("chart");

        // two searches of one target on one chart (each its own series), nothing written into them
        LabCommand.Finished both = lab("report", searches.resolve("mvc-t200-l100-r1").toString(),
                searches.resolve("mvc-t200-l100-r2").toString(), "--out", chart.toString());
        assertThat(both.exitCode()).as(both.output()).isZero();
        assertThat(chart.resolve("hockey-stick.png")).isNotEmptyFile();
        assertThat(sizes(searches)).as("the searches' folders as they were").isEqualTo(before);
        refusedInOneLine(lab("report", searches.resolve("mvc-t200-l100-r1").toString(), "--out",
                searches.resolve("mvc-t200-l100-r2").toString()), ExitCode.BAD_INPUT, "holds capacity.json");

        Path edited = searches.resolve("mvc-t400-l100-r1/capacity.json");
        double found = JSON.readTree(edited.toFile()).get("capacityPerSecond").asDouble();
        edit(edited, j -> j.put("capacityPerSecond", 500.0));
        String says = edited + ": capacityPerSecond is 500.0; its ladders' result files give " + found;
        refusedInOneLine(lab("compare", searches.resolve("mvc-t200-l100").toString(), searches.resolve("mvc-t400-l100").toString(),
                "--fail-if-worse", "capacity:5"), ExitCode.BAD_INPUT, says);
        refusedInOneLine(lab("report", searches.resolve("mvc-t400-l100-r1").toString(), "--out", chart.toString()),
                ExitCode.BAD_INPUT, says);

        // the machine's ceiling drawn beside it is computed from the levels' CPU too (issue 79: 330 edited to 20 was printed)
        Path ceiling = searches.resolve("mvc-t400-l100-r2/capacity.json");
        double measured = JSON.readTree(ceiling.toFile()).get("machineCeilingPerSecond").asDouble();
        edit(ceiling, j -> j.put("machineCeilingPerSecond", 20.0));
        refusedInOneLine(lab("report", searches.resolve("mvc-t400-l100-r2").toString(), "--out", chart.toString()), ExitCode.BAD_INPUT,
                ceiling + ": machineCeilingPerSecond is 20.0; its ladders' result files give " + measured);

        Files.writeString(edited, "");
        refusedInOneLine(lab("report", searches.resolve("mvc-t400-l100-r1").toString(), "--out", chart.toString()),
                ExitCode.BAD_INPUT, edited + ": not a capacity search of this version");
    }

    @Test
    void aFootprintMeasurementThatDidNotHoldItsCountOrIsThereTwiceIsRefused() throws IOException {
        Path held = tmp.resolve("held");
        Path twice = tmp.resolve("twice");
        for (Path copy : List.of(held, twice)) {
            Files.createDirectories(copy);
            Files.copy(DOCS.resolve("footprint/footprint.json"), copy.resolve("footprint.json"));
        }
        edit(held.resolve("footprint.json"), j -> {
            ObjectNode m = (ObjectNode) j.get("measurements").get(1);
            m.put("held", m.get("count").asInt() / 2);
        });
        edit(twice.resolve("footprint.json"), j -> ((ArrayNode) j.get("measurements")).add(j.get("measurements").get(3).deepCopy()));

        refusedInOneLine(lab("report", held.toString()), ExitCode.BAD_INPUT, "measurements[1] (", "is done but held 500 of its 1000");
        refusedInOneLine(lab("report", twice.toString()), ExitCode.BAD_INPUT, "is there twice");
        assertThat(held.resolve("index.html")).as("no page from it").doesNotExist();

        // measurements.csv is written again from footprint.json with the page: an edit of it does not stay beside the page
        Path fine = tmp.resolve("fine");
        Files.createDirectories(fine);
        Files.copy(DOCS.resolve("footprint/footprint.json"), fine.resolve("footprint.json"));
        Files.writeString(fine.resolve("measurements.csv"), "target,count\nwebflux,7\n");
        LabCommand.Finished report = lab("report", fine.toString());
        assertThat(report.exitCode()).as(report.output()).isZero();
        assertThat(fine.resolve("measurements.csv")).hasSameTextualContentAs(DOCS.resolve("footprint/measurements.csv"));

        Path empty = tmp.resolve("empty");
        Files.createDirectories(empty);
        Files.writeString(empty.resolve("footprint.json"), "");
        refusedInOneLine(lab("report", empty.toString()), ExitCode.BAD_INPUT, "not a footprint experiment of this version");
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

    // a gate that cannot judge is an error, never a pass

    @Test
    void aGateWithoutAnIntervalOrWithoutItsMetricExitsFourAndSaysWhatWouldJudgeIt() {
        refusedInOneLine(lab("compare", RUN_A.toString(), SWEEP_B.resolve("points/mvc-t20-l100-u100-r1").toString(),
                "--fail-if-worse", "p99:5"), ExitCode.CANNOT_JUDGE, "--fail-if-worse p99:5 cannot judge: ",
                "has no interval for p99 (1 run vs 1 run: give the points whole, without -r<n>, to compare all their runs: A "
                        + RUN_A.resolveSibling(POINT) + " (3 runs), B " + SWEEP_B.resolve("points/mvc-t20-l100-u100") + " (3 runs))");
        refusedInOneLine(lab("compare", RUN_A.toString(), RUN_B.toString(), "--fail-if-worse", "capacity:5"), ExitCode.CANNOT_JUDGE,
                "capacity is a metric of capacity searches, and these are runs");
        refusedInOneLine(lab("compare", SEARCHES.resolve("mvc-t200-l100").toString(), SEARCHES.resolve("mvc-t400-l100").toString(),
                "--fail-if-worse", "goodput:5"), ExitCode.CANNOT_JUDGE, "capacity searches have one metric, capacity");
        refusedInOneLine(lab("compare", RUN_A.toString(), RUN_B.toString(), "--fail-if-worse", "goodput:50,goodput:10"), ExitCode.BAD_INPUT,
                "goodput is given twice");

        LabCommand.Finished judged = lab("compare", SWEEP_A.toString(), SWEEP_B.toString(), "--fail-if-worse", "goodput:50,p99:400");
        assertThat(judged.exitCode()).as("repeats on both sides: every point judged, within the limits\n" + judged.output()).isZero();
    }

    // a folder under a lock, or a run whose result reports problems, is not read as a finished run

    @Test
    void aLockedFolderOrARunWithProblemsIsRefused() throws IOException {
        Path left = tmp.resolve("left");
        Lab.copyTree(RUN_B, left);
        Files.writeString(left.resolve(FolderLock.NAME), "2147483000\n\nrun --target webflux\n"); // a pid no process has
        refusedInOneLine(lab("compare", RUN_A.toString(), left.toString()), ExitCode.FAILED,
                left + " was left locked by ./lab pid 2147483000 (run --target webflux), which was killed");
        refusedInOneLine(lab("report", left.toString()), ExitCode.FAILED, "was left locked");

        Path running = tmp.resolve("running");
        Lab.copyTree(SWEEP_B, running);
        ProcessHandle me = ProcessHandle.current();
        Files.writeString(running.resolve(FolderLock.NAME), me.pid() + "\n" + me.info().startInstant().orElseThrow() + "\nsweep --name running\n");
        Map<Path, Long> before = sizes(running);
        refusedInOneLine(lab("compare", SWEEP_A.toString(), running.toString()), ExitCode.FAILED,
                running + " is being written by ./lab pid " + me.pid());
        refusedInOneLine(lab("report", running.toString()), ExitCode.FAILED, "is being written by");
        assertThat(sizes(running)).as("its pages untouched").isEqualTo(before);

        Path exited = tmp.resolve("exited");
        Lab.copyTree(RUN_B, exited);
        edit(exited.resolve("result.json"), j -> j.set("problems", JSON.createArrayNode().add("the target exited at second 12")));
        refusedInOneLine(lab("compare", RUN_A.toString(), exited.toString()), ExitCode.BAD_INPUT,
                "no finished run to compare (failed: exited (its result reports: the target exited at second 12))");
    }

    // nothing overwrites an input, or a file the command did not write

    @Test
    void outputsGoOnlyWhereTheCommandOwnsThem() throws IOException {
        Path b = tmp.resolve("b");
        Lab.copyTree(RUN_B, b);
        byte[] result = Files.readAllBytes(b.resolve("result.json"));
        refusedInOneLine(lab("compare", RUN_A.toString(), b.toString(), "--out", b.resolve("result.json").toString()), ExitCode.BAD_INPUT,
                "give a file name ending in .html");
        Files.copy(b.resolve("result.json"), b.resolve("notes.html"));
        refusedInOneLine(lab("compare", RUN_A.toString(), b.toString(), "--out", b.resolve("notes.html").toString()), ExitCode.BAD_INPUT,
                "exists and is not a page this command wrote");
        refusedInOneLine(lab("compare", RUN_A.toString(), b.toString(), "--out", ""), ExitCode.BAD_INPUT, "--out '': give a file name");
        assertThat(b.resolve("result.json")).hasBinaryContent(result);

        Path page = b.resolve("compare.html");
        for (int i = 0; i < 2; i++) { // a new page, then its own page again
            LabCommand.Finished c = lab("compare", RUN_A.toString(), b.toString(), "--out", page.toString());
            assertThat(c.exitCode()).as(c.output()).isZero();
        }
        assertThat(Files.readString(page)).contains("<title>B against A: b against ");

        Path sweep = tmp.resolve("sweep");
        Lab.copyTree(SWEEP_A, sweep);
        byte[] index = Files.readAllBytes(sweep.resolve("index.html"));
        refusedInOneLine(lab("report", RUN_A.toString(), RUN_B.toString(), "--out", sweep.toString()), ExitCode.BAD_INPUT,
                "--out " + sweep + " holds sweep.json");
        refusedInOneLine(lab("report", RUN_A.toString(), RUN_B.toString(), "--out", sweep.resolve("points").toString()), ExitCode.BAD_INPUT,
                "--out " + sweep.resolve("points") + " is inside " + sweep + ", which holds sweep.json");
        assertThat(sweep.resolve("index.html")).hasBinaryContent(index);
        assertThat(sweep.resolve("points/index.html")).doesNotExist();
    }

    // one name, one folder; options and files that were stack traces or silent

    @Test
    void aNameTakenIsRefusedAndBadInputIsOneLine() throws IOException {
        Files.createDirectories(tmp.resolve("footprints/taken"));
        refusedInOneLine(lab("footprint", "--name", "taken", "--results", tmp.resolve("footprints").toString(), "--targets", "webflux",
                "--counts", "0,1"), ExitCode.BAD_INPUT, "--name taken: " + tmp.resolve("footprints/taken") + " exists already");
        Files.createDirectories(tmp.resolve("searches/x-r1"));
        refusedInOneLine(lab("capacity", "--target", "mvc-t4", "--name", "x-r1", "--results", tmp.resolve("searches").toString()),
                ExitCode.BAD_INPUT, "--name x-r1: ", "exists already");
        refusedInOneLine(lab("footprint", "--name", "x".repeat(300), "--results", tmp.toString()), ExitCode.BAD_INPUT,
                "--name: a name of 300 bytes; give at most 200");
        // the documented minimum hold with the default settle passes that check: the next one refuses
        refusedInOneLine(lab("footprint", "--hold-seconds", "5", "--container-mib", "0", "--results", tmp.toString()), ExitCode.BAD_INPUT,
                "--container-mib and --heap-mib");

        Path point = tmp.resolve("point");
        Lab.copyTree(RUN_B, point);
        Files.writeString(point.resolve("point.json"), "{ not json");
        refusedInOneLine(lab("compare", RUN_A.toString(), point.toString()), ExitCode.BAD_INPUT, "point.json: not a point record of this version");

        LabCommand.Finished same = lab("compare", RUN_A.toString(), RUN_A.toString());
        assertThat(same.exitCode()).isZero();
        assertThat(same.output()).contains("A and B are the same folder");
    }

    /** Every file under dir and its size and modification time in one number: what a command that writes nothing leaves. */
    private static Map<Path, Long> sizes(Path dir) throws IOException {
        Map<Path, Long> all = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                all.put(dir.relativize(f), Files.size(f) * 31 + Files.getLastModifiedTime(f).toMillis());
            }
        }
        return all;
    }
}
