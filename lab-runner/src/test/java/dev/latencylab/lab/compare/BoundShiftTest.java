package dev.latencylab.lab.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.latencylab.lab.summary.PoolEvidence;
import dev.latencylab.lab.summary.ServiceModel;
import dev.latencylab.lab.summary.ServiceRows;
import dev.latencylab.lab.summary.Points;
import dev.latencylab.lab.summary.Summary;

/** Which pool decided each side of a comparison of a service, from its own metrics, and how far its bound moved. */
class BoundShiftTest {

    private static Summary.PointRow point(PoolEvidence e) {
        return Points.of(List.of(ServiceRows.run(400, 1, 98, 2000, 0.2, e)), Map.of()).get(0);
    }

    @Test
    void aResizedPoolFullOnBothSidesMovesItsBound() {
        assertThat(BoundShift.of(point(ServiceRows.evidence("HikariCP", 10.0, 101.0, 99.0)), point(ServiceRows.evidence("HikariCP", 20.0, 101.0, 198.0))))
                .contains("HikariCP 10 → 20 connections: its bound moved from 99 to 198 req/s (full on both sides)");
    }

    /**
     * Each side's model calibrated on its lightest load (20 users, 12.2 req/s: L + Z = 1.64 s): the knee, bound × (L + Z),
     * moves with the bound; a pool that publishes no hold time is taken as held L each (p50 105 ms there).
     */
    @Test
    void theKneeMovesWithTheBoundByEachSidesModel() {
        Optional<ServiceModel> calibrated = ServiceModel.calibratedAt(Points.of(List.of(ServiceRows.run(20, 1, 12.2, 105, 0.1,
                ServiceRows.evidence(null, null, null, null))), Map.of()).get(0));
        assertThat(calibrated).isPresent();
        double cycle = 20 / 12.2;
        assertThat(BoundShift.of(point(ServiceRows.evidence("HikariCP", 10.0, 101.0, 99.0)), point(ServiceRows.evidence("HikariCP", 20.0, 101.0, 198.0)),
                calibrated, calibrated))
                .contains("HikariCP 10 → 20 connections: its bound moved from 99 to 198 req/s, the knee from %,.0f to %,.0f users (full on both sides)"
                        .formatted(99 * cycle, 198 * cycle));
        assertThat(BoundShift.of(point(ServiceRows.evidence("r2dbc-pool", 10.0, null, null)), point(ServiceRows.evidence("r2dbc-pool", 20.0, null, null)),
                calibrated, calibrated).orElseThrow()).as("no hold time published: size / L").contains("its bound moved from %,.0f to %,.0f req/s"
                        .formatted(10 / 0.105, 20 / 0.105));
        assertThat(BoundShift.of(point(ServiceRows.evidence("r2dbc-pool", 10.0, null, null)), point(ServiceRows.evidence("r2dbc-pool", 20.0, null, null)))
                .orElseThrow()).as("without a model").contains("its bound is not published (no hold time)");
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
