package dev.latencylab.load.settings;

import dev.latencylab.load.result.Result;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The requests a run sends, as a user writes them: a requests file (weights, methods, bodies beside it, comments),
 * one request with a method and a body, headers; what is wrong named with its file and line; and the turn that sends
 * them in their weights' proportions.
 */
class RequestMixTest {

    @TempDir
    Path dir;

    private Path file(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    private static SimulationSettings settings(Map<String, String> properties) {
        return SimulationSettings.from(properties);
    }

    @Test
    void aRequestsFileIsReadWithItsWeightsBodiesAndComments() throws IOException {
        file("owner.json", "{\"lastName\":\"Davis\"}");
        Path requests = file("requests.txt", """
                # the mix of a morning
                3 GET /owners?lastName=Davis

                GET owners/2/visits
                1 post /owners @owner.json
                """);
        SimulationSettings s = settings(Map.of(SimulationSettings.REQUESTS_FILE, requests.toString(), "sim.header.Authorization", "Bearer x"));
        RequestMix mix = s.endpoint().mix();
        assertThat(mix.requests()).extracting(RequestMix.Request::name)
                .containsExactly("GET /owners?lastName=Davis", "GET /owners/2/visits", "POST /owners");
        assertThat(mix.requests()).extracting(RequestMix.Request::weight).containsExactly(3, 1, 1);
        assertThat(mix.requests().get(2).body()).asString().isEqualTo("{\"lastName\":\"Davis\"}");
        assertThat(mix.requests().get(2).contentType()).isEqualTo("application/json");
        assertThat(mix.headers()).containsExactly(Map.entry("Authorization", "Bearer x"));
        assertThat(mix.headersOf(mix.requests().get(2))).as("a body's type beside every request's headers")
                .containsExactlyInAnyOrderEntriesOf(Map.of("Authorization", "Bearer x", "Content-Type", "application/json"));
        assertThat(mix.headersOf(mix.requests().get(0))).as("no body, no type").containsOnlyKeys("Authorization");
        RequestMix typed = settings(Map.of(SimulationSettings.REQUESTS_FILE, requests.toString(), "sim.header.content-type", "text/csv"))
                .endpoint().mix();
        assertThat(typed.headersOf(typed.requests().get(2))).as("a header's type wins").containsExactly(Map.entry("content-type", "text/csv"));
        assertThat(s.endpoint().path()).as("the first request's: the model reads it").isEqualTo("/owners?lastName=Davis");
        assertThat(mix.mixed()).isTrue();

        assertThat(SimulationSettings.from(s.toProperties())).as("round trip").isEqualTo(s);
        Result.Parameters recorded = s.result();
        assertThat(recorded.endpoint().requestMix()).containsExactly("3 GET /owners?lastName=Davis", "1 GET /owners/2/visits", "1 POST /owners");
        assertThat(recorded.endpoint().headers()).as("names only: a value may be a secret").containsExactly("Authorization");
        assertThat(recorded.toString()).doesNotContain("Bearer");
    }

    @Test
    void oneTurnSendsEachRequestAsOftenAsItsWeightSpreadEvenly() {
        RequestMix mix = new RequestMix(java.util.Optional.empty(), List.of(
                new RequestMix.Request("GET", "/a", java.util.Optional.empty(), 3),
                new RequestMix.Request("GET", "/b", java.util.Optional.empty(), 1),
                new RequestMix.Request("GET", "/c", java.util.Optional.empty(), 2)), Map.of());
        List<Integer> turn = mix.turn();
        assertThat(turn).hasSize(6);
        assertThat(Collections.frequency(turn, 0)).isEqualTo(3);
        assertThat(Collections.frequency(turn, 1)).isEqualTo(1);
        assertThat(Collections.frequency(turn, 2)).isEqualTo(2);
        assertThat(turn.subList(0, 2)).as("the heaviest does not come all at once").containsExactlyInAnyOrder(0, 2);
    }

    @Test
    void oneRequestMayHaveAMethodAndABody() throws IOException {
        Path body = file("owner.xml", "<owner/>");
        SimulationSettings s = settings(Map.of(SimulationSettings.PATH, "/owners", SimulationSettings.METHOD, "put",
                SimulationSettings.BODY_FILE, body.toString()));
        RequestMix.Request only = s.endpoint().mix().requests().get(0);
        assertThat(only.name()).isEqualTo("PUT /owners");
        assertThat(only.contentType()).isEqualTo("application/xml");
        assertThat(s.endpoint().mix().mixed()).isFalse();
        assertThat(s.result().endpoint().requestMix()).containsExactly("1 PUT /owners");
        assertThat(SimulationSettings.from(s.toProperties())).isEqualTo(s);
        assertThat(settings(Map.of()).result().endpoint().requestMix()).as("one GET, as before mixes").isNull();
    }

    @Test
    void whatIsWrongIsNamedWithItsFileAndLine() throws IOException {
        Path requests = file("bad.txt", """
                GET /fine
                FETCH /owners
                0 GET /zero
                GET /with space x
                POST /owners @missing.json
                GET /fine
                """);
        assertThatThrownBy(() -> settings(Map.of(SimulationSettings.REQUESTS_FILE, requests.toString(), SimulationSettings.PATH, "/x",
                "sim.header.Bad Name", "v")))
                .hasMessageContaining(requests + ":2: FETCH /owners: method FETCH is not one of")
                .hasMessageContaining(requests + ":3: 0 GET /zero: weight 0; allowed: a whole number from 1 to 1000")
                .hasMessageContaining(requests + ":4: GET /with space x: not a request")
                .hasMessageContaining(requests + ":5: POST /owners @missing.json: the body " + dir.resolve("missing.json") + " is not a file")
                .hasMessageContaining("GET /fine is there twice")
                .hasMessageContaining("test.path and sim.requests.file: give one")
                .hasMessageContaining("sim.header.Bad Name: Bad Name is not a header name");
        assertThatThrownBy(() -> settings(Map.of(SimulationSettings.REQUESTS_FILE, dir.resolve("none.txt").toString())))
                .hasMessageContaining("sim.requests.file=" + dir.resolve("none.txt") + " cannot be read");
        Path empty = file("empty.txt", "# nothing yet\n");
        assertThatThrownBy(() -> settings(Map.of(SimulationSettings.REQUESTS_FILE, empty.toString()))).hasMessageContaining("holds no request");
    }

    /**
     * A body names a file beside the requests file, in its folder or below: one outside it (an absolute path, a way up,
     * a link that leads out) is refused before any request, as is a header the HTTP client writes itself.
     */
    @Test
    void aBodyOutsideTheRequestsFilesFolderOrAHostHeaderIsRefused() throws IOException {
        Path folder = Files.createDirectories(dir.resolve("requests"));
        Files.writeString(dir.resolve("outside.json"), "{}");
        Files.createDirectories(folder.resolve("bodies"));
        Files.writeString(folder.resolve("bodies/inside.json"), "{}");
        Files.createSymbolicLink(folder.resolve("link.json"), dir.resolve("outside.json"));
        Path requests = Files.writeString(folder.resolve("mix.txt"), """
                POST /a @bodies/inside.json
                POST /b @../outside.json
                POST /c @%s
                POST /d @link.json
                """.formatted(dir.resolve("outside.json")));
        assertThatThrownBy(() -> settings(Map.of(SimulationSettings.REQUESTS_FILE, requests.toString(), "sim.header.Host", "elsewhere.example")))
                .hasMessageContaining(requests + ":2: POST /b @../outside.json: the body " + dir.resolve("outside.json") + " is outside " + folder)
                .hasMessageContaining(requests + ":3: POST /c @" + dir.resolve("outside.json") + ": the body")
                .hasMessageContaining(requests + ":4: POST /d @link.json: the body " + folder.resolve("link.json") + " is outside")
                .hasMessageNotContaining(":1: POST /a")
                .hasMessageContaining("sim.header.Host: the HTTP client sets Host itself");
    }
}
