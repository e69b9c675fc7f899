package dev.latencylab.lab.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

import dev.latencylab.lab.Injectors;
import dev.latencylab.lab.Lab;
import dev.latencylab.lab.compose.ComposeIT;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.load.settings.SimulationProperties;
import dev.latencylab.load.settings.SimulationSettings;

/**
 * deploy/k8s, without a cluster (none runs here): every manifest passes kubernetes-validate --strict (offline
 * schemas), the injectors' Indexed Job gives each completion index its share of the users (its arguments expanded as
 * Kubernetes expands them, read by the simulation's own settings), the targets carry compose's knobs with compose's
 * defaults, and the merge Job's command merges real injectors' files.
 */
class KubernetesManifestsIT {

    private static final Path DIR = Lab.repo().resolve("deploy/k8s");
    /** Kubernetes' dependent variables in command and args: $(NAME), $$ for a literal $. */
    private static final Pattern REFERENCE = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");

    @TempDir
    Path tmp;

    @Test
    void everyManifestValidatesStrictly() throws Exception {
        List<String> command = new ArrayList<>(List.of("kubernetes-validate", "--strict"));
        try (var files = Files.list(DIR)) {
            files.filter(f -> f.toString().endsWith(".yaml")).sorted().forEach(f -> command.add(f.toString()));
        }
        assertThat(command).hasSize(2 + 4);
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        }
        catch (IOException e) {
            throw new IllegalStateException("kubernetes-validate is not installed: pip install kubernetes-validate (.ci/run does)", e);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).doesNotContain("ERROR");
    }

    @Test
    @SuppressWarnings("unchecked")
    void theIndexedJobGivesEachIndexItsShareOfTheUsers() throws Exception {
        Map<String, Object> job = documents("injectors.yaml").get(0);
        Map<String, Object> spec = (Map<String, Object>) job.get("spec");
        assertThat(spec.get("completionMode")).isEqualTo("Indexed");
        Map<String, Object> container = container(spec);
        Map<String, String> env = env(container);
        assertThat(env).as("a placeholder, replaced as README says when applied").containsEntry("START_AT", "START_AT_EPOCH_MS");
        long startAt = System.currentTimeMillis() + 60_000;
        env.put("START_AT", String.valueOf(startAt));
        int k = Integer.parseInt(env.get("INJECTORS"));
        assertThat(spec.get("completions")).as("completions = INJECTORS").isEqualTo(k);
        assertThat(spec.get("parallelism")).as("all of them at once").isEqualTo(k);

        int users = Integer.parseInt(env.get("USERS"));
        int sum = 0;
        Set<String> resultFiles = new HashSet<>();
        for (int index = 0; index < k; index++) {
            Map<String, String> pod = new LinkedHashMap<>(env);
            pod.put("JOB_COMPLETION_INDEX", String.valueOf(index)); // what Kubernetes sets in each pod of an Indexed Job
            Map<String, String> properties = new LinkedHashMap<>();
            for (String arg : (List<String>) container.get("args")) {
                String expanded = expand(arg, pod);
                assertThat(expanded).as("every reference resolves").doesNotContain("$(");
                assertThat(expanded).startsWith("-D");
                int eq = expanded.indexOf('=');
                properties.put(expanded.substring(2, eq), expanded.substring(eq + 1));
            }
            SimulationSettings settings = SimulationSettings.from(properties); // the simulation's own checks
            assertThat(settings.split().index()).isEqualTo(index);
            assertThat(settings.split().injectors()).isEqualTo(k);
            assertThat(settings.split().startAt()).hasValue(java.time.Instant.ofEpochMilli(startAt));
            sum += settings.usersHere();
            resultFiles.add(settings.resultFile().orElseThrow().toString());
        }
        assertThat(sum).as("the shares of %d injectors", k).isEqualTo(users);
        assertThat(resultFiles).as("one result file per injector").hasSize(k).allSatisfy(f -> assertThat(f).startsWith("/results/"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void theTargetsHaveComposesKnobsWithComposesDefaults() throws Exception {
        Map<String, Object> compose = ComposeIT.resolved(Map.of());
        for (Map<String, Object> d : documents("targets.yaml")) {
            if (!"Deployment".equals(d.get("kind"))) {
                continue;
            }
            String name = (String) ((Map<String, Object>) d.get("metadata")).get("name");
            Map<String, String> k8s = env(container((Map<String, Object>) d.get("spec")));
            Map<String, String> composeEnv = ComposeIT.environmentOf(compose, name);
            assertThat(k8s).as(name).isNotEmpty();
            k8s.forEach((variable, value) -> assertThat(composeEnv).as(name + " " + variable).containsEntry(variable, value));
        }
    }

    /**
     * One default per setting of the load: what compose's load services and the injectors' Job pass, left at their
     * defaults, is the simulation's own default (SimulationSettings, where ./lab run --help and docs/running.md read
     * theirs), but for what each says it sets on purpose (the target's address; the Job's 20,000 users of a split run;
     * the split's own, each injector's report folder). The targets' knobs are compared with compose's above.
     */
    @Test
    @SuppressWarnings("unchecked")
    void theLoadsDefaultsAreTheSimulationsInComposeAndInTheJob() throws Exception {
        Set<String> onPurpose = Set.of(SimulationSettings.BASE_URL, SimulationSettings.INJECTORS, SimulationSettings.INJECTOR_INDEX,
                SimulationSettings.START_AT, SimulationSettings.RESULT_FILE, ResultFile.RESULTS_FOLDER);
        Map<String, Object> services = (Map<String, Object>) ComposeIT.resolved(Map.of()).get("services");
        Map<String, String> compared = new LinkedHashMap<>();
        for (String service : List.of("gatling", "injector-0", "injector-1")) {
            for (String arg : (List<String>) ((Map<String, Object>) services.get(service)).get("command")) {
                String name = arg.substring(2, arg.indexOf('='));
                if (!onPurpose.contains(name)) {
                    assertThat(SimulationProperties.NAMES).as("compose's %s", service).containsEntry(name, arg.substring(arg.indexOf('=') + 1));
                    compared.put(name, service);
                }
            }
        }
        assertThat(compared.keySet()).as("every knob of the load").contains(SimulationSettings.USERS, SimulationSettings.PATH,
                SimulationSettings.RAMP_SECONDS, SimulationSettings.REPEAT, SimulationSettings.THINK_MIN_MS, SimulationSettings.THINK_MAX_MS,
                SimulationSettings.CONNECTIONS);

        Map<String, String> job = env(container((Map<String, Object>) documents("injectors.yaml").get(0).get("spec")));
        assertThat(job.get("TEST_PATH")).isEqualTo(SimulationProperties.NAMES.get(SimulationSettings.PATH));
    }

    /** The merge Job's own command, on a results volume (a folder here) with two injectors' files of one run. */
    @Test
    @SuppressWarnings("unchecked")
    void theMergeJobMergesTheRunsInjectors() throws Exception {
        Map<String, Object> container = container((Map<String, Object>) documents("merge.yaml").get(0).get("spec"));
        String script = ((List<String>) container.get("args")).get(0).replace("/results/", tmp + "/");
        Map<String, String> env = env(container);
        Path run = tmp.resolve(env.get("RUN"));
        Result published = Injectors.writeTwoParts(run);
        List<String> command = new ArrayList<>((List<String>) container.get("command"));
        command.add(script);
        Injectors.runMergeStep(command, env);
        Result merged = ResultFile.read(run.resolve(ResultFile.NAME));
        assertThat(merged.requests().total()).isEqualTo(2 * published.requests().total());
        assertThat(merged.parts()).extracting(Result.Part::file).containsExactly("injector-0/result.json", "injector-1/result.json");
    }

    /** $(NAME) replaced by the variable's value, as Kubernetes does for command and args; unknown names stay. */
    private static String expand(String s, Map<String, String> env) {
        Matcher m = REFERENCE.matcher(s);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = env.get(m.group(1));
            m.appendReplacement(out, Matcher.quoteReplacement(value == null ? m.group() : value));
        }
        m.appendTail(out);
        return out.toString();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> container(Map<String, Object> workloadSpec) {
        Map<String, Object> podSpec = (Map<String, Object>) ((Map<String, Object>) workloadSpec.get("template")).get("spec");
        List<Map<String, Object>> containers = (List<Map<String, Object>>) podSpec.get("containers");
        assertThat(containers).hasSize(1);
        return containers.get(0);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> env(Map<String, Object> container) {
        Map<String, String> env = new LinkedHashMap<>();
        for (Map<String, Object> e : (List<Map<String, Object>>) container.get("env")) {
            env.put((String) e.get("name"), String.valueOf(e.get("value")));
        }
        return env;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> documents(String file) throws IOException {
        try (InputStream in = Files.newInputStream(DIR.resolve(file))) {
            return StreamSupport.stream(new Yaml().loadAll(in).spliterator(), false).map(o -> (Map<String, Object>) o).toList();
        }
    }
}
