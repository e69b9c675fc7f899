package dev.latencylab.load.preflight;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalInt;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import dev.latencylab.load.settings.SimulationSettings;
import dev.latencylab.load.settings.SimulationSettings.ConnectionMode;

/** The preflight's descriptor arithmetic: whether a connection per user fits this process's open files. */
class PreflightArithmeticTest {

    private static SimulationSettings settings(String users, String connections) {
        Properties p = new Properties();
        p.setProperty("sim.users", users);
        p.setProperty("sim.connections", connections);
        return SimulationSettings.from(p);
    }

    @Test
    void perUserConnectionsFitOrAutoSwitchesToShared() {
        Preflight fits = Preflight.decide(settings("10000", "auto"), 20_000, OptionalInt.empty());
        assertThat(fits.connections()).isEqualTo(ConnectionMode.PER_USER);
        assertThat(fits.switched()).isFalse();
        assertThat(fits.openFilesNeeded()).isEqualTo(10_000 + Preflight.JVM_OWN_FILES);

        Preflight switched = Preflight.decide(settings("20000", "auto"), 20_000, OptionalInt.empty());
        assertThat(switched.connections()).isEqualTo(ConnectionMode.SHARED);
        assertThat(switched.switched()).isTrue();

        assertThat(Preflight.decide(settings("20000", "shared"), 20_000, OptionalInt.empty()).switched()).isFalse();
    }

    @Test
    void perUserThatCannotFitStopsWithLimitNeedAndOptions() {
        assertThatThrownBy(() -> Preflight.decide(settings("20000", "per-user"), 20_000, OptionalInt.empty()))
                .hasMessageContaining("20000 users with one connection each need about 20400 open files")
                .hasMessageContaining("this process may open 20000 (ulimit -n)")
                .hasMessageContaining("-Dsim.connections=shared");
    }

    @Test
    void usersThatDoNotOverlapNeedFewerFiles() {
        Properties p = new Properties();
        p.setProperty("sim.users", "10000");
        p.setProperty("sim.ramp.seconds", "600");
        p.setProperty("sim.repeat", "3");
        // each lives 3 x 1.6 s = 4.8 s of a 600 s ramp: about 80 at once
        assertThat(SimulationSettings.from(p).peakActiveUsers()).isEqualTo(81);
    }
}
