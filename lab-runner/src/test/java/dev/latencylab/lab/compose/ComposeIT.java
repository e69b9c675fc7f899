package dev.latencylab.lab.compose;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import dev.latencylab.lab.Lab;
import dev.latencylab.lab.targets.Target;
import dev.latencylab.lab.run.TargetProcess;
import dev.latencylab.lab.Injectors;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.load.settings.SimulationSettings;
import dev.latencylab.lab.run.TargetProcess;
import dev.latencylab.lab.targets.Target;

/**
 * docker-compose.yml, resolved by a real compose implementation (no Docker engine needed for that), gives each target
 * an environment that has the intended effect: the jar started with exactly that environment reports it back. Every
 * way a user sets Tomcat's pool is read back here from the running jar's tomcat.threads.config.max.
 */
public class ComposeIT {

    @TempDir
    Path logs;

    /** `docker-compose config` with these variables set: the file as compose resolves it. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> resolved(Map<String, String> variables) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("docker-compose", "-f", Lab.repo().resolve("docker-compose.yml").toString(), "config"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(variables);
        Process p;
        try {
            p = builder.start();
        }
        catch (IOException e) {
            throw new IllegalStateException("docker-compose is not installed: apt-get install docker-compose (.ci/run does)", e);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return new Yaml().load(out);
    }

    @SuppressWarnings("unchecked")
    public static Map<String, String> environmentOf(Map<String, Object> compose, String service) {
        Map<String, Object> services = (Map<String, Object>) compose.get("services");
        Map<String, Object> env = (Map<String, Object>) ((Map<String, Object>) services.get(service)).get("environment");
        Map<String, String> strings = new LinkedHashMap<>();
        env.forEach((k, v) -> strings.put(k, String.valueOf(v)));
        return strings;
    }

    /** The pool the MVC jar reports when started with these properties (its command line) and this environment. */
    private double mvcPool(Map<String, String> properties, Map<String, String> environment) {
        // Ports on the command line, so that the test does not clash with a target already running here.
        try (TargetProcess mvc = Lab.start(Target.MVC_MODULE, Lab.freePort(), properties, environment, logs.resolve("mvc.log"))) {
            return Lab.metric(mvc, "tomcat.threads.config.max");
        }
    }

    /**
     * The db profile: PostgreSQL's service, and each target's resolved environment run as it is but for the host, which
     * points at an embedded PostgreSQL here (no engine runs): the pool size reaches the running server, a /db request is
     * served through it, and the database is in the target's health.
     */
    @ParameterizedTest
    @ValueSource(strings = {"mvc-with-latency", "webflux-with-latency"})
    @SuppressWarnings("unchecked")
    void theDbProfileGivesEachTargetItsDatabaseAndPool(String service) throws Exception {
        Map<String, Object> compose = resolved(Map.of("DB_POOL_SIZE", "7", "DB_HEALTH", "true", "POSTGRES_MAX_CONNECTIONS", "150"));
        Map<String, Object> postgres = (Map<String, Object>) ((Map<String, Object>) compose.get("services")).get("postgres");
        assertThat((List<String>) postgres.get("profiles")).containsExactly("db");
        assertThat((List<String>) postgres.get("command")).contains("max_connections=150");
        assertThat(postgres).containsKey("healthcheck");

        Map<String, String> env = new LinkedHashMap<>(environmentOf(compose, service));
        EmbeddedPostgres database = EmbeddedPostgres.builder().start();
        boolean stopped = false;
        try {
            Map<String, String> local = new LinkedHashMap<>(env);
            local.replaceAll((k, v) -> v.replace("//postgres:5432/", "//127.0.0.1:" + database.getPort() + "/"));
            assertThat(local).as("the database URL names the postgres service").isNotEqualTo(env);
            try (TargetProcess target = Lab.start(service, Lab.freePort(), Map.of(), local, logs.resolve(service + ".log"))) {
                assertThat(Lab.get(target.baseUrl() + "/db/10").statusCode()).isEqualTo(200);
                String poolSize = service.startsWith("mvc") ? "hikaricp.connections.max" : "r2dbc.pool.max.allocated";
                assertThat(Lab.metric(target, poolSize)).isEqualTo(7);
                assertThat(Lab.get(target.metricsUrl() + "/actuator/health").body()).contains("UP");
                database.close();
                stopped = true;
                assertThat(Lab.awaitHealthStatus(target.metricsUrl(), 503)).as("the database in its health: down with it")
                        .isEqualTo(503);
            }
        }
        finally {
            if (!stopped) {
                database.close();
            }
        }
    }

