package dev.latencylab.lab.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine.Option;
import dev.latencylab.load.SimulationSettings;
import dev.latencylab.lab.run.ServiceRun;
import dev.latencylab.lab.run.ServiceSpec;
import dev.latencylab.lab.targets.Target;

/** A service of the user's as the target of ./lab run: where it is, its name, whose host it is, and the jar that starts it. */
final class ServiceOptions {

    @Option(names = "--url", paramLabel = "URL", description = "Load a service of your own, already running, at this URL "
            + "(http://HOST:PORT/PATH?QUERY) instead of starting a target: the lab neither starts nor stops it. On this machine "
            + "unless --host-is-mine.")
    String url;

    @Option(names = "--service", paramLabel = "NAME", description = "With --url: the service's name in the run's folder, "
            + "result.json and page (default: service-<port>).")
    String name;

    @Option(names = "--host-is-mine", description = "With --url: the host is not this machine, and it is yours to load.")
    boolean hostIsMine;

    @Option(names = "--jar", paramLabel = "FILE", description = "With --url: start this jar of yours for the run (java -jar FILE, "
            + "with its flight recording) and stop it after; the run starts when the URL answers. Its port must be free before.")
    Path jar;

    @Option(names = "--jar-arg", paramLabel = "ARG", description = "With --jar: an argument of the jar, e.g. --jar-arg=--server.port=8080 "
            + "(repeat it for several).")
    List<String> jarArgs = new ArrayList<>();

    @Option(names = "--jvm-option", paramLabel = "OPTION", description = "With --jar: an option of its JVM, e.g. --jvm-option=-Xmx512m "
            + "(repeat it for several).")
    List<String> jvmOptions = new ArrayList<>();

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

    @Option(names = "--header", paramLabel = "'NAME: VALUE'", description = "With --url: a header every request carries, e.g. "
            + "--header 'Authorization: Bearer ...' (repeat it for several; result.json names it, never its value).")
    List<String> headers = new ArrayList<>();

    @Option(names = "--pool", paramLabel = "NAME=SIZE", description = "With --url: the size of a pool of your service that its "
            + "metrics do not show, e.g. --pool tomcat-threads=200 (repeat it for several): its bound is drawn as size / L, L the "
            + "service's own time at the lightest load; a pool its metrics show is read from them.")
    List<String> pools = new ArrayList<>();

    /** Whether an option that only goes with --url (or --jar) was given. */
    String givenWithoutUrl() {
        return name != null ? "--service" : !pools.isEmpty() ? "--pool" : hostIsMine ? "--host-is-mine" : jar != null ? "--jar" : !jarArgs.isEmpty() ? "--jar-arg"
                : !jvmOptions.isEmpty() ? "--jvm-option" : requestsFile != null ? "--requests-file" : method != null ? "--method"
                : bodyFile != null ? "--body-file" : !headers.isEmpty() ? "--header" : null;
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

    /** The jar options without --jar, and --jar beside --host-is-mine: refused, saying why. */
    void checkJar() {
        if (jar != null && hostIsMine) {
            throw new IllegalArgumentException("--jar and --host-is-mine: a jar the lab starts runs on this machine; give the URL it "
                    + "answers at here (e.g. http://127.0.0.1:PORT/...) without --host-is-mine");
        }
        if (jar == null && (!jarArgs.isEmpty() || !jvmOptions.isEmpty())) {
            throw new IllegalArgumentException("--jar-arg and --jvm-option go with --jar: give the jar that starts the service");
        }
    }

    /**
     * --url's service as a sweep or a capacity search keeps it, checked as ./lab run --url checks it; a name that is one
     * of the lab's target ids is refused (a page would read it as that target).
     */
    ServiceSpec spec() {
        checkJar();
        ServiceRun.Service located = ServiceRun.Service.of(name, url, hostIsMine);
        Inputs.folderName("--service", located.name());
        if (Target.known(located.name()).isPresent()) {
            throw new IllegalArgumentException(("--service %s: that is the id of one of the lab's targets, and a page would read it as "
                    + "that; name your service otherwise").formatted(located.name()));
        }
        return new ServiceSpec(located.name(), url, hostIsMine, jar == null ? null : jar.toAbsolutePath().toString(), jarArgs, jvmOptions,
                pathOfTheRequestsFile(located, requestProperties()), givenPools());
    }

    /** --pool's pools, each NAME=SIZE with a whole SIZE above 0, no name twice; refused otherwise, saying which and why. */
    List<dev.latencylab.load.Result.GivenPool> givenPools() {
        List<dev.latencylab.load.Result.GivenPool> given = new ArrayList<>();
        for (String pool : pools) {
            int eq = pool.lastIndexOf('=');
            String size = eq < 0 ? "" : pool.substring(eq + 1).strip();
            if (eq <= 0 || pool.substring(0, eq).isBlank() || !size.matches("[0-9]{1,9}") || Integer.parseInt(size) == 0) {
                throw new IllegalArgumentException(("--pool %s: give NAME=SIZE, a whole number above 0, e.g. --pool tomcat-threads=200")
                        .formatted(pool));
            }
            dev.latencylab.load.Result.GivenPool p = dev.latencylab.load.ServicePools.given(pool.substring(0, eq), Integer.parseInt(size));
            if (given.stream().anyMatch(g -> g.name().equals(p.name()))) {
                throw new IllegalArgumentException("--pool %s: %s given twice; give each pool once".formatted(pool, p.name()));
            }
            given.add(p);
        }
        return given;
    }

    /** An option of the lab's own targets given beside --url (as the user typed the command): refused, naming it. */
    static void refuseBesideUrl(List<String> typed, List<String> options, String why) {
        for (String option : options) {
            if (typed.stream().anyMatch(a -> a.equals(option) || a.startsWith(option + "="))) {
                throw new IllegalArgumentException("%s and --url: %s; leave out %s".formatted(option, why, option));
            }
        }
    }

    /** The simulation's properties these options set: the requests, their method and body, and the headers. */
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
        for (String header : headers) {
            int colon = header.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("--header %s: give NAME: VALUE, e.g. --header 'Accept-Language: de'".formatted(header));
            }
            m.put(SimulationSettings.HEADER_PREFIX + header.substring(0, colon).strip(), header.substring(colon + 1).strip());
        }
        return m;
    }
}
