package dev.latencylab.lab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

/**
 * Each command's --help lists the exit codes it can end with and no other's: compare's 3 and 4 only under compare,
 * run's 5 not under merge; every command has its list, and ./lab --help all of them.
 */
class ExitCodesTest {

    private static boolean lists(String help, String code) {
        return Pattern.compile("(?m)^ +" + Pattern.quote(code) + " {2,}").matcher(help.substring(help.indexOf("Exit codes:"))).find();
    }

    @Test
    void eachCommandListsItsOwnExitCodes() {
        CommandLine cli = LatencyLab.commandLine();
        assertThat(LatencyLab.EXIT_CODES.keySet()).as("every command has its codes").containsExactlyInAnyOrderElementsOf(cli.getSubcommands().keySet());
        String compare = cli.getSubcommands().get("compare").getUsageMessage();
        assertThat(lists(compare, "3")).isTrue();
        assertThat(lists(compare, "4")).isTrue();
        assertThat(lists(compare, "5")).isFalse();
        String run = cli.getSubcommands().get("run").getUsageMessage();
        assertThat(lists(run, "5")).isTrue();
        assertThat(lists(run, "3")).isFalse();
        String merge = cli.getSubcommands().get("merge").getUsageMessage();
        assertThat(lists(merge, "2")).isTrue();
        assertThat(lists(merge, "5")).isFalse();
        assertThat(lists(merge, "130, 143")).isFalse();
        String all = cli.getUsageMessage();
        for (String code : dev.latencylab.lab.docs.Reference.exitCodesHelp().keySet()) {
            assertThat(lists(all, code)).as("./lab --help lists %s", code).isTrue();
        }
    }
}
