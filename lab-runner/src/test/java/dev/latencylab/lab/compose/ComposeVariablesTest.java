package dev.latencylab.lab.compose;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.latencylab.lab.Lab;

/**
 * docs/deploy.md's table of compose's variables is what docker-compose.yml gives: every variable the file reads is in
 * the table, with the default the file has (one default per variable, however many services read it).
 */
class ComposeVariablesTest {

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Z_]+):-([^}]*)}");
    /** A row of the table: | `A`, `B` | a, b | what | (a default may carry a note in brackets: "0 (at once)"). */
    private static final Pattern ROW = Pattern.compile("(?m)^\\| (`[A-Z_]+`(?:, `[A-Z_]+`)*) \\| ([^|]+) \\|");

    @Test
    void theDocsTableListsEveryVariableWithComposesDefault() throws Exception {
        Map<String, String> compose = new LinkedHashMap<>();
        Matcher v = VARIABLE.matcher(Files.readString(Lab.repo().resolve("docker-compose.yml")));
        while (v.find()) {
            String before = compose.putIfAbsent(v.group(1), v.group(2));
            assertThat(before == null ? v.group(2) : before).as("one default for %s", v.group(1)).isEqualTo(v.group(2));
        }
        assertThat(compose).hasSizeGreaterThan(30);

        Map<String, String> docs = new LinkedHashMap<>();
        Matcher row = ROW.matcher(Files.readString(Lab.repo().resolve("docs/deploy.md")));
        while (row.find()) {
            List<String> names = List.of(row.group(1).replace("`", "").split(", "));
            List<String> defaults = List.of(row.group(2).strip().split(", "));
            assertThat(defaults).as("a default for each of %s", names).hasSameSizeAs(names);
            for (int i = 0; i < names.size(); i++) {
                docs.put(names.get(i), defaults.get(i).replaceFirst(" \\(.*\\)$", ""));
            }
        }
        assertThat(docs).containsExactlyInAnyOrderEntriesOf(compose);
    }
}
