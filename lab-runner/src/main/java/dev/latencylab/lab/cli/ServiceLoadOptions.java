package dev.latencylab.lab.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine.Option;
import dev.latencylab.load.settings.SimulationSettings;
import dev.latencylab.lab.run.SecretHeaders;
import dev.latencylab.lab.run.ServiceRun;

/**
 * What run, sweep and capacity send a service of the user's (--url) and what they know of it beside its metrics: its
 * requests (a file of them, a method, a body, headers) and the sizes of pools it does not publish.
 */
final class ServiceLoadOptions {

    @Option(names = "--requests-file", paramLabel = "FILE", description = "With --url (the service's base URL, no path): send the "
            + "requests of this file in turn, one a line: [WEIGHT] METHOD PATH [@BODY_FILE], e.g. 3 GET /owners?lastName=Davis; each "
            + "one's latency in result.json and on the run page (-Dsim.requests.file).")
    Path requestsFile;

    @Option(names = "--method", paramLabel = "METHOD", description = "With --url: the method of the URL's request (default: GET; "
            + "-Dsim.method).")
    String method;

    @Option(names = "--body-file", paramLabel = "FILE", description = "With --url: the body of the URL's request, from this file "
            + "(Content-Type from its extension, or a --header; -Dsim.body.file).")
    Path bodyFile;

    @Option(names = "--header", paramLabel = "'NAME: VALUE' | @FILE", description = "With --url: a header every request carries, e.g. "
            + "--header 'Accept-Language: de' (repeat it for several), or the NAME: VALUE lines of a file, --header @FILE: a secret "
            + "(--header @token.txt) stays off every command line. The lab writes a header's name, never its value: a sweep or "
            + "search resumed needs its headers given again.")
    List<String> headers = new ArrayList<>();

    @Option(names = "--simulation", paramLabel = "FILE", description = "With --url: run this Gatling simulation of yours (a .java or .kt "
            + "file of the Java DSL, or a .scala file of the Scala DSL) instead of the lab's requests: the lab compiles it against its Gatling, "
            + "gives it its load (setUp(LabLoad.load(scn)): --users, or --rates of users each running the flow once) "
            + "and the checked base URL (LabLoad.baseUrl()), samples the service, and writes result.json from Gatling's own records: "
            + "docs/your-simulation.md.")
    Path simulation;

    @Option(names = "--pool", paramLabel = "NAME=SIZE", description = "With --url: the size of a pool of your service that its "
            + "metrics do not show, e.g. --pool tomcat-threads=200 (repeat it for several): its bound is drawn as size / L, L the "
            + "service's own time at the lightest load; a pool its metrics show is read from them.")
    List<String> pools = new ArrayList<>();

    /** The first of these options given, or null. */
    String given() {
        String request = requestOption();
        return simulation != null ? "--simulation" : request != null ? request : !pools.isEmpty() ? "--pool" : null;
    }

    /** The first of the lab's own request options given (a requests file, a method, a body, headers), or null. */
    private String requestOption() {
        return requestsFile != null ? "--requests-file" : method != null ? "--method" : bodyFile != null ? "--body-file"
                : !headers.isEmpty() ? "--header" : null;
    }

    /**
     * With a requests file (given by these options or by -D in given), each request names its path: the URL must be the
     * service's base URL, and test.path is not set. Returns given without test.path then.
     */
    static java.util.Map<String, String> pathOfTheRequestsFile(ServiceRun.Service service, java.util.Map<String, String> given) {
        if (!given.containsKey(SimulationSettings.REQUESTS_FILE)) {
            return given;
        }
        if (!service.path().equals("/")) {
            throw new IllegalArgumentException(("--url %s and a requests file: each request names its path; give the service's "
                    + "base URL, e.g. %s").formatted(service.url(), service.baseUrl()));
        }
        java.util.Map<String, String> without = new java.util.LinkedHashMap<>(given);
        without.remove(SimulationSettings.PATH);
        return without;
    }

