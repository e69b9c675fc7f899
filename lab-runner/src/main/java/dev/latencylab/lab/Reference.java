package dev.latencylab.lab;

import java.util.ArrayList;
import java.util.List;

import dev.latencylab.load.SimulationSettings;

/**
 * Reference texts made from the code that owns them, so that the docs cannot drift from it: the simulation's
 * properties (SimulationSettings.PROPERTIES) for ./lab run --help and for docs/running.md's table, which
 * ./lab rebuild-docs writes between the markers that name ./lab run --help.
 */
final class Reference {

    private Reference() {
    }

    /** The properties as a Markdown table: name, default, what it does. */
    static String propertiesMarkdown() {
        StringBuilder out = new StringBuilder("| property | default | meaning |\n|---|---|---|\n");
        for (SimulationSettings.Property p : SimulationSettings.PROPERTIES) {
            out.append("| `%s` | %s | %s |\n".formatted(p.name(), cell(p.defaultValue()), cell(p.meaning())));
        }
        return out.toString();
    }

    /** The properties as the footer of ./lab run --help: a line per property, its meaning wrapped beneath it. */
    static String propertiesHelp() {
        StringBuilder out = new StringBuilder("%nSimulation properties (-Dname=value), with their defaults:%n");
        for (SimulationSettings.Property p : SimulationSettings.PROPERTIES) {
            // picocli formats the footer: its own line breaks are %n, a literal % is %%
            out.append("  -D%s  [%s]".formatted(p.name(), p.defaultValue()).replace("%", "%%")).append("%n");
            for (String line : wrap(p.meaning(), 72)) {
                out.append("      ").append(line.replace("%", "%%")).append("%n");
            }
        }
        return out.toString();
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
