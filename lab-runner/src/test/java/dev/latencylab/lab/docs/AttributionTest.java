package dev.latencylab.lab.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.latencylab.lab.Lab;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.summary.Attribution;
import dev.latencylab.lab.summary.MachineCeiling;
import dev.latencylab.lab.summary.Stages;
import dev.latencylab.lab.summary.Summary;
import dev.latencylab.lab.sweep.Sweep;

/**
 * One attribution for each point, everywhere: a findings bullet that names the points it speaks of (an "owed" comment)
 * owes them to what its lead says, the model or this machine; so do the points' own flags (Attribution), README's
 * generated verdict for the stage that holds each point, and the sweep's page. A document that says otherwise fails.
 */
class AttributionTest {

    private static final Pattern OWED = Pattern.compile("<!-- owed: (\\S+) ([^>]+?) -->");

    /** A findings bullet's lead (the model or this machine), the sweep it cites, and the points it owes. */
    record Owed(Attribution lead, String sweep, List<String> points) {
    }

    static List<Owed> owed(String findings) {
        List<String> lines = findings.lines().toList();
        List<Owed> all = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = OWED.matcher(lines.get(i));
            if (!m.find()) {
                continue;
            }
            int start = i;
            while (!lines.get(start).startsWith("- **")) {
                start--;
            }
            String lead = lines.get(start).substring(4);
            Attribution decider = lead.startsWith("The model") ? Attribution.MODEL
                    : lead.startsWith("This machine") ? Attribution.MACHINE : null;
            assertThat(decider).as("a bullet that owes points leads with the model or this machine: " + lead).isNotNull();
            all.add(new Owed(decider, m.group(1), Arrays.asList(m.group(2).trim().split(" +"))));
        }
        return all;
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file);
    }

    /** README's generated verdict of a sweep (./lab report docs/SWEEP --verdict), or null where README has none. */
    private static String readmeVerdict(String readme, String sweep) {
        Matcher m = Pattern.compile("<!-- ([a-z-]+): \\./lab report docs/" + Pattern.quote(sweep) + " --verdict -->").matcher(readme);
        return m.find() ? readme.substring(m.end(), readme.indexOf("<!-- /" + m.group(1) + " -->")) : null;
    }

    private static String readmeLine(String verdict, String target) {
        return verdict.lines().filter(l -> l.startsWith("- **" + target + "**:")).findFirst()
                .orElseThrow(() -> new AssertionError("README has no line for " + target));
    }

    private static String pageLine(String page, String target) {
        Matcher m = Pattern.compile(">" + Pattern.quote(target) + "</strong>: ([^<]*)").matcher(page);
        assertThat(m.find()).as("the page's line for " + target).isTrue();
        return m.group(1);
    }

    private static String users(Summary.PointRow p) {
        return "%,d users".formatted(p.identity().users());
    }

    @Test
    void findingsReadmeAndPagesOweEachPointAlike() throws IOException {
        List<Owed> owed = owed(read(Lab.repo().resolve("docs/findings.md")));
        assertThat(owed).as("the default sweep's bullets, at least").hasSizeGreaterThanOrEqualTo(6);
        String readme = read(Lab.repo().resolve("README.md"));
        for (Owed o : owed) {
            List<Summary.PointRow> points = Sweep.points(new SweepFolder(Lab.repo().resolve("docs").resolve(o.sweep())));
            String verdict = readmeVerdict(readme, o.sweep());
            String page = read(Lab.repo().resolve("docs").resolve(o.sweep()).resolve("index.html"));
            for (String id : o.points()) {
                Summary.PointRow p = points.stream().filter(r -> r.identity().point().equals(id)).findFirst()
                        .orElseThrow(() -> new AssertionError(o.sweep() + " has no point " + id));
                String what = "%s %s, owed to %s by findings.md".formatted(o.sweep(), id, o.lead().words());
                assertThat(Attribution.ofFlags(p)).as(what + ": its flags " + p.flags().all()).isEqualTo(o.lead());
                String target = p.identity().target();
                List<Stages.Stage> stages = Stages.of(points).stream().filter(t -> t.target().equals(target)).findFirst().orElseThrow().stages();
                int at = -1;
                for (int i = 0; i < stages.size(); i++) {
                    at = stages.get(i).points().contains(p) ? i : at;
                }
                Stages.Stage s = stages.get(at);
                if (verdict != null) { // README's word for the stage that holds it
                    String line = readmeLine(verdict, target);
                    Summary.PointRow cited = s.bound().holds() ? s.first() : s.last();
                    String loads = (s.first() == s.last() ? "at " : s.bound().holds() ? "from " : "up to ") + users(cited);
                    int from = line.indexOf(loads);
                    assertThat(from).as(what + ": README's stage " + loads + " in " + line).isNotNegative();
                    Matcher word = Pattern.compile("; (the model|this machine|a finding)\\)").matcher(line);
                    assertThat(word.find(from)).as(what + ": README owes its stage").isTrue();
                    assertThat(word.group(1)).as(what + ": README's word in " + line).isEqualTo(o.lead().words());
                }
                // the page's stage: it names this machine where the figure is this machine's, and only there
                String line = pageLine(page, target);
                String header = s.first() == s.last() ? "at " + users(s.last()) : "from %s to %s".formatted(users(s.first()), users(s.last()));
                String segment = Arrays.stream(line.split("; (?=followed |held at |below the model |bounded by )")).filter(g -> g.contains(header))
                        .findFirst().orElseThrow(() -> new AssertionError(what + ": the page's stage " + header + " in " + line));
                assertThat(segment.contains("this machine")).as(what + ": the page says " + segment).isEqualTo(o.lead() == Attribution.MACHINE);
            }
        }
    }

    /** The glossary states the rule as Attribution applies it: its three words, its flags, and their thresholds. */
    @Test
    void theGlossaryStatesTheRuleTheVerdictsApply() throws IOException {
        String glossary = read(Lab.repo().resolve("docs/glossary.md")).replaceAll("\\s+", " ");
        String section = glossary.substring(glossary.indexOf("## The model, this machine, a finding"));
        String rule = section.substring(0, section.indexOf("## ", 3));
        for (Attribution a : Attribution.values()) {
            assertThat(rule).contains("**" + a.words().substring(0, 1).toUpperCase() + a.words().substring(1) + "**");
        }
        Attribution.MACHINE_FLAGS.forEach(flag -> assertThat(rule).contains(flag));
        assertThat(rule).contains("%.0f%% of the ceiling".formatted(100 * MachineCeiling.NEAR))
                .contains("within %.0f%%".formatted(100 * dev.latencylab.lab.summary.Summary.MODEL_TOLERANCE));
    }
}
