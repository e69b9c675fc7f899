package dev.latencylab.lab.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.latencylab.lab.Lab;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.summary.MachineCeiling;
import dev.latencylab.lab.summary.Spread;
import dev.latencylab.lab.summary.Points;
import dev.latencylab.lab.summary.Summary;
import dev.latencylab.lab.sweep.Sweep;

/**
 * The findings' prose is typed, but its ranges are not: every "median (lowest–highest)" in docs/findings.md, outside
 * the generated tables, is the spread of some point of a published sweep, as the pages print it. Data that changes
 * under the prose fails here, not on a reader's desk.
 */
class FindingsFiguresTest {

    private static final Pattern RANGE = Pattern.compile("(\\d[\\d,]*)(%?) \\((\\d[\\d,]*)%?–(\\d[\\d,]*)%?\\)");
    private static final Pattern GENERATED = Pattern.compile("<!-- ([a-z-]+): .*?<!-- /\\1 -->", Pattern.DOTALL);

    /** Every spread of every published point, printed as the pages print it: whole numbers, CPU in per cent. */
    private static Set<String> publishedSpreads() {
        List<Function<Summary.PointRow, Spread>> counts = List.of(r -> r.rates().goodput(), r -> r.rates().throughput(),
                r -> r.latency().p50Ms(), r -> r.latency().p95Ms(), r -> r.latency().p99Ms());
        List<Function<Summary.PointRow, Spread>> shares = List.of(r -> r.cpu().serverCpu(), r -> r.cpu().injectorCpu(),
                r -> r.cpu().machineCpu());
        Set<String> spreads = new HashSet<>();
        for (String sweep : Published.SWEEPS) {
            List<Summary.RunRow> runs = Sweep.rows(new SweepFolder(Lab.repo().resolve(sweep)));
            for (Summary.PointRow p : Points.of(runs, MachineCeiling.of(runs))) {
                counts.forEach(s -> spreads.add(s.apply(p).format("%,.0f")));
                shares.forEach(s -> spreads.add(s.apply(p).times(100).format("%.0f%%")));
            }
        }
        return spreads;
    }

    @Test
    void everyRangeInTheFindingsIsAPublishedPointsSpread() throws Exception {
        // the generated tables blanked, their lines kept: a failure names the file's own line
        String prose = GENERATED.matcher(Files.readString(Lab.repo().resolve("docs/findings.md")))
                .replaceAll(t -> "\n".repeat((int) t.group().lines().count() - 1));
        Set<String> published = publishedSpreads();
        Matcher m = RANGE.matcher(prose);
        int ranges = 0;
        while (m.find()) {
            String unit = m.group(2);
            String asPrinted = "%s%s (%s%s–%s%s)".formatted(m.group(1), unit, m.group(3), unit, m.group(4), unit);
            int line = (int) prose.substring(0, m.start()).chars().filter(c -> c == '\n').count() + 1;
            assertThat(published).as("docs/findings.md, line %d: %s", line, m.group()).contains(asPrinted);
            ranges++;
        }
        assertThat(ranges).as("the findings give ranges over repeated runs").isGreaterThanOrEqualTo(20);
    }
}
