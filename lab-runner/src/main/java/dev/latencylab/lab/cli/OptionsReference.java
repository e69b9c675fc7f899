package dev.latencylab.lab.cli;

import java.util.List;
import java.util.stream.Collectors;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every option of a subcommand as a Markdown table, from the same declarations that parse it and print its help: the
 * docs' one place for options and their defaults (docs/options.md, between markers that ./lab rebuild-docs fills).
 */
public final class OptionsReference {

    private OptionsReference() {
    }

    /** The options of ./lab COMMAND, in the order its help lists them; --help and --version left out. */
    public static String markdown(String command) {
        CommandLine sub = new CommandLine(new LatencyLab()).getSubcommands().get(command);
        if (sub == null) {
            throw new IllegalArgumentException("./lab has no command " + command);
        }
        CommandSpec spec = sub.getCommandSpec();
        StringBuilder table = new StringBuilder("| option | what it sets |\n|---|---|\n");
        for (OptionSpec o : spec.options()) {
            if (o.usageHelp() || o.versionHelp() || o.hidden()) {
                continue;
            }
            table.append("| ").append(cell(names(o))).append(" | ").append(cell(String.join(" ", o.description()))).append(" |\n");
        }
        return table.toString();
    }

    /**
     * Its names, the longest last, with its parameter: `--repeat`, `--requests-per-user=REPEAT`; a parameter picocli
     * names after the field (<levelSeconds>) is named after the option's last word instead (SECONDS), a map's NAME=VALUE
     * (-DNAME=VALUE).
     */
    private static String names(OptionSpec o) {
        String last = o.longestName();
        List<String> names = new java.util.ArrayList<>(List.of(o.names()));
        names.remove(last);
        names.add(last);
        String label = o.typeInfo().isMap() ? "NAME=VALUE"
                : o.paramLabel().startsWith("<") ? last.substring(last.lastIndexOf('-') + 1).toUpperCase(java.util.Locale.ROOT) : o.paramLabel();
        String param = o.arity().max() == 0 ? "" : (last.startsWith("--") ? "=" : "") + label;
        return names.stream().map(n -> "`" + n + (n.equals(last) ? param : "") + "`").collect(Collectors.joining(", "));
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