    /** --pool's pools, each NAME=SIZE with a whole SIZE above 0, no name twice; refused otherwise, saying which and why. */
    List<dev.latencylab.load.result.Result.GivenPool> givenPools() {
        List<dev.latencylab.load.result.Result.GivenPool> given = new ArrayList<>();
        for (String pool : pools) {
            int eq = pool.lastIndexOf('=');
            String size = eq < 0 ? "" : pool.substring(eq + 1).strip();
            if (eq <= 0 || pool.substring(0, eq).isBlank() || !size.matches("[0-9]{1,9}") || Integer.parseInt(size) == 0) {
                throw new IllegalArgumentException(("--pool %s: give NAME=SIZE, a whole number above 0, e.g. --pool tomcat-threads=200")
                        .formatted(pool));
            }
            dev.latencylab.load.result.Result.GivenPool p = dev.latencylab.load.model.PoolKind.given(pool.substring(0, eq), Integer.parseInt(size));
            if (given.stream().anyMatch(g -> g.name().equals(p.name()))) {
                throw new IllegalArgumentException("--pool %s: %s given twice; give each pool once".formatted(pool, p.name()));
            }
            given.add(p);
        }
        return given;
    }

    /**
     * A user's simulation, if one is given: checked against what it cannot go with (the lab's own requests: a requests
     * file, a method, a body, headers, which a simulation sends as it says; several injectors) and read. Null when none
     * is given.
     *
     * @param injectors  how many injectors share the load
     * @param hostIsMine the URLs in it may name another host
     */
    dev.latencylab.lab.run.OwnSimulation.Source simulation(int injectors, boolean hostIsMine) {
        if (simulation == null) {
            return null;
        }
        String own = requestOption();
        if (own != null) {
            throw new IllegalArgumentException("--simulation and %s: a simulation sends its own requests, with its own headers; give one"
                    .formatted(own));
        }
        if (injectors > 1) {
            throw new IllegalArgumentException("--simulation and --injectors %d: a simulation of yours runs on one injector for now"
                    .formatted(injectors));
        }
        return dev.latencylab.lab.run.OwnSimulation.Source.read(simulation, hostIsMine);
    }

    /** The simulation's properties these options set: the requests, their method and body (the headers: headers()). */
    java.util.Map<String, String> requestProperties() {
        java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
        if (requestsFile != null) {
            m.put(SimulationSettings.REQUESTS_FILE, requestsFile.toAbsolutePath().toString());
        }
        if (method != null) {
            m.put(SimulationSettings.METHOD, method);
        }
        if (bodyFile != null) {
            m.put(SimulationSettings.BODY_FILE, bodyFile.toAbsolutePath().toString());
        }
        return m;
    }

    /**
     * The headers: each --header NAME: VALUE, or the NAME: VALUE lines of --header @FILE (blank lines and # comments
     * skipped), which keeps a secret off the command line. A message never shows a value: it may be a secret.
     */
    SecretHeaders headers() {
        java.util.Map<String, String> m = new java.util.TreeMap<>();
        for (String header : headers) {
            if (header.startsWith("@")) {
                Path file = Path.of(header.substring(1));
                List<String> lines;
                try {
                    lines = java.nio.file.Files.readAllLines(file);
                }
                catch (java.io.IOException | java.io.UncheckedIOException e) {
                    throw new IllegalArgumentException("--header @%s: cannot read it (%s); give a file of NAME: VALUE lines"
                            .formatted(file, e.getClass().getSimpleName()));
                }
                for (int i = 0; i < lines.size(); i++) {
                    String line = lines.get(i).strip();
                    if (!line.isEmpty() && !line.startsWith("#")) {
                        put(m, line, "--header @%s, line %d".formatted(file, i + 1));
                    }
                }
            }
            else {
                put(m, header, "--header");
            }
        }
        return new SecretHeaders(m);
    }

    private static void put(java.util.Map<String, String> headers, String header, String where) {
        java.util.Map.Entry<String, String> h = dev.latencylab.load.settings.RequestMix.header(header);
        if (h == null) {
            throw new IllegalArgumentException("%s: give NAME: VALUE, e.g. --header 'Accept-Language: de' (what was given is not shown: "
                    .formatted(where) + "it may be a secret)");
        }
        if (h.getValue().isEmpty()) {
            // an empty value is how a sweep's file keeps a header whose value it never writes: not a value to send
            throw new IllegalArgumentException("%s %s: no value; give NAME: VALUE, e.g. --header '%s: ...' or --header @FILE".formatted(where,
                    h.getKey(), h.getKey()));
        }
        headers.put(h.getKey(), h.getValue());
    }
}
