package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.lab.flow.ExitCode;

/**
 * ./lab compare through its command line (in this JVM, as ./lab's main runs it: it reads files and starts nothing), on
 * the published runs (real runs of this machine): a known effect found with its sign and size, a pair that differs in
 * two settings refused, --fail-if-worse's exit code, and two single runs of one point compared against their own seconds.
 */
class CompareIT {

    private static String points(String point) {
        return Lab.repo().resolve("docs/results/points").resolve(point).toString();
    }

    /** A thread pool of 200 against one of 400 at 5,000 users: T/L 2,000 against the offered 3,125 req/s. */
    @Test
    void twiceThePoolIsFoundBetterByWhatTheModelSays() {
        LabCommand.Finished c = LabCommand.inThisJvm("compare", points("mvc-t200-l100-u5000"),
                points("mvc-t400-l100-u5000"));
        assertThat(c.exitCode()).as(c.output()).isZero();
        assertThat(c.output()).contains("mvc-t200-l100-u5000 (3 runs) -> mvc-t400-l100-u5000 (3 runs), differs in target: mvc-t200")
                .contains("B: better in goodput (+").contains("interval: Welch's t over 3 and 3 runs, 95%");
        Matcher goodput = Pattern.compile("goodput req/s +([0-9,]+) +([0-9,]+) +\\+([0-9,]+) .* better").matcher(c.output());
        assertThat(goodput.find()).as(c.output()).isTrue();
        assertThat(number(goodput.group(1))).as("A: T/L").isBetween(1_950.0, 2_000.0);
        assertThat(number(goodput.group(2))).as("B: the offered load").isBetween(3_050.0, 3_125.0);
        assertThat(c.output()).containsPattern("p99 ms .* better");
    }

    @Test
    void worseBeyondTheLimitExitsThreeAndWithinItZero() {
        LabCommand.Finished worse = LabCommand.inThisJvm("compare", points("mvc-t400-l100-u5000"),
                points("mvc-t200-l100-u5000"), "--fail-if-worse", "goodput:5");
        assertThat(worse.exitCode()).as(worse.output()).isEqualTo(ExitCode.WORSE);
        assertThat(worse.output()).containsPattern("WORSE: mvc-t200-l100-u5000: goodput worse by 3[0-9]\\.[0-9]% \\(more than 5%\\)");

        LabCommand.Finished tolerated = LabCommand.inThisJvm("compare", points("mvc-t400-l100-u5000"),
                points("mvc-t200-l100-u5000"), "--fail-if-worse", "goodput:50");
        assertThat(tolerated.exitCode()).as("36% worse, 50% tolerated\n" + tolerated.output()).isZero();
    }

