package dev.latencylab.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LatencyTest {

    @Test
    void acceptsZeroToCap() {
        assertEquals(Duration.ZERO, Latency.parse("0", 60000));
        assertEquals(Duration.ofMillis(150), Latency.parse("150", 60000));
        assertEquals(Duration.ofMillis(60000), Latency.parse("60000", 60000));
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "60001", "abc", "1.5", "", "99999999999999999999", "1e3", " 5"})
    void rejectsWithParameterValueAndRange(String raw) {
        InvalidParameterException e = assertThrows(InvalidParameterException.class, () -> Latency.parse(raw, 60000));
        assertTrue(e.getMessage().startsWith("latency '" + raw + "'"), e.getMessage());
        assertTrue(e.getMessage().contains("from 0 to 60000"), e.getMessage());
        var problem = e.toProblemDetail();
        assertEquals(400, problem.getStatus());
        assertEquals("latency", problem.getProperties().get("parameter"));
        assertEquals(raw, problem.getProperties().get("value"));
    }
}
