package dev.latencylab.load;

import static io.gatling.javaapi.core.CoreDsl.rampUsers;

import java.util.List;

import dev.latencylab.load.settings.SimulationSettings;

import io.gatling.javaapi.core.OpenInjectionStep;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.http.HttpDsl;
import io.gatling.javaapi.http.HttpProtocolBuilder;

/**
 * What a Gatling simulation of yours takes from the lab, so that ./lab run, sweep and capacity --simulation vary its load
 * and know where it sends: its load ({@code setUp(LabLoad.load(scenario))}: the users of a closed load, -Dsim.users over
 * -Dsim.ramp.seconds, or the arrival rates of an open one, -Dsim.rates, each arrival a user that runs the scenario once,
 * as the lab's own simulation takes them) and the service's base URL (-Dbase.url, which the lab checked). Outside the
 * lab (./mvnw gatling:test) the same properties and their defaults apply. From Kotlin the same static methods are
 * called; from Scala, dev.latencylab.load.scaladsl.LabLoad's.
 */
public final class LabLoad {

    private LabLoad() {
    }

    /**
     * The lab's load for this scenario, whichever it gave: its users (as {@link #users}) or its arrival rates (sim.rates:
     * a ramp to each rate, then the rate held for sim.level.seconds, each arrival a user that runs the scenario once).
     */
    public static PopulationBuilder load(ScenarioBuilder scenario) {
        SimulationSettings settings = SimulationSettings.fromSystemProperties();
        if (settings.openLoad().isEmpty()) {
            return users(scenario);
        }
        List<OpenInjectionStep> steps = OpenSteps.of(settings.openLoad().get());
        OpenSteps.remember(steps);
        return scenario.injectOpen(steps);
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
     * no request leaves the host the lab checked (a 3xx is a KO of its own); HTTP/2 when the lab loads it so (sim.http2).
     * Add to it as to any protocol.
     */
    public static HttpProtocolBuilder http() {
        SimulationSettings.Endpoint endpoint = SimulationSettings.fromSystemProperties().endpoint();
        HttpProtocolBuilder http = HttpDsl.http.baseUrl(endpoint.baseUrl()).disableFollowRedirect();
        return endpoint.http2() ? http.enableHttp2() : http;
    }
}
