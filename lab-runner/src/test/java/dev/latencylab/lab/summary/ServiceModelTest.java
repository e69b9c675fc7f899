package dev.latencylab.lab.summary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * A service's model, calibrated on its lightest load: L its p50 there, L + Z its users over its goodput (Little's
 * law); a pool without a hold time held L each, a connection a client keeps held L + Z; the knee at B (L + Z).
 */
class ServiceModelTest {

    private static final PoolEvidence NONE_FULL = ServiceRows.evidence(null, null, null, null);

    private static List<Summary.PointRow> points(Summary.RunRow... runs) {
        return Points.of(List.of(runs), Map.of());
    }

    @Test
    void theLightestLoadWithNothingFullCalibratesIt() {
        ServiceModel m = ServiceModel.of(points(ServiceRows.run(100, 1, 61.0, 108, 0.2, NONE_FULL), ServiceRows.run(20, 1, 12.5, 104, 0.1, NONE_FULL)))
                .orElseThrow();
        assertThat(m.at().identity().users()).isEqualTo(20);
        assertThat(m.latencyMs()).isEqualTo(104);
        assertThat(m.cycleMs()).isCloseTo(1600, offset(1e-9));
        assertThat(m.offeredLoad(100)).isCloseTo(62.5, offset(1e-9));
        assertThat(m.bound(10)).as("10 held 104 ms each").isCloseTo(96.15, offset(0.01));
        assertThat(m.kneeUsers(100)).as("100 req/s reached at 100 x 1.6 s").isCloseTo(160, offset(1e-9));

        assertThat(ServiceModel.of(points(ServiceRows.run(20, 1, 12.5, 104, 0.1, ServiceRows.evidence("HikariCP", 10.0, 101.0, 99.0)))))
                .as("a lightest load with a pool full: its p50 is a queue's, no calibration").isEmpty();
    }

    @Test
    void aPoolWithoutAHoldTimeIsHeldLAndAConnectionAClientKeepsLPlusZ() {
        ServiceModel m = ServiceModel.calibratedAt(points(ServiceRows.run(20, 1, 12.5, 100, 0.1, NONE_FULL)).get(0)).orElseThrow();
        assertThat(m.fullPoolBound(ServiceRows.evidence("r2dbc-pool", 10.0, null, null))).isCloseTo(100, offset(1e-9));
        assertThat(m.fullPoolBound(ServiceRows.evidence("Tomcat's connections", 10.0, null, null))).as("10 users' connections: 10 / 1.6 s")
                .isCloseTo(6.25, offset(1e-9));
        assertThat(m.fullPoolBound(ServiceRows.evidence("HikariCP", 10.0, 101.0, 99.0))).as("its own hold time where published").isEqualTo(99.0);
        assertThat(m.fullPoolBound(NONE_FULL)).isNull();
        assertThat(m.givenPoolBound(ServiceRows.tomcatGiven(5))).isCloseTo(50, offset(1e-9));
        assertThat(m.givenPoolBound(ServiceRows.tomcatGiven(null))).isNull();
    }
}
