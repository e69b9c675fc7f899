package dev.latencylab.lab.flow;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.latencylab.lab.docs.Reference;

/** Every code ./lab can exit with is said in --help and the docs, and no two mean the same number. */
class ExitCodeTest {

    @Test
    void everyExitCodeHasItsMeaningAndEachItsOwnNumber() {
        List<Integer> codes = Arrays.stream(ExitCode.class.getFields()).filter(f -> Modifier.isStatic(f.getModifiers()) && f.getType() == int.class)
                .map(ExitCodeTest::value).toList();

        assertThat(codes).as("each constant its own number").contains(ExitCode.OK, ExitCode.SLO_MISSED).doesNotHaveDuplicates();
        assertThat(Reference.exitCodesHelp().keySet()).as("the codes --help explains").containsAll(codes.stream().map(String::valueOf).toList());
    }

    private static int value(Field f) {
        try {
            return f.getInt(null);
        }
        catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }
}
