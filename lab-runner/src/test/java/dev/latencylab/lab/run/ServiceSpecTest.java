package dev.latencylab.lab.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.latencylab.load.result.Json;
import dev.latencylab.load.settings.SimulationSettings;

/** A service as sweep.json and capacity.json keep it: its headers by name, never by value. */
class ServiceSpecTest {

    private static ServiceSpec spec(SecretHeaders headers) {
        return new ServiceSpec("mine", "http://127.0.0.1:8080/owners", false, null, List.of(), List.of(), null, null, Map.of(SimulationSettings.METHOD, "GET"),
                headers, List.of(), null, null);
    }

    @Test
    void aFileKeepsAHeadersNameAndTheSameSweepResumedWithItsValueMatches() {
        ServiceSpec given = spec(new SecretHeaders(Map.of("Authorization", "Bearer S3CRET")));
        String json = Json.MAPPER.writeValueAsString(given);

        assertThat(json.replaceAll("\\s", "")).contains("\"headers\":[\"Authorization\"]").doesNotContain("S3CRET");
        assertThat(given.properties()).containsEntry("sim.header.Authorization", "Bearer S3CRET");
        ServiceSpec read = Json.MAPPER.readValue(json, ServiceSpec.class);
        // a resume compares the plans as their files have them: given again, the header makes the same sweep
        JsonNode asGiven = Json.MAPPER.valueToTree(given);
        JsonNode asRead = Json.MAPPER.valueToTree(read);
        JsonNode without = Json.MAPPER.valueToTree(spec(SecretHeaders.NONE));
        assertThat(asRead).isEqualTo(asGiven);
        assertThat(without).isNotEqualTo(asGiven);
        assertThatThrownBy(read::properties).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("header Authorization: its value is not kept").hasMessageContaining("--header @FILE");
    }

    @Test
    void aResumeWithoutTheHeadersItsFileNamesAsksForThemByName() {
        ServiceSpec kept = Json.MAPPER.readValue(Json.MAPPER.writeValueAsString(
                spec(new SecretHeaders(Map.of("X-Api-Key", "k3y", "Authorization", "Bearer S3CRET")))), ServiceSpec.class);

        assertThat(spec(SecretHeaders.NONE).headersNotGivenAgain(kept)).as("neither given again")
                .isEqualTo("its requests carried headers Authorization, X-Api-Key, whose values are never kept: give them again, "
                        + "--header 'Authorization: ...' or --header @FILE (a file of NAME: VALUE lines)");
        assertThat(spec(new SecretHeaders(Map.of("Authorization", "Bearer S3CRET"))).headersNotGivenAgain(kept)).as("one given again")
                .startsWith("its requests carried header X-Api-Key, whose value is never kept: give it again, --header 'X-Api-Key: ...'");
        assertThat(spec(new SecretHeaders(Map.of("X-Api-Key", "other", "Authorization", "other"))).headersNotGivenAgain(kept))
                .as("both given again: their values are the user's to give").isNull();
        assertThat(spec(SecretHeaders.NONE).headersNotGivenAgain(spec(SecretHeaders.NONE))).as("none carried").isNull();
    }

    @Test
    void aFileWithAHeadersValueAmongItsRequestsIsNotRead() {
        assertThatThrownBy(() -> new ServiceSpec("mine", "http://127.0.0.1:8080/", false, null, List.of(), List.of(), null, null,
                Map.of("sim.header.Authorization", "Bearer S3CRET"), null, List.of(), null, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("S3CRET");
    }

    private static ServiceSpec at(String url, ServiceTls tls) {
        return new ServiceSpec("mine", url, false, null, List.of(), List.of(), null, null, Map.of(), null, List.of(), null, tls);
    }

    @Test
    void aServiceOverHttpsKeepsHowItIsReachedAndWhatGoesWithHttpsAloneIsRefusedOnHttp() {
        ServiceSpec https = at("https://127.0.0.1:8443/owners", new ServiceTls(null, true, true));
        ServiceSpec read = Json.MAPPER.readValue(Json.MAPPER.writeValueAsString(https), ServiceSpec.class);
        assertThat(read).isEqualTo(https);
        assertThat(read.properties()).containsEntry("base.url", "https://127.0.0.1:8443").containsEntry("sim.http2", "true");
        assertThat(read.located().tls().trust().insecure()).isTrue();
        assertThat(Json.MAPPER.writeValueAsString(at("http://127.0.0.1:8080/owners", ServiceTls.NONE))).as("an http URL's file as before TLS")
                .doesNotContain("tls");
        assertThat(at("http://127.0.0.1:8080/owners", null).properties()).doesNotContainKey("sim.http2");
        assertThatThrownBy(() -> at("http://127.0.0.1:8080/owners", new ServiceTls(null, false, true)).located())
                .hasMessage("--http2 with --url http://127.0.0.1:8080/owners: it goes with an https URL (TLS); give https://... or leave it out");
        assertThatThrownBy(() -> at("https://127.0.0.1:8443/", new ServiceTls("/nonexistent/ca.pem", false, false)).located())
                .hasMessageStartingWith("--ca-cert /nonexistent/ca.pem: no such file");
        assertThatThrownBy(() -> at("https://127.0.0.1:8443/", new ServiceTls("/etc/hostname", true, false)).located())
                .hasMessageContaining("give one of them");
    }
}
