package dev.latencylab.lab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

import dev.latencylab.lab.layout.ResultsFolders;

/**
 * --results and --name are declared once (ResultsOptions, NameOption) and said by each command as it means them: its
 * own default folder, the one ResultsFolders gives it, and whether a name that exists is resumed.
 */
class ResultsOptionsTest {

    private static String help(CommandLine cli, String command, String option) {
        return String.join(" ", cli.getSubcommands().get(command).getCommandSpec().findOption(option).description());
    }

    @Test
    void eachCommandSaysItsOwnFolderAndWhetherANameResumes() {
        CommandLine cli = LatencyLab.commandLine();
        Map<String, String> defaults = Map.of("run", ResultsFolders.RUNS, "sweep", ResultsFolders.RESULTS + "/",
                "capacity", ResultsFolders.SEARCHES, "footprint", ResultsFolders.FOOTPRINTS);
        defaults.forEach((command, folder) -> assertThat(help(cli, command, "--results")).as(command)
                .contains("(default: " + folder + " in the repository)"));
        assertThat(help(cli, "sweep", "--name")).contains("resume");
        assertThat(help(cli, "footprint", "--name")).contains("resume");
        assertThat(help(cli, "capacity", "--name")).doesNotContain("resume");
        assertThat(cli.getSubcommands().get("run").getCommandSpec().findOption("--name")).as("a run's folder is never named").isNull();
    }
}
