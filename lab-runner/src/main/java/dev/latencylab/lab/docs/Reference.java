package dev.latencylab.lab.docs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.latencylab.load.settings.SimulationProperties;
import dev.latencylab.load.settings.SimulationSettings;
import dev.latencylab.lab.history.History;
import dev.latencylab.lab.summary.Flags;
import dev.latencylab.lab.targets.Target;
import dev.latencylab.lab.targets.TargetIds;

/**
 * Reference texts made from the code that owns them, so that the docs cannot drift from it: the target ids
 * (TargetIds.IDS) and the simulation's properties (SimulationProperties.PROPERTIES) for ./lab run --help, the flags
 * (Flags.FLAGS) for ./lab report --help, and ./lab's exit codes for ./lab --help; the tables of docs/running.md and
 * docs/sweeps.md are written from the same by ./lab rebuild-docs, between the markers that name these commands.
 */
public final class Reference {

    private Reference() {
    }

    /** The target ids as a Markdown table: the form, an example, what it starts, what bounds it in the model. */
    static String targetsMarkdown() {
        StringBuilder out = new StringBuilder("| id | e.g. | starts | the model's bound |\n|---|---|---|---|\n");
        for (TargetIds.IdForm f : TargetIds.IDS) {
            out.append("| `%s` | `%s` | %s | %s |\n".formatted(f.form(), f.example(), cell(f.starts()), cell(f.bound())));
        }
        return out.toString();
    }

    /** The target ids for ./lab run --help: a line per form, what it starts wrapped beneath it. */
    public static String targetsHelp() {
        return helpSection("Target ids (--target), e.g. in brackets; mvc is mvc-t200:", TargetIds.IDS.stream()
                .map(f -> new HelpEntry("%s  [%s]".formatted(f.form(), f.example()), f.starts() + "; the model's bound: " + f.bound())).toList());
    }

    /** The flags as a Markdown table: the flag and when a run or point carries it. */
    static String flagsMarkdown() {
        StringBuilder out = new StringBuilder("| flag | when |\n|---|---|\n");
        for (Flags.Flag f : Flags.FLAGS) {
            out.append("| `%s` | %s |\n".formatted(f.name(), cell(f.when())));
        }
        return out.toString();
    }

    /** The flags for ./lab report --help. */
    public static String flagsHelp() {
        return helpSection("Flags of a run or point (the pages' and CSV files' flags column):",
                Flags.FLAGS.stream().map(f -> new HelpEntry(f.name(), f.when())).toList());
    }

    /** The properties as a Markdown table: name, default, what it does. */
    static String propertiesMarkdown() {
        StringBuilder out = new StringBuilder("| property | default | meaning |\n|---|---|---|\n");
        for (SimulationProperties.Property p : SimulationProperties.PROPERTIES) {
            out.append("| `%s` | %s | %s |\n".formatted(p.name(), cell(p.defaultValue()), cell(p.meaning())));
        }
        return out.toString();
    }

    /** The properties as the footer of ./lab run --help: a line per property, its meaning wrapped beneath it. */
    public static String propertiesHelp() {
        return helpSection("Simulation properties (-Dname=value), with their defaults:", SimulationProperties.PROPERTIES.stream()
                .map(p -> new HelpEntry("-D%s  [%s]".formatted(p.name(), p.defaultValue()), p.meaning())).toList());
    }

    /** One entry of a help footer: its first line, and the text wrapped beneath it. */
    private record HelpEntry(String head, String text) {
    }

    /**
     * A section of a command's help footer: its heading, then each entry's head and its text wrapped beneath it,
     * without Markdown's backticks. picocli formats the footer: its own line breaks are %n, a literal % is %%.
     */
    private static String helpSection(String heading, List<HelpEntry> entries) {
        StringBuilder out = new StringBuilder("%n").append(heading).append("%n");
        for (HelpEntry e : entries) {
            out.append("  ").append(e.head().replace("`", "").replace("%", "%%")).append("%n");
            for (String line : wrap(e.text().replace("`", ""), 72)) {
                out.append("      ").append(line.replace("%", "%%")).append("%n");
            }
        }
        return out.toString();
    }

    /**
     * What each exit code of ./lab means: ./lab --help lists them (picocli's exit code list), and docs/running.md's
     * table is written from the same map by ./lab rebuild-docs.
     */
    static final Map<String, String> EXIT_CODES = exitCodes();

