package dev.latencylab.lab.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.latencylab.lab.Lab;

/**
 * One letter, one meaning: the model's letters as the glossary defines them, and every place the docs set a letter to a
 * thing the glossary names (carriers, a connection pool, PostgreSQL's max_connections, the pool that bounds) uses that
 * thing's letter.
 */
class LettersTest {

    private static final Path GLOSSARY = Lab.repo().resolve("docs/glossary.md");
    /** A letter's definition in the glossary: **X**: what it is. */
    private static final Pattern DEFINED = Pattern.compile("\\*\\*([A-Zλ])\\*\\*: ([^.]+)");

    private static Map<String, String> letters() throws IOException {
        String glossary = Files.readString(GLOSSARY).replaceAll("\\s+", " ");
        Map<String, String> letters = new LinkedHashMap<>();
        Matcher m = DEFINED.matcher(glossary);
        while (m.find()) {
            letters.putIfAbsent(m.group(1), m.group(2));
        }
        return letters;
    }

    @Test
    void theGlossaryDefinesEachLetterOfItsHeadingOnce() throws IOException {
        Map<String, String> letters = letters();
        String heading = Files.readAllLines(GLOSSARY).stream().filter(l -> l.startsWith("## T, ")).findFirst().orElseThrow();
        assertThat(List.of(heading.substring(3).split(", "))).containsExactlyElementsOf(letters.keySet());
        assertThat(letters.get("C")).contains("carrier");
        assertThat(letters.get("P")).contains("connection pool");
        assertThat(letters.get("M")).contains("max_connections");
    }

    /** Where a thing the glossary names is given a letter, the letter is that thing's, in every Markdown file. */
    @Test
    void everyLetterGivenToAThingIsTheGlossarysForIt() throws IOException {
        Map<Pattern, String> uses = Map.of(
                // -Djdk.virtualThreadScheduler.parallelism=X: the carriers
                Pattern.compile("parallelism=([A-Z])\\b"), "C",
                // the carriers as a pool, or their bound: T = X, X/L in a sentence about carriers
                Pattern.compile("carriers?[^.]{0,80}?\\bT = ([A-Z])\\b"), "C",
                Pattern.compile("carriers?'? ([A-Z])/L\\b"), "C",
                // PostgreSQL's max_connections given in a target id
                Pattern.compile("-pg<([A-Z])>"), "M");
        List<String> wrong = new ArrayList<>();
        for (Path text : DocsLinksTest.markdown()) {
            String s = Files.readString(text).replaceAll("\\s+", " ");
            uses.forEach((pattern, letter) -> {
                Matcher m = pattern.matcher(s);
                while (m.find()) {
                    if (!m.group(1).equals(letter)) {
                        wrong.add("%s: \"%s\" uses %s, the glossary's letter is %s".formatted(Lab.repo().relativize(text), m.group(), m.group(1), letter));
                    }
                }
            });
        }
        assertThat(wrong).isEmpty();
    }
}
