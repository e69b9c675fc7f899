package flows;

import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;

import dev.latencylab.load.LabLoad;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;

/**
 * A flow that also sends to another host (PORT: the test's counting server on 127.0.0.2), spelt as no text search of
 * its source reads: a text block, Unicode escapes, and a URL built at run time.
 */
public class Elsewhere extends Simulation {

    static final String TEXT_BLOCK = """
            http://127.0.0.2:PORT/text-block""";
    static final String ESCAPED = "http:\u002f\u002f127.0.0.2:PORT/escaped";

    ScenarioBuilder flow = scenario("elsewhere")
            .exec(http("here").get("/owners"))
            .exec(http("text block").get(TEXT_BLOCK))
            .exec(http("escaped").get(ESCAPED))
            .exec(http("built at run time").get(session -> new StringBuilder("ptth").reverse() + "://127.0.0." + (1 + 1) + ":PORT/built"));

    {
        setUp(LabLoad.load(flow)).protocols(LabLoad.http());
    }
}
