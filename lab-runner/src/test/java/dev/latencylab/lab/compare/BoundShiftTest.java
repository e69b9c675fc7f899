package dev.latencylab.lab.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.latencylab.lab.summary.PoolEvidence;
import dev.latencylab.lab.summary.ServiceRows;
import dev.latencylab.lab.summary.Summary;

/** Which pool decided each side of a comparison of a service, from its own metrics, and how far its bound moved. */
class BoundShiftTest {

    private static Summary.PointRow point(PoolEvidence e) {
        return Summary.points(List.of(ServiceRows.run(400, 1, 98, 2000, 0.2, e)), Map.of()).get(0);
    }

    @Test
    void aResizedPoolFullOnBothSidesMovesItsBound() {
        assertThat(BoundShift.of(point(ServiceRows.evidence("HikariCP", 10.0, 101.0, 99.0)), point(ServiceRows.evidence("HikariCP", 20.0, 101.0, 198.0))))
                .contains("HikariCP 10 → 20 connections: its bound moved from 99 to 198 req/s (full on both sides)");
    }

    @Test
    void aPoolFullOnOneSideOnlyIsSaidForEach() {
        assertThat(BoundShift.of(point(ServiceRows.evidence("HikariCP", 10.0, 101.0, 99.0)), point(ServiceRows.evidence(null, 20.0, null, null))))
                .contains("the pool that decided moved: A HikariCP (10 connections, bound 99 req/s), B none full");
        assertThat(BoundShift.of(point(ServiceRows.evidence(null, 10.0, null, null)), point(ServiceRows.evidence(null, 20.0, null, null))))
                .contains("no pool the server publishes was full on either side");
        assertThat(BoundShift.of(point(PoolEvidence.NONE), point(PoolEvidence.NONE))).as("no pools published: nothing to say").isEmpty();
    }
}
