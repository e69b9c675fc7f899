package dev.latencylab.lab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import dev.latencylab.lab.flow.ExitCode;

/**
 * One vocabulary for every command, read from picocli's model of the command line as ./lab builds it: a setting that
 * run and sweep share has one name on both, a name takes one kind of value wherever it appears, no retired spelling is
 * left, and each retired spelling or -D property that has an option, typed, is refused naming what replaced it.
 */
class OptionVocabularyTest {

    private static final CommandLine LAB = LatencyLab.commandLine();

    private static Map<String, OptionSpec> options(String command) {
        Map<String, OptionSpec> byName = new HashMap<>();
        LAB.getSubcommands().get(command).getCommandSpec().options().forEach(o -> List.of(o.names()).forEach(n -> byName.put(n, o)));
        return byName;
    }

    /**
     * What kind of value an option takes: none (a flag), a number or text; one or several alike (sweep --users takes
     * several of what run --users takes one of).
     */
    private static String kind(OptionSpec o) {
        if (o.arity().max() == 0) {
            return "flag";
        }
        Class<?> type = o.typeInfo().isMultiValue() ? o.typeInfo().getAuxiliaryTypes()[0] : o.typeInfo().getType();
        return type.isPrimitive() || Number.class.isAssignableFrom(type) ? "number" : type.getSimpleName();
    }

    @Test
    void theLoadsShapeHasOneNameOnRunAndSweep() {
        Set<String> shape = new TreeSet<>(List.of("--ramp-seconds", "--requests-per-user", "--think-min-ms", "--think-max-ms", "--connections",
                "--rates", "--level-seconds"));
        shape.addAll(LoadShapeOptions.OPTION_OF.values());
        for (String command : List.of("run", "sweep")) {
            assertThat(options(command).keySet()).as(command).containsAll(shape);
        }
    }

    @Test
    void aNameTakesOneKindOfValueWherever() {
        Map<String, Map<String, String>> kinds = new HashMap<>();
        LAB.getSubcommands().forEach((command, cli) -> cli.getCommandSpec().options().forEach(o -> List.of(o.names())
                .forEach(n -> kinds.computeIfAbsent(n, k -> new HashMap<>()).put(command, kind(o)))));
        kinds.forEach((name, byCommand) -> assertThat(new TreeSet<>(byCommand.values())).as("%s on %s", name, byCommand).hasSize(1));
    }

    @Test
    void noRetiredSpellingIsLeftAndEachTypedSaysItsReplacement() {
        RetiredOptions.RETIRED.forEach((command, retired) -> {
            assertThat(options(command).keySet()).as(command).doesNotContainAnyElementsOf(retired.keySet());
            retired.forEach((old, now) -> {
                Finished refused = execute(command, old, "1");
                assertThat(refused.exit()).as(refused.output()).isEqualTo(ExitCode.BAD_INPUT);
                assertThat(refused.output()).isEqualTo("latency-lab: %s %s: retired; give %s%n".formatted(command, old, now));
            });
        });
        for (String gone : List.of("--page", "--report", "--slo-p99-ms", "--slo-ko-percent", "--max-ko-percent", "--repeat", "--mvc-port")) {
            LAB.getSubcommands().forEach((command, cli) -> assertThat(options(command)).as(command).doesNotContainKey(gone));
        }
    }

    /** What a command's --help shows a user to type is what it takes: no retired option, no -D property it refuses. */
    @Test
    void noHelpShowsWhatItsCommandRefuses() {
        LAB.getSubcommands().forEach((command, cli) -> {
            String help = cli.getUsageMessage(CommandLine.Help.Ansi.OFF);
            RetiredOptions.RETIRED.getOrDefault(command, Map.of()).keySet()
                    .forEach(old -> assertThat(help).as(command + " --help").doesNotContainPattern(java.util.regex.Pattern.quote(old) + "\\b"));
            java.util.regex.Matcher d = java.util.regex.Pattern.compile("-D([a-z][a-z.]*)=").matcher(help);
            while (d.find()) {
                assertThat(LoadShapeOptions.OPTION_OF).as("%s --help shows -D%s", command, d.group(1)).doesNotContainKey(d.group(1));
            }
        });
    }

    @Test
    void aPropertyThatHasAnOptionIsRefusedAsDNamingTheOption() {
        LoadShapeOptions.OPTION_OF.forEach((property, option) -> {
            Finished refused = execute("run", "-D" + property + "=1");
            assertThat(refused.exit()).as(refused.output()).isEqualTo(ExitCode.BAD_INPUT);
            assertThat(refused.output()).startsWith("latency-lab: -D%s: give %s instead".formatted(property, option));
        });
    }

    private record Finished(int exit, String output) {
    }

    private static Finished execute(String... args) {
        StringWriter console = new StringWriter();
        PrintWriter writer = new PrintWriter(console, true);
        int exit = LatencyLab.commandLine().setOut(writer).setErr(writer).execute(args);
        return new Finished(exit, console.toString());
    }
}
