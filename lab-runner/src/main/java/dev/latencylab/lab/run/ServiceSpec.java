package dev.latencylab.lab.run;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.latencylab.load.settings.SimulationSettings;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.targets.Target;

/**
 * A service of the user's as a sweep or a capacity search keeps it (sweep.json, capacity.json), so that every point or
 * ladder loads the same service: its name and URL, whether its host (not this machine) is the user's, the jar the lab
 * starts for each point or ladder with its arguments and JVM options (null: it runs already, neither started nor
 * stopped), the simulation's properties of its requests (a requests file, a method, a body: sim.*), the headers they
 * carry (a file keeps their names only: see SecretHeaders), the sizes of its pools the user gave (--pool; none in
 * files written before it), the user's Gatling simulation that each run runs instead of the lab's (null: the lab's),
 * and over https the certificates trusted and the protocol (absent: an http URL's, as in files before TLS).
 */
public record ServiceSpec(String name, String url, boolean hostIsMine, String jar, List<String> jarArgs, List<String> jvmOptions,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) Integer jarStartSeconds,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) Integer jarStopSeconds,
        Map<String, String> requests,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY) SecretHeaders headers,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY) List<dev.latencylab.load.result.Result.GivenPool> pools,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) OwnSimulation.Source simulation,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) ServiceTls tls) {

    /** How long a jar may take until its URL answers, unless --jar-start-seconds says. */
    public static final int JAR_START_SECONDS = 90;

    /** How long a jar has to end on SIGTERM before it is killed, unless --jar-stop-seconds says (the lab's targets' too). */
    public static final int JAR_STOP_SECONDS = 20;

    public ServiceSpec {
        pools = pools == null ? List.of() : List.copyOf(pools);
        jarArgs = jarArgs == null ? List.of() : List.copyOf(jarArgs);
        jvmOptions = jvmOptions == null ? List.of() : List.copyOf(jvmOptions);
        requests = requests == null ? Map.of() : new TreeMap<>(requests);
        headers = headers == null ? SecretHeaders.NONE : headers;
        tls = ServiceTls.NONE.equals(tls) ? null : tls; // an http URL's: not written
        if (requests.keySet().stream().anyMatch(k -> k.startsWith(SimulationSettings.HEADER_PREFIX))) {
            // a file written before headers were kept apart holds their values: never read them back
            throw new IllegalArgumentException("a header's value among the requests of service " + name + ": give headers apart");
        }
    }

    /** The service as ./lab run --url has it (its URL checked: this machine, unless the host is the user's). */
    public ServiceRun.Service located() {
        return ServiceRun.Service.of(name, url, hostIsMine).withPools(pools).withTls(java.util.Objects.requireNonNullElse(tls, ServiceTls.NONE));
    }

    /** Its points' target: named as the user named it, on the URL's path (a requests file names its own paths). */
    public Target target() {
        return Target.service(name, located().path());
    }

    /** The simulation's properties of every run: the service's URL and its requests (each run's result file: its own). */
    public Map<String, String> properties() {
        Map<String, String> m = new LinkedHashMap<>(located().properties(Path.of("result.json")));
        m.remove(SimulationSettings.RESULT_FILE);
        if (requests.containsKey(SimulationSettings.REQUESTS_FILE)) {
            m.remove(SimulationSettings.PATH);
        }
        m.putAll(requests);
        m.putAll(headers.properties());
        return m;
    }

    /**
     * The headers whose values a resume of earlier needs given again (a file keeps their names, never their values):
     * one line asking for them, naming how; null when this spec names every header earlier's requests carried.
     */
    public String headersNotGivenAgain(ServiceSpec earlier) {
        List<String> missing = earlier.headers.names().stream().filter(n -> !headers.values().containsKey(n)).toList();
        if (missing.isEmpty()) {
            return null;
        }
        String first = missing.getFirst();
        return "its requests carried header%s %s, whose value%s never kept: give %s again, --header '%s: ...' or --header @FILE (a file of NAME: VALUE lines)"
                .formatted(missing.size() == 1 ? "" : "s", String.join(", ", missing), missing.size() == 1 ? " is" : "s are",
                        missing.size() == 1 ? "it" : "them", first);
    }

    /** How long its jar may take until its URL answers. */
    public java.time.Duration startTimeout() {
        return startTimeout(jarStartSeconds);
    }

    /** How long a jar may take until its URL answers: these seconds (--jar-start-seconds), else JAR_START_SECONDS. */
    public static java.time.Duration startTimeout(Integer seconds) {
        return java.time.Duration.ofSeconds(seconds == null ? JAR_START_SECONDS : seconds);
    }

    /** How long its jar has to end on SIGTERM before it is killed. */
    public java.time.Duration stopTimeout() {
        return stopTimeout(jarStopSeconds);
    }

    /** How long a jar has to end on SIGTERM: these seconds (--jar-stop-seconds), else JAR_STOP_SECONDS. */
    public static java.time.Duration stopTimeout(Integer seconds) {
        return java.time.Duration.ofSeconds(seconds == null ? JAR_STOP_SECONDS : seconds);
    }

    /** The jar to start for each run, or null: the service runs already. */
    public ServiceRun.Launch launch(boolean jvmEvents) {
        return jar == null ? null : new ServiceRun.Launch(Path.of(jar), jvmOptions, jarArgs, jvmEvents, startTimeout(), stopTimeout());
    }

    /**
     * One run of it in dir with these settings: its result file there, the jar started for it when there is one; as
     * ./lab run --url runs it (see {@link ServiceRun#run}).
     */
    public GatlingLauncher.Exit run(Path repo, GatlingLauncher gatling, SimulationSettings settings, RunFolder dir, java.time.Duration warmup,
            boolean jvmEvents, int injectors, java.io.PrintWriter out) {
        Map<String, String> sim = new LinkedHashMap<>(settings.toProperties());
        sim.put(SimulationSettings.RESULT_FILE, dir.resultFile().toString());
        return ServiceRun.run(repo, gatling, located(), SimulationSettings.from(sim), Map.of(), dir, warmup, launch(jvmEvents), injectors, out);
    }
}