    /**
     * MVC's /http calls the WebFlux service: its resolved environment, the host pointed at a WebFlux jar here, serves
     * /http with the pool size the variable gives.
     */
    @Test
    void mvcCallsTheWebfluxServiceOnHttp() throws Exception {
        Map<String, String> env = environmentOf(resolved(Map.of("DOWNSTREAM_MAX_CONNECTIONS", "7")), "mvc-with-latency");
        assertThat(env).containsEntry("DOWNSTREAM_URL", "http://webflux-with-latency:8080");
        try (TargetProcess webflux = Lab.start(Target.WEBFLUX_MODULE, Lab.freePort(), Map.of(), Map.of(), logs.resolve("downstream.log"))) {
            Map<String, String> local = new LinkedHashMap<>(env);
            local.put("DOWNSTREAM_URL", webflux.baseUrl());
            try (TargetProcess mvc = Lab.start(Target.MVC_MODULE, Lab.freePort(), Map.of(), local, logs.resolve("mvc.log"))) {
                assertThat(Lab.get(mvc.baseUrl() + "/http/10").statusCode()).isEqualTo(200);
                assertThat(Lab.metric(mvc, "httpcomponents.httpclient.pool.route.max.default")).isEqualTo(7);
            }
        }
    }

    /** The variable reaches the server as TOMCAT_MAX_THREADS=37 shows below; the jar's own default: MvcContractTest. */
    @Test
    void defaultsGiveTheDefaultPool() throws Exception {
        Map<String, String> env = environmentOf(resolved(Map.of()), "mvc-with-latency");
        assertThat(env).containsEntry("SERVER_TOMCAT_THREADS_MAX", "200").containsEntry("SPRING_THREADS_VIRTUAL_ENABLED", "false");
    }

    @Test
    void tomcatMaxThreadsReachesTheRunningServer() throws Exception {
        Map<String, String> env = environmentOf(resolved(Map.of("TOMCAT_MAX_THREADS", "37")), "mvc-with-latency");
        assertThat(mvcPool(Map.of(), env)).isEqualTo(37);
    }

    @Test
    void virtualThreadsReachTheRunningServer() throws Exception {
        Map<String, String> env = environmentOf(resolved(Map.of("VIRTUAL_THREADS", "true", "TOMCAT_MAX_THREADS", "37")), "mvc-with-latency");
        assertThat(mvcPool(Map.of(), env)).as("no bounded pool").isEqualTo(-1);
    }

    /**
     * The other ways a user sets the pool on the jar: the property on the command line (as ./lab starts a target) and the
     * old environment variable of published write-ups, which Spring's relaxed binding alone would not map (the old
     * property name: LegacyMaxThreadsPropertyTest, in the module).
     */
    @Test
    void theRunnersPropertyAndTheOldVariableReachTheRunningServer() throws Exception {
        assertThat(mvcPool(Map.of("server.tomcat.threads.max", "7"), Map.of())).isEqualTo(7);
        assertThat(mvcPool(Map.of(), Map.of("SERVER_TOMCAT_MAX_THREADS", "13"))).isEqualTo(13);
    }

    /** TARGET alone picks the service the load hits, on the port that service listens on; its actuator by the rule. */
    @ParameterizedTest
    @ValueSource(strings = {"mvc-with-latency", "webflux-with-latency"})
    @SuppressWarnings("unchecked")
    void theLoadFollowsTargetToTheRightPort(String target) throws Exception {
        Map<String, Object> services = (Map<String, Object>) resolved(Map.of("TARGET", target)).get("services");
        List<String> command = (List<String>) ((Map<String, Object>) services.get("gatling")).get("command");
        int port = Integer.parseInt(environmentOf(Map.of("services", services), target).get("SERVER_PORT"));
        assertThat(command).contains("-Dbase.url=http://" + target + ":" + port);
        List<Map<String, Object>> ports = (List<Map<String, Object>>) ((Map<String, Object>) services.get(target)).get("ports");
        assertThat(ports).extracting(p -> Integer.parseInt(String.valueOf(p.get("target"))))
                .containsExactlyInAnyOrder(port, TargetProcess.managementPort(port));
    }

