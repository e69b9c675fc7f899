import io.gatling.javaapi.core.CoreDsl.scenario
import io.gatling.javaapi.core.Simulation
import dev.latencylab.load.LabLoad

/** A flow in Kotlin whose other host (PORT: the test's counting server) is a raw string and an upper-case base URL. */
class ElsewhereKt : Simulation() {

    private val raw = """
        http://127.0.0.2:PORT/raw-string
    """.trimIndent()

    private val flow = scenario("elsewhere").exec(io.gatling.javaapi.http.HttpDsl.http("raw string").get(raw))
        .exec(io.gatling.javaapi.http.HttpDsl.http("upper case").get("/upper-case"))

    init {
        setUp(LabLoad.load(flow)).protocols(LabLoad.http().baseUrl("HTTP://127.0.0.2:PORT"))
    }
}
