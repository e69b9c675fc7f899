import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;

/** A simulation that injects its own users and reads the base URL as Gatling users often do: it ignores the lab's load. */
public class OwnUsers extends Simulation {

    ScenarioBuilder owners = scenario("owners").exec(http("list owners").get("/owners"));

    {
        setUp(owners.injectOpen(atOnceUsers(2))).protocols(http.baseUrl(System.getProperty("base.url")));
    }
}