    /**
     * The split profile: two injectors whose commands, read by the simulation's own settings, give each its share of
     * USERS, one start and a result file of its own; the merge service waits for both and merges their files.
     */
    @Test
    @SuppressWarnings("unchecked")
    void theSplitProfileSharesTheUsersBetweenTwoInjectorsAndMergesThem() throws Exception {
        Map<String, Object> services = (Map<String, Object>) resolved(Map.of("USERS", "20001", "START_AT", "1795000000000", "RUN", "r7"))
                .get("services");
        int sum = 0;
        for (int i = 0; i < 2; i++) {
            Map<String, Object> injector = (Map<String, Object>) services.get("injector-" + i);
            assertThat((List<String>) injector.get("profiles")).containsExactly("split");
            Map<String, String> properties = new LinkedHashMap<>();
            for (String arg : (List<String>) injector.get("command")) {
                properties.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
            }
            SimulationSettings settings = SimulationSettings.from(properties);
            assertThat(settings.split().index()).isEqualTo(i);
            assertThat(settings.split().startAt()).hasValue(java.time.Instant.ofEpochMilli(1795000000000L));
            assertThat(settings.resultFile()).hasValue(Path.of("/results/r7/injector-" + i + "/result.json"));
            sum += settings.usersHere();
        }
        assertThat(sum).isEqualTo(20001);

        Map<String, Object> merge = (Map<String, Object>) services.get("merge");
        assertThat(((Map<String, Map<String, String>>) merge.get("depends_on")).values())
                .allSatisfy(d -> assertThat(d).containsEntry("condition", "service_completed_successfully"));
        Path run = logs.resolve("r7");
        Result published = Injectors.writeTwoParts(run);
        List<String> command = new ArrayList<>((List<String>) merge.get("entrypoint"));
        // compose's $$ is a literal $ in the container
        command.add(((List<String>) merge.get("command")).get(0).replace("$$", "$").replace("/results/", logs + "/"));
        Injectors.runMergeStep(command, (Map<String, String>) merge.get("environment"));
        assertThat(ResultFile.read(run.resolve(ResultFile.NAME)).requests().total()).isEqualTo(2 * published.requests().total());
    }

    /** The base images each stage of the Dockerfile that compose builds is built from. */
    private static final Map<String, List<String>> BASES = Map.of("service", List.of("JDK_IMAGE", "JRE_IMAGE"), "gatling", List.of("JDK_IMAGE"),
            "prometheus", List.of("DEBIAN_IMAGE"));

    /**
     * The base images: the Dockerfile's arguments default to the official images, and compose passes the same defaults
     * for every image it builds (podman's API takes an argument given without a value as empty, not as unset), and the
     * official postgres image.
     */
    @Test
    @SuppressWarnings("unchecked")
    void theBaseImagesDefaultToTheOfficialOnesInTheDockerfileAndInCompose() throws Exception {
        Map<String, String> dockerfile = new LinkedHashMap<>();
        java.util.regex.Matcher arg = java.util.regex.Pattern.compile("(?m)^ARG (\\w+_IMAGE)=(\\S+)$")
                .matcher(java.nio.file.Files.readString(Lab.repo().resolve("Dockerfile")));
        while (arg.find()) {
            dockerfile.put(arg.group(1), arg.group(2));
        }
        assertThat(dockerfile).containsExactly(Map.entry("JDK_IMAGE", "eclipse-temurin:25-jdk"), Map.entry("JRE_IMAGE", "eclipse-temurin:25-jre"),
                Map.entry("DEBIAN_IMAGE", "debian:bookworm-slim"));
        Map<String, Object> services = (Map<String, Object>) resolved(Map.of()).get("services");
        int built = 0;
        for (Map.Entry<String, Object> service : services.entrySet()) {
            Map<String, Object> build = (Map<String, Object>) ((Map<String, Object>) service.getValue()).get("build");
            if (build != null) {
                Map<String, String> args = (Map<String, String>) build.get("args");
                for (String name : BASES.get(String.valueOf(build.get("target")))) {
                    assertThat(args).as(service.getKey()).containsEntry(name, dockerfile.get(name));
                }
                built++;
            }
        }
        assertThat(built).as("services that build an image").isGreaterThanOrEqualTo(4);
        assertThat(((Map<String, Object>) services.get("postgres")).get("image")).isEqualTo("postgres:17");
    }

    @Test
    @SuppressWarnings("unchecked")
    void theLoadRunsAsTheUserGiven() throws Exception {
        Map<String, Object> gatling = (Map<String, Object>) ((Map<String, Object>) resolved(Map.of("LOAD_USER", "1234:567"))
                .get("services")).get("gatling");
        assertThat(gatling.get("user")).isEqualTo("1234:567");
    }

    @Test
    @SuppressWarnings("unchecked")
    void bothTargetsGetTheSameLimitsAndTheLoadIsAProfile() throws Exception {
        Map<String, Object> services = (Map<String, Object>) resolved(Map.of("TARGET_CPUS", "1.5")).get("services");
        Map<String, Object> mvc = (Map<String, Object>) services.get("mvc-with-latency");
        Map<String, Object> webflux = (Map<String, Object>) services.get("webflux-with-latency");
        assertThat(mvc.get("cpus")).isEqualTo(webflux.get("cpus")).isEqualTo(1.5);
        assertThat(mvc.get("mem_limit")).isEqualTo(webflux.get("mem_limit"));
        assertThat(mvc).containsKey("healthcheck");
        assertThat(webflux).containsKey("healthcheck");
        Map<String, Object> gatling = (Map<String, Object>) services.get("gatling");
        assertThat((List<String>) gatling.get("profiles")).containsExactly("load");
        assertThat(((Map<String, Object>) gatling.get("depends_on")).keySet()).contains("mvc-with-latency", "webflux-with-latency");
    }
}
