package dev.latencylab.load.result;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What ResultCheck finds wrong in a result file, rule by rule, on a published run's file (MVC over HTTP/2 at 20,000
 * users: KO of two reasons, a plateau, the pools its server published) edited in one field: the file as published adds
 * up, and each edit is named by its field with what the other fields give instead.
 */
class ResultCheckTest {

    private static final Path PUBLISHED = Path.of("..", "docs", "results-tls", "default", "points", "mvc-t200-h2-l100-u20000-r1", "result.json");

    /** The problems of the published file once edited. */
    private static List<String> problems(Consumer<ObjectNode> edit) {
        ObjectNode tree = (ObjectNode) Json.MAPPER.readTree(PUBLISHED.toFile());
        edit.accept(tree);
        return ResultCheck.problems(Json.MAPPER.treeToValue(tree, Result.class));
    }

    private static ObjectNode at(ObjectNode tree, String... path) {
        ObjectNode node = tree;
        for (String name : path) {
            node = (ObjectNode) node.get(name);
        }
        return node;
    }

    private static ObjectNode firstPool(ObjectNode tree) {
        return (ObjectNode) at(tree, "server", "pools").get("published").get(0);
    }

    @Test
    void thePublishedFileAddsUp() {
        assertThat(problems(tree -> {
        })).isEmpty();
    }

    @Test
    void theRequestsKoReasonsAndShareAddUp() {
        assertThat(problems(tree -> {
            ObjectNode reasons = at(tree, "requests", "koByReason");
            reasons.put("no response: connection failed", reasons.get("no response: connection failed").asLong() + 1);
        })).containsExactly("requests.koByReason sums to 1,676, not ko 1,675");
        assertThat(problems(tree -> at(tree, "requests").put("koPercent", 5.0))).singleElement().asString()
                .startsWith("requests.koPercent is 5.0; ko/total gives 0.279");
    }

    @Test
    void thePercentilesAreTheHistogramsAndItsEncodingThisVersions() {
        assertThat(problems(tree -> {
            ObjectNode times = at(tree, "responseTimeMs");
            times.put("p50", times.get("p50").asLong() + 1);
        })).singleElement().asString().startsWith("responseTimeMs is not what histogram gives (p50 ");
        assertThat(problems(tree -> at(tree, "histogram").put("encoding", "gzip"))).singleElement().asString()
                .startsWith("histogram: encoding \"gzip\" in \"ms\"; this version reads ");
    }

    @Test
    void eachSecondsSeriesSumsToItsCountAndThePlateauIsWhatItGives() {
        assertThat(problems(tree -> {
            ArrayNode ok = (ArrayNode) at(tree, "throughput").get("okPerSecond");
            ok.set(0, ok.numberNode(ok.get(0).asLong() + 1));
        })).first().asString().startsWith("throughput.okPerSecond sums to 598,326; requests.ok says 598,325");
        assertThat(problems(tree -> {
            ObjectNode throughput = at(tree, "throughput");
            throughput.put("plateauPerSecond", throughput.get("plateauPerSecond").asDouble() + 10);
        })).singleElement().asString().startsWith("throughput.plateauPerSecond is 1989.38").contains("throughput.completedPerSecond gives 1979.38");
    }

    @Test
    void aPoolsShareIsAShareAndItsBoundIsItsSizeOverItsHoldTime() {
        assertThat(problems(tree -> firstPool(tree).put("fullShare", 1.5)))
                .containsExactly("server.pools.published[0] (Tomcat's threads).fullShare is 1.5; a share is from 0 to 1");
        assertThat(problems(tree -> firstPool(tree).put("holdMs", 100.0)))
                .containsExactly("server.pools.published[0] (Tomcat's threads).boundPerSecond is null; its size / holdMs gives 2000.000");
        assertThat(problems(tree -> firstPool(tree).put("size", -1.0))).containsExactly(
                "server.pools.published[0] (Tomcat's threads).size is -1.0; give a number above 0, or none");
    }

    @Test
    void aSplitRunsInjectorIsOneOfItsInjectors() {
        assertThat(problems(tree -> at(tree, "parameters").put("injectors", 0))).containsExactly("parameters.injectors is 0; a run has 1 or more",
                "parameters.injectorIndex is 0, outside 0..injectors-1 (injectors 0)");
        assertThat(problems(tree -> at(tree, "parameters").put("injectors", 2).put("injectorIndex", 2)))
                .containsExactly("parameters.injectorIndex is 2, outside 0..injectors-1 (injectors 2)");
    }
}
