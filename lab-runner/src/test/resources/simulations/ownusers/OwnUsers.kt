import io.gatling.javaapi.core.CoreDsl.atOnceUsers
import io.gatling.javaapi.core.CoreDsl.scenario
import io.gatling.javaapi.core.Simulation
import io.gatling.javaapi.http.HttpDsl.http

/** A simulation in Kotlin that injects its own users and reads the base URL as Gatling users often do: it ignores the lab's load. */
class OwnUsers : Simulation() {

    private val owners = scenario("owners").exec(http("list owners").get("/owners"))

    init {
        setUp(owners.injectOpen(atOnceUsers(2))).protocols(http.baseUrl(System.getProperty("base.url")))
    }
}
