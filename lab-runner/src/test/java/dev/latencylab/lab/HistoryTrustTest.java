package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.lab.flow.ExitCode;

/**
 * ./lab history shown what could fool it, through its command line on copies of the published history (the example
 * service 12 runs as it is, then 5 with its query 20% slower, p99 +37%): a faster machine does not excuse a slower
 * service, an edited start is refused, another load is another series, one run after a change is not a change, and
 * --out never replaces an input's page.
 */
class HistoryTrustTest {

    private static final Path PUBLISHED = Lab.repo().resolve("docs/results-history");
    private static final Pattern PROBE = Pattern.compile("\"cpuProbeMibPerSecond\" : ([0-9.]+)");

    @TempDir
    Path tmp;

    @Test
    void aFasterMachineExcusesNothingForTheWorseAndASlowerOneIsSaid() {
        Path faster = copy("faster");
        editEach(faster.resolve("after/points"), "point.json", text -> scaledProbe(text, 1.18));
        LabCommand.Finished gated = LabCommand.inThisJvm("history", faster.toString(), "--fail-on-change", "p99:10");
        assertThat(gated.exitCode()).as(gated.output()).isEqualTo(ExitCode.WORSE);
        assertThat(gated.output()).containsPattern("latency-lab: WORSE: p99 of example-l0-u100 got worse from run 13 of 17 .*; the machine changed there: "
                + "its CPU probe [0-9]+ MiB/s, then [0-9]+ \\(faster\\), which does not explain a change for the worse");

        Path slower = copy("slower");
        editEach(slower.resolve("after/points"), "point.json", text -> scaledProbe(text, 0.8));
        LabCommand.Finished excused = LabCommand.inThisJvm("history", slower.toString(), "--fail-on-change", "p99:10");
        assertThat(excused.exitCode()).as(excused.output()).isZero();
        assertThat(excused.output()).containsPattern("latency-lab: excused: p99 of example-l0-u100 got worse from run 13 of 17 .*\\(slower\\), "
                + "which explains it: not the service's");
    }

