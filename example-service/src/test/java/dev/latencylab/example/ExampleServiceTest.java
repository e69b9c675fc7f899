package dev.latencylab.example;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The example service on a real Tomcat and a real PostgreSQL: what it answers, the time a visits request holds its
 * connection, the CPU-bound digest, and the pool it publishes for the lab to read.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ExampleServiceTest {

    private static final EmbeddedPostgres DATABASE = start();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Autowired
    Environment environment;

    private static EmbeddedPostgres start() {
        try {
            return EmbeddedPostgres.builder().start();
        }
        catch (IOException e) {
            throw new IllegalStateException("embedded PostgreSQL did not start", e);
        }
    }

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        registry.add(ExampleService.DATABASE_URL, () -> DATABASE.getJdbcUrl("postgres", "postgres"));
    }

    @AfterAll
    static void stop() throws IOException {
        DATABASE.close();
    }

    private HttpResponse<String> get(String path) throws Exception {
        String base = "http://127.0.0.1:" + environment.getRequiredProperty("local.server.port");
        return HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void ownersAreFoundByTheirLastName() throws Exception {
        HttpResponse<String> davis = get("/owners?lastName=Davis");
        assertThat(davis.statusCode()).isEqualTo(200);
        assertThat(davis.body()).contains("\"firstName\":\"Betty\"").contains("\"firstName\":\"Harold\"").doesNotContain("Franklin");
    }

    @Test
    void anOwnerIsAddedFromItsJsonAndAnIncompleteOneRefused() throws Exception {
        String base = "http://127.0.0.1:" + environment.getRequiredProperty("local.server.port");
        HttpResponse<String> added = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/owners")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"firstName\":\"Jean\",\"lastName\":\"Coleman\",\"city\":\"Monona\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(added.statusCode()).isEqualTo(201);
        assertThat(get("/owners?lastName=Coleman").body()).contains("\"city\":\"Monona\"");
        HttpResponse<String> incomplete = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/owners")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"firstName\":\"Jean\"}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(incomplete.statusCode()).isEqualTo(400);
    }

    @Test
    void anOwnersVisitsHoldAConnectionForTheQuerysTime() throws Exception {
        long start = System.nanoTime();
        HttpResponse<String> visits = get("/owners/2/visits");
        long ms = Duration.ofNanos(System.nanoTime() - start).toMillis();
        assertThat(visits.statusCode()).isEqualTo(200);
        assertThat(visits.body()).contains("rabies shot").contains("2026-03-04");
        assertThat(ms).as("example.visits.query-ms in PostgreSQL first").isGreaterThanOrEqualTo(100);
    }

    @Test
    void theDigestIsShaTwoFiftySixAppliedRoundsTimes() throws Exception {
        byte[] twice = "example-service".getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < 2; i++) {
            twice = MessageDigest.getInstance("SHA-256").digest(twice);
        }
        assertThat(get("/digest?rounds=2").body()).isEqualTo(HexFormat.of().formatHex(twice));
        assertThat(get("/digest?rounds=0").statusCode()).isEqualTo(400);
    }

    @Test
    void itsPoolsArePublishedForTheLabToRead() throws Exception {
        get("/owners?lastName=F"); // the pool opens as the first query needs it
        String prometheus = get("/actuator/prometheus").body();
        assertThat(prometheus).containsPattern("hikaricp_connections_max\\{[^}]*\\} 10\\.0");
        assertThat(prometheus).contains("http_server_requests_seconds_count");
    }
}