    private static Map<String, String> exitCodes() {
        Map<String, String> codes = new LinkedHashMap<>();
        codes.put("0", "the run (or every point of the sweep) succeeded");
        codes.put("1", "a run or a sweep point failed: the target did not start or another process holds its ports, the "
                + "target rejected the path under test, the target exited or refused connections during the run, a "
                + "dependency the lab started (a db target's PostgreSQL, an http target's downstream service) exited "
                + "during the run, no request succeeded, Gatling failed, or the injectors of a split run gave results "
                + "that do not merge; or the folder is another `./lab` command's (a sweep of the same `--name` under "
                + "way, or one left locked by a `./lab` that was killed: `--take-over`); or a file could not be written "
                + "once the command was under way (one line: the path and why)");
        codes.put("2", "bad input: an unknown option or target id, a value out of range (a port whose actuator port, +1000, "
                + "passes 65535; a negative wait; a latency above the targets' 60,000 ms; more injectors than this "
                + "machine's memory holds at 4 GiB each; an open level that plans no arrival), a misspelt "
                + "`-Dsim.*`/`-Dtest.*`/`-Dbase.*` property, a `-D` that is not the simulation's nor Gatling's "
                + "(`gatling.*`), a server setting given as `-D` (`-Dserver.tomcat.max-threads=400`: the target id sets "
                + "it, e.g. `--target mvc-t400`), a `-D` that contradicts an option (`-Dtarget` beside `--target`, "
                + "`-Dtest.path` beside `--latency-ms`), a `--name` that is not a single folder name, an output folder "
                + "that cannot be made, a property of the other model (`sim.users` with `sim.injection=open`), a rate "
                + "that is not a positive number, a level too short for a plateau, an SLO that is not a number, a "
                + "resumed sweep with other settings or fewer `--repeats`, result files given to `./lab merge` (or read "
                + "by `./lab report`) that are not one run or do not add up, two sides given to `./lab compare` that differ "
                + "in more than one setting or share no point; said in one line with a hint, before anything starts");
        codes.put("3", "`./lab compare --fail-if-worse METRIC:PERCENT`: B is worse than A in that metric beyond the noise, and "
                + "by more than that percentage of A's value; `./lab history --fail-on-change METRIC[:PERCENT]`: the newest change "
                + "point of that metric is for the worse, by more than that percentage, and the machine did not change there the way that "
                + "explains it (slower or busier: a faster machine excuses nothing for the worse)");
        codes.put("4", "`./lab compare --fail-if-worse METRIC:PERCENT` cannot judge that metric on these sides: no interval (one run "
                + "a side for a percentile, KO or CPU; one search a side), a metric the sides do not have (`capacity` of runs, "
                + "`goodput` of capacity searches, CPU not sampled); `./lab history --fail-on-change METRIC[:PERCENT]` cannot judge that "
                + "metric: fewer than " + History.SIDE_RUNS + " runs on each side of a change ("
                + 2 * History.SIDE_RUNS + " in all), or the newest runs differ for the worse and are too "
                + "few to call it a change; one line says what would make it judgeable. Never a pass");
        codes.put("5", "`./lab run --slo METRIC:NUMBER` (or `./lab sweep --slo`): the run (a run of the sweep) missed its objective "
                + "(a percentile or KO above its limit, goodput below it); `./lab capacity --slo ...,capacity:RATE`: the search found "
                + "less; one line for each such run or search says which, and by how much");
        codes.put("130, 143", "stopped by Ctrl-C or SIGTERM: everything the command started (target, its dependencies, Gatling) is "
                + "ended first, and a sweep says how to resume");
        return java.util.Collections.unmodifiableMap(codes);
    }

    /** The exit codes as a Markdown table (backticks kept: they are Markdown already). */
    static String exitCodesMarkdown() {
        StringBuilder out = new StringBuilder("| exit code | meaning |\n|---|---|\n");
        EXIT_CODES.forEach((code, meaning) -> out.append("| %s | %s |\n".formatted(code, cell(meaning))));
        return out.toString();
    }

    /** The exit codes for --help: the same words without Markdown's backticks, a literal % doubled for picocli. */
    public static Map<String, String> exitCodesHelp() {
        return exitCodesHelp(List.copyOf(EXIT_CODES.keySet()));
    }

    /** Those of the codes a command can exit with, for its own --help (e.g. compare: 0, 2, 3, 4). */
    public static Map<String, String> exitCodesHelp(List<String> codes) {
        Map<String, String> help = new LinkedHashMap<>();
        EXIT_CODES.forEach((code, meaning) -> {
            if (codes.contains(code)) {
                help.put(code, meaning.replace("`", "").replace("%", "%%"));
            }
        });
        return help;
    }

    private static String cell(String text) {
        return text.replace("|", "\\|");
    }

    private static List<String> wrap(String text, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ")) {
            if (line.length() > 0 && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            line.append(line.length() == 0 ? "" : " ").append(word);
        }
        lines.add(line.toString());
        return lines;
    }
}