    @Test
    void twoSettingsThatDifferAreRefusedNamingBoth() {
        LabCommand.Finished c = LabCommand.inThisJvm("compare", points("mvc-t200-l100-u5000"),
                points("mvc-t400-l100-u10000"));
        assertThat(c.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(c.output()).contains("differ in more than the one setting").contains("target: mvc-t200").contains("users: 5000 → 10000");
    }

    /**
     * One injector against two at 20,000 users (published): the injector count differs, and so did the connections
     * (one Gatling JVM could not hold 20,000 and shared a pool; two held one each): refused, both named.
     */
    @Test
    void whatTheInjectorDidCountsAsASetting() {
        LabCommand.Finished c = LabCommand.inThisJvm("compare", points("webflux-l100-u20000"),
                Lab.repo().resolve("docs/results-injectors/webflux-l100-u20000").toString());
        assertThat(c.exitCode()).as(c.output()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(c.output()).contains("connections used: shared → per-user").contains("injectors: 1 → 2");
    }

    /** The same target on JDK 21 (--jdk) and on the runner's own JDK 25: the one setting that differs names both sides' JDK. */
    @Test
    void aTargetOnAnotherJdkIsComparedNamingBothJdks() {
        LabCommand.Finished c = LabCommand.inThisJvm("compare",
                Lab.repo().resolve("docs/results-jdk/jdk21/points/mvc-virtual-pinned-l100-rate25").toString(),
                Lab.repo().resolve("docs/results-jdk/jdk25/points/mvc-virtual-pinned-l100-rate25").toString());
        assertThat(c.exitCode()).as(c.output()).isZero();
        assertThat(c.output()).contains("differs in JDK: 21.0.8 (Eclipse Adoptium) → the runner's own (no --jdk)");
    }

    /** Two runs of one point, one each: batch means over their plateau seconds, goodput the same within the noise. */
    @Test
    void twoSingleRunsOfOnePointAreComparedOverTheirSeconds() {
        LabCommand.Finished c = LabCommand.inThisJvm("compare", points("webflux-l100-u5000-r1"),
                points("webflux-l100-u5000-r2"));
        assertThat(c.exitCode()).as(c.output()).isZero();
        assertThat(c.output()).contains("(1 run) -> webflux-l100-u5000 (1 run), the same settings")
                .containsPattern("goodput req/s .* no difference beyond the noise")
                .contains("interval: batch means over").contains("weaker than repeats")
                .containsPattern("server-cpu ms/response .* no interval");
    }

    /** Two single quick runs: a plateau of a few seconds is too short for batch means, so goodput has no interval. */
    @Test
    void singleRunsWithAShortPlateauGetNoIntervalNotARefusal() {
        String twice = Lab.repo().resolve("docs/results-twice").toString();
        LabCommand.Finished c = LabCommand.inThisJvm("compare", twice + "/quick-1/points/mvc-t20-l100-u100-r1",
                twice + "/quick-2/points/mvc-t20-l100-u100-r1");
        assertThat(c.exitCode()).as(c.output()).isZero();
        assertThat(c.output()).containsPattern("goodput req/s .* no interval").doesNotContain("batch means");
    }

    /** --verdict prints what the docs carry between their compare-verdict markers: the same sweep twice, published. */
    @Test
    void theVerdictIsWhatTheDocsCarry() throws Exception {
        String twice = Lab.repo().resolve("docs/results-twice").toString();
        LabCommand.Finished c = LabCommand.inThisJvm("compare", twice + "/quick-1", twice + "/quick-2", "--verdict");
        assertThat(c.exitCode()).as(c.output()).isZero();
        String readme = java.nio.file.Files.readString(Lab.repo().resolve("docs/results-twice/README.md"));
        String marker = "<!-- compare-verdict: ./lab compare docs/results-twice/quick-1 docs/results-twice/quick-2 --verdict -->\n";
        String carried = readme.substring(readme.indexOf(marker) + marker.length(), readme.indexOf("<!-- /compare-verdict -->"));
        assertThat(c.output()).isEqualTo(carried).startsWith("- 9 points compared, 54 metrics: ");
    }

    /**
     * The JVM-event recording is a setting: off against on (published, the same points) is the one difference; beside
     * another setting it is said, not refused (it was measured to cost nothing beyond the noise).
     */
    @Test
    void recordingJvmEventsIsASettingSaidBesideAnother() {
        String jvm = Lab.repo().resolve("docs/results-jvm").toString();
        LabCommand.Finished c = LabCommand.inThisJvm("compare", jvm + "/off/points/webflux-l100-u5000",
                jvm + "/on/points/webflux-l100-u5000");
        assertThat(c.exitCode()).as(c.output()).isZero();
        assertThat(c.output()).contains("webflux-l100-u5000 (3 runs) -> webflux-l100-u5000 (3 runs), differs in JVM events: not recorded → recorded");

        LabCommand.Finished beside = LabCommand.inThisJvm("compare", jvm + "/off/points/webflux-l100-u5000",
                jvm + "/on/points/mvc-virtual-l100-u5000");
        assertThat(beside.exitCode()).as(beside.output()).isZero();
        assertThat(beside.output()).contains("differs in target: webflux → mvc-virtual")
                .contains("note: JVM events not recorded in A, recorded in B (a recording measured to cost nothing beyond the noise)");
    }

    /** One published search each: the capacity's difference is shown, with each ladder's step, and no interval. */
    @Test
    void oneSearchEachShowsTheStepsAndNoInterval() {
        String capacity = Lab.repo().resolve("docs/capacity").toString();
        LabCommand.Finished c = LabCommand.inThisJvm("compare", capacity + "/mvc-t200-l100", capacity + "/mvc-t400-l100");
        assertThat(c.exitCode()).as(c.output()).isZero();
        assertThat(c.output()).contains("mvc-t200-l100 (1 search) -> mvc-t400-l100 (1 search), differs in target: mvc-t200 → mvc-t400")
                .containsPattern("capacity req/s +2,000 +4,000 +\\+2,000 +\\+100\\.0% +- +no interval")
                .contains("B: 1 without an interval (one search each, or a capacity found only as a lower bound: ./lab capacity --repeats 3 on both sides)")
                .contains("note: one search a side says nothing of the noise between searches")
                .contains("note: each search's capacity (and the rate that missed above it): A 2,000 (2,080); B 4,000 (4,160)");

        LabCommand.Finished mixed = LabCommand.inThisJvm("compare", capacity + "/mvc-t200-l100", points("mvc-t200-l100-u5000"));
        assertThat(mixed.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(mixed.output()).contains("holds capacity searches and")
                .contains("holds runs: compare capacity searches with capacity searches, runs with runs");
        LabCommand.assertNoStackTrace(mixed.output());
    }

    @Test
    void badInputIsOneLine(@TempDir Path tmp) {
        LabCommand.Finished missing = LabCommand.inThisJvm("compare", tmp.resolve("nothing").toString(),
                points("mvc-t200-l100-u5000"));
        assertThat(missing.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(missing.output()).contains("nothing: neither a sweep");
        LabCommand.Finished limit = LabCommand.inThisJvm("compare", points("mvc-t200-l100-u5000"),
                points("mvc-t400-l100-u5000"), "--fail-if-worse", "latency:5");
        assertThat(limit.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(limit.output()).contains("'latency' is not a metric; allowed: goodput, p50, p95, p99, ko, server-cpu, capacity");
        LabCommand.assertNoStackTrace(missing.output() + limit.output());
    }

    private static double number(String figure) {
        return Double.parseDouble(figure.replace(",", ""));
    }
}
