package dev.latencylab.load;

import static io.gatling.javaapi.core.CoreDsl.rampUsers;

import dev.latencylab.load.settings.SimulationSettings;

import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.http.HttpDsl;
import io.gatling.javaapi.http.HttpProtocolBuilder;

/**
 * What a Gatling simulation of yours takes from the lab, so that ./lab run and sweep --simulation vary its load and know
 * where it sends: its users ({@code setUp(LabLoad.users(scenario))}: -Dsim.users over -Dsim.ramp.seconds, as the lab's
 * own simulation takes them) and the service's base URL (-Dbase.url, which the lab checked). Outside the lab (./mvnw
 * gatling:test) the same properties and their defaults apply. From Kotlin or Scala the same static methods are called.
 */
public final class LabLoad {

    private LabLoad() {
    }

    /** The lab's users for this scenario: sim.users (this injector's share) arriving evenly over sim.ramp.seconds. */
    public static PopulationBuilder users(ScenarioBuilder scenario) {
        SimulationSettings settings = SimulationSettings.fromSystemProperties();
        return scenario.injectOpen(rampUsers(settings.usersHere()).during(settings.pacing().ramp()));
    }

    /** The service's base URL (scheme, host and port) as the lab checked it: -Dbase.url. */
    public static String baseUrl() {
        return SimulationSettings.fromSystemProperties().endpoint().baseUrl();
    }

    /**
     * Gatling's HTTP protocol as the lab's own simulation has it: the checked base URL, and no redirect followed, so that
     * no request leaves the host the lab checked (a 3xx is a KO of its own). Add to it as to any protocol.
     */
    public static HttpProtocolBuilder http() {
        return HttpDsl.http.baseUrl(baseUrl()).disableFollowRedirect();
    }
}
