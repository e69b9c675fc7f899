package dev.latencylab.lab.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.latencylab.load.settings.SimulationSettings;
import dev.latencylab.lab.targets.Target;

/** ./lab run's properties without a process: what is refused (naming both sides), and which given value wins. */
class RunPropertiesTest {

    @Test
    void aTargetRunTakesItsPathAndPoolThenTheOptionsThenTheGivenProperties() {
        Map<String, String> p = RunProperties.forTarget(Target.parse("mvc-t200"), 250, 40, Map.of(SimulationSettings.RAMP_SECONDS, "3"),
                Map.of(), Map.of(SimulationSettings.TARGET, "mvc-t200", SimulationSettings.RAMP_SECONDS, "7"), 2);
        assertThat(p).containsEntry(SimulationSettings.PATH, "hello/250").containsEntry(SimulationSettings.MODEL_THREADS, "200")
                .containsEntry(SimulationSettings.USERS, "40").containsEntry(SimulationSettings.RAMP_SECONDS, "7")
                .containsEntry(SimulationSettings.INJECTORS, "2").doesNotContainKey(SimulationSettings.TARGET);
        assertThat(RunProperties.forTarget(Target.parse("webflux"), 100, null, Map.of(), Map.of(), Map.of(), 1))
                .as("no pool, the simulation's users, one injector").doesNotContainKeys(SimulationSettings.MODEL_THREADS,
                        SimulationSettings.USERS, SimulationSettings.INJECTORS);
    }

    @Test
    void aPropertyThatContradictsAnOptionOrThatTheRunSetsIsRefusedNamingIt() {
        assertThatThrownBy(() -> RunProperties.checkForTarget(Map.of(SimulationSettings.TARGET, "mvc"), "webflux", null))
                .hasMessage("-Dtarget=mvc and --target webflux: give the target once, with --target");
        assertThatThrownBy(() -> RunProperties.checkForTarget(Map.of(SimulationSettings.PATH, "/hello/5"), null, 100L))
                .hasMessageStartingWith("-Dtest.path=/hello/5 and --latency-ms 100: give one");
        assertThatThrownBy(() -> RunProperties.checkForTarget(Map.of(SimulationSettings.START_AT, "1"), null, null))
                .hasMessageStartingWith("-D" + SimulationSettings.START_AT + ": ./lab run splits a run with --injectors K");
        assertThatThrownBy(() -> RunProperties.checkForTarget(Map.of(SimulationSettings.BASE_URL, "http://localhost:1"), null, null))
                .hasMessageStartingWith("-D" + SimulationSettings.BASE_URL + ": ./lab run sets it for the target it starts");
        RunProperties.checkForTarget(Map.of(SimulationSettings.TARGET, "mvc", SimulationSettings.USERS, "5"), null, null);
        assertThatThrownBy(() -> RunProperties.checkModelThreads(Target.parse("mvc-t200"), Map.of(SimulationSettings.MODEL_THREADS, "50")))
                .hasMessageContaining("mvc-t200's pool is 200, which the model takes as T");
        RunProperties.checkModelThreads(Target.parse("mvc-t200"), Map.of(SimulationSettings.MODEL_THREADS, " 200"));
        assertThatThrownBy(() -> RunProperties.checkForService(Map.of(SimulationSettings.PATH, "/x")))
                .hasMessage("-D" + SimulationSettings.PATH + " and --url: --url sets it (the URL's host, port and path)");
    }

    @Test
    void aServiceRunTakesItsOwnThenTheOptionsThenItsRequestsThenTheGivenProperties() {
        Map<String, String> p = RunProperties.forService(Map.of(SimulationSettings.BASE_URL, "http://127.0.0.1:9", SimulationSettings.USERS, "1"),
                30, Map.of(SimulationSettings.RATE, "5"), Map.of(SimulationSettings.SLO_P99_MS, "200"), Map.of(SimulationSettings.USERS, "2"),
                Map.of(SimulationSettings.SLO_P99_MS, "300"), 1);
        assertThat(p).containsEntry(SimulationSettings.BASE_URL, "http://127.0.0.1:9").containsEntry(SimulationSettings.USERS, "2")
                .containsEntry(SimulationSettings.RATE, "5").containsEntry(SimulationSettings.SLO_P99_MS, "300")
                .doesNotContainKey(SimulationSettings.INJECTORS);
    }
}