    @Test
    void aStartEditedToReorderTheRunsIsRefused() {
        Path edited = copy("edited");
        Path last = edited.resolve("after/points/example-l0-u100-r5/result.json");
        edit(last, text -> text.replaceFirst("\"start\" : \"[^\"]+\"", "\"start\" : \"2026-11-28T09:15:00Z\""));
        LabCommand.Finished refused = LabCommand.inThisJvm("history", edited.toString(), "--fail-on-change", "p99:10");
        assertThat(refused.exitCode()).as(refused.output()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(refused.output()).contains(last + ": its start 2026-11-28T09:15:00Z and end").contains("disagree (edited?)");

        // start and end moved together: its own record (point.json) says when it ran
        Path both = copy("both");
        Path moved = both.resolve("after/points/example-l0-u100-r5/result.json");
        edit(moved, text -> text.replace("\"start\" : \"2026-11-28T09:26:", "\"start\" : \"2026-11-28T09:15:")
                .replace("\"end\" : \"2026-11-28T09:26:", "\"end\" : \"2026-11-28T09:15:"));
        LabCommand.Finished outside = LabCommand.inThisJvm("history", both.toString());
        assertThat(outside.exitCode()).as(outside.output()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(outside.output()).contains(moved + ": its load from 2026-11-28T09:15:02").contains("outside its run's own record (point.json");
    }

    @Test
    void anotherLoadIsAnotherSeries() {
        Path mixed = copy("mixed");
        edit(mixed.resolve("before/points/example-l0-u100-r12/result.json"), text -> text.replace("\"repeat\" : 10,", "\"repeat\" : 12,"));
        // a simulation of the user's, named by its source's digest: another source, another load
        edit(mixed.resolve("before/points/example-l0-u100-r11/result.json"), text -> text.replaceFirst("\"url\" : \"",
                "\"simulation\" : \"Flow.java sha256:00\", \"url\" : \""));
        LabCommand.Finished read = LabCommand.inThisJvm("history", mixed.resolve("before").toString());
        assertThat(read.exitCode()).as(read.output()).isZero();
        assertThat(read.output()).contains("latency-lab: history of example-l0-u100 (load ").containsPattern("\\(load [0-9a-f]{8}\\): 10 runs");
        assertThat(java.util.regex.Pattern.compile("\\(load [0-9a-f]{8}\\): 1 run ").matcher(read.output()).results().count()).isEqualTo(2);
    }

    @Test
    void oneOrTwoRunsAfterAChangeCannotBeJudgedAndOneRunIsNoChangePoint() throws IOException {
        Path one = copy("one");
        for (int r = 2; r <= 5; r++) {
            delete(one.resolve("after/points/example-l0-u100-r" + r));
        }
        LabCommand.Finished single = LabCommand.inThisJvm("history", one.toString(), "--fail-on-change", "p50:10");
        assertThat(single.exitCode()).as(single.output()).isEqualTo(ExitCode.CANNOT_JUDGE);
        assertThat(single.output()).contains("latency-lab: history of example-l0-u100: 13 runs")
                .contains("p50        run 13 of 13 alone differs, worse: ").contains("not yet a change (3 runs on each side needed)")
                .contains("latency-lab: CANNOT JUDGE: p50 of example-l0-u100: run 13 of 13 alone differs, worse: ")
                .doesNotContain("WORSE:").doesNotContain("worse from run");

        LabCommand.Finished few = LabCommand.inThisJvm("history", one.resolve("after").toString(), "--fail-on-change", "p50");
        assertThat(few.exitCode()).as(few.output()).isEqualTo(ExitCode.CANNOT_JUDGE);
        assertThat(few.output()).contains("CANNOT JUDGE: p50 of example-l0-u100: 1 run; a change needs 3 runs on each side (6 in all)");

        LabCommand.Finished help = LabCommand.inThisJvm("history", "--help");
        // picocli wraps the help where it likes (even after a dot): read without its spaces
        assertThat(help.output().replaceAll("\\s+", "")).contains("Exitcodes:").contains("4./labcompare--fail-if-worse")
                .contains("./labhistory--fail-on-changeMETRIC[:PERCENT]cannotjudgethatmetric:fewerthan3runsoneachside");
    }

    @Test
    void outNeverReplacesAnInputsPage() throws IOException {
        Path sweep = copy("out").resolve("before");
        String page = Files.readString(sweep.resolve("index.html"));
        LabCommand.Finished refused = LabCommand.inThisJvm("history", sweep.toString(), "--out", sweep.toString());
        assertThat(refused.exitCode()).as(refused.output()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(refused.output()).contains("--out " + sweep + " is a run's or a sweep's folder");
        Path other = tmp.resolve("other");
        Files.createDirectories(other);
        Files.writeString(other.resolve("index.html"), "<!DOCTYPE html><title>mine</title>");
        LabCommand.Finished notOurs = LabCommand.inThisJvm("history", sweep.toString(), "--out", other.toString());
        assertThat(notOurs.exitCode()).as(notOurs.output()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(notOurs.output()).contains("exists and is not a page this command wrote");
        assertThat(sweep.resolve("index.html")).hasContent(page);
        assertThat(other.resolve("index.html")).hasContent("<!DOCTYPE html><title>mine</title>");
    }

    private Path copy(String name) {
        Path to = tmp.resolve(name);
        try (Stream<Path> files = Files.walk(PUBLISHED)) {
            for (Path from : files.filter(p -> Files.isRegularFile(p) && !p.toString().endsWith(".png")).toList()) {
                Path target = to.resolve(PUBLISHED.relativize(from).toString());
                Files.createDirectories(target.getParent());
                Files.copy(from, target);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return to;
    }

    private static String scaledProbe(String text, double factor) {
        Matcher m = PROBE.matcher(text);
        assertThat(m.find()).as("a fingerprint with a probe").isTrue();
        return m.replaceFirst("\"cpuProbeMibPerSecond\" : %.1f".formatted(Double.parseDouble(m.group(1)) * factor));
    }

    private static void editEach(Path points, String file, UnaryOperator<String> change) {
        try (Stream<Path> runs = Files.list(points)) {
            runs.forEach(run -> edit(run.resolve(file), change));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void edit(Path file, UnaryOperator<String> change) {
        try {
            String before = Files.readString(file);
            String after = change.apply(before);
            assertThat(after).as("an edit of " + file).isNotEqualTo(before);
            Files.writeString(file, after);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path folder) throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
