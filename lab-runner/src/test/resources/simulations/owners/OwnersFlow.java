package flows;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.csv;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.jsonPath;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.core.CoreDsl.substring;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import java.time.Duration;

import dev.latencylab.load.LabLoad;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;

/**
 * A user's flow, as a Gatling user writes one (the lab's code never saw it): an owner registered from a CSV feeder, read
 * back twice by the id its answer gave, its visits counted (the service redirects them to another host). One line
 * takes the lab's load: setUp(LabLoad.load(...)).
 */
public class OwnersFlow extends Simulation {

    ScenarioBuilder owners = scenario("owners")
            .feed(csv("owners.csv").circular())
            .exec(http("register owner").post("/owners").body(StringBody("{\"name\":\"#{name}\"}")).asJson()
                    .check(status().is(201), jsonPath("$.id").saveAs("id")))
            .pause(Duration.ofMillis(100))
            .repeat(2).on(exec(http("read owner").get("/owners/#{id}").check(status().is(200), substring("#{name}"))))
            .exec(http("count visits").get("/owners/#{id}/visits").check(jsonPath("$.count").is("3")));

    {
        setUp(LabLoad.load(owners)).protocols(LabLoad.http());
    }
}
