import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.csv;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.jsonPath;
import static io.gatling.javaapi.core.CoreDsl.pause;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import java.time.Duration;

import dev.latencylab.load.LabLoad;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;

/**
 * A flow of the example service as its own users would drive it: register an owner (names and cities from a CSV
 * file), find it by its last name and check its city, then read its visits ten times, 1-2 s apart, by the id the
 * registration answered. The one line that makes it the lab's: setUp(LabLoad.users(visits)).
 */
public class VisitsFlow extends Simulation {

    ScenarioBuilder visits = scenario("visits")
            .feed(csv("owners.csv").circular())
            .exec(http("register owner").post("/owners")
                    .body(StringBody("{\"firstName\": \"#{firstName}\", \"lastName\": \"#{lastName}\", \"city\": \"#{city}\"}")).asJson()
                    .check(status().is(201), jsonPath("$.id").saveAs("id")))
            .exec(http("find owner").get("/owners?lastName=#{lastName}").check(status().is(200), jsonPath("$[0].city").isEL("#{city}")))
            .repeat(10).on(exec(pause(Duration.ofSeconds(1), Duration.ofSeconds(2)),
                    http("read visits").get("/owners/#{id}/visits").check(status().is(200))));

    {
        setUp(LabLoad.users(visits)).protocols(LabLoad.http());
    }
}
