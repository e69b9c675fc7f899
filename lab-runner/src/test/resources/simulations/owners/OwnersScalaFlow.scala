package flows

import scala.concurrent.duration._

import dev.latencylab.load.scaladsl.LabLoad
import io.gatling.core.Predef._
import io.gatling.http.Predef._

/**
 * The same flow in Gatling's Scala DSL: an owner registered from the CSV feeder, read back twice by the id its answer
 * gave, its visits counted. One line takes the lab's load: setUp(LabLoad.load(...)).
 */
class OwnersScalaFlow extends Simulation {

  val owners = scenario("owners")
    .feed(csv("owners.csv").circular)
    .exec(http("register owner").post("/owners").body(StringBody("""{"name":"#{name}"}""")).asJson
      .check(status.is(201), jsonPath("$.id").saveAs("id")))
    .pause(100.millis)
    .repeat(2)(exec(http("read owner").get("/owners/#{id}").check(status.is(200), substring("#{name}"))))
    .exec(http("count visits").get("/owners/#{id}/visits").check(jsonPath("$.count").is("3")))

  setUp(LabLoad.load(owners)).protocols(LabLoad.httpProtocol)
}
