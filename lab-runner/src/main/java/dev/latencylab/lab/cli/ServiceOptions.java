package dev.latencylab.lab.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine.Option;
import dev.latencylab.lab.run.ServiceRun;
import dev.latencylab.lab.run.ServiceSpec;
import dev.latencylab.lab.run.ServiceTls;
import dev.latencylab.lab.targets.Target;

/** A service of the user's as a target: where it is, its name, whose host it is, and the jar that starts it (its requests: ServiceLoadOptions). */
final class ServiceOptions {

    @Option(names = "--url", paramLabel = "URL", description = "A service of your own at this URL (http://HOST:PORT/PATH?QUERY, or https://) "
            + "instead of one of the lab's targets: running already (the lab neither starts nor stops it), or started from --jar. "
            + "On this machine unless --host-is-mine.")
    String url;

    @Option(names = "--service", paramLabel = "NAME", description = "With --url: the service's name in the run's folder, "
            + "result.json and page (default: service-<port>).")
    String name;

    @Option(names = "--ca-cert", paramLabel = "FILE", description = "With an https --url: trust the certificates in this PEM file "
            + "(your service's own, or the authority's that signed it) and no others (default: the system's trust store).")
    Path caCert;

    @Option(names = "--insecure", description = "With an https --url: check no certificate (one nobody signed, for a test); "
            + "result.json and the run's page say so.")
    boolean insecure;

    @Option(names = "--http2", description = "With an https --url: HTTP/2, chosen by ALPN (default: HTTP/1.1); each user's "
            + "connection carries its requests as streams.")
    boolean http2;

    @Option(names = "--host-is-mine", description = "With --url: the host is not this machine, and it is yours to load.")
    boolean hostIsMine;

    @Option(names = "--jar", paramLabel = "FILE", description = "With --url: start this jar of yours (java -jar FILE) fresh for "
            + "each run (a footprint: each count) and stop it after; the load starts when the URL answers. Its port must be free before.")
    Path jar;

    @Option(names = "--jar-start-seconds", paramLabel = "SECONDS", description = "With --jar: how long the jar may take until its "
            + "URL answers (default: " + ServiceSpec.JAR_START_SECONDS + "); a service that starts slower (a large context, a schema to "
            + "migrate) may have more.")
    Integer jarStartSeconds;

    @Option(names = "--jar-stop-seconds", paramLabel = "SECONDS", description = "With --jar: how long the jar has to end on SIGTERM "
            + "before it is killed (default: " + ServiceSpec.JAR_STOP_SECONDS + "); a graceful shutdown that waits for its requests "
            + "(Spring's default phase: 30 s) may need more. A jar killed writes no flight recording.")
    Integer jarStopSeconds;

    @Option(names = "--jar-arg", paramLabel = "ARG", description = "With --jar: an argument of the jar, e.g. --jar-arg=--server.port=8080 "
            + "(repeat it for several).")
    List<String> jarArgs = new ArrayList<>();

    @Option(names = "--jvm-option", paramLabel = "OPTION", description = "With --jar: an option of its JVM, e.g. --jvm-option=-Xmx512m "
            + "(repeat it for several).")
    List<String> jvmOptions = new ArrayList<>();

    /**
     * An option that only goes with --url (or --jar), if one was given: of these, or of load (null where a command
     * takes none, as footprint).
     */
    String givenWithoutUrl(ServiceLoadOptions load) {
        return name != null ? "--service" : hostIsMine ? "--host-is-mine" : caCert != null ? "--ca-cert" : insecure ? "--insecure"
                : http2 ? "--http2" : jar != null ? "--jar" : !jarArgs.isEmpty() ? "--jar-arg"
                : !jvmOptions.isEmpty() ? "--jvm-option" : jarStartSeconds != null ? "--jar-start-seconds"
                : jarStopSeconds != null ? "--jar-stop-seconds" : load == null ? null : load.given();
    }

    /** The jar options without --jar, and --jar beside --host-is-mine: refused, saying why. */
    void checkJar() {
        if (jar != null && hostIsMine) {
            throw new IllegalArgumentException("--jar and --host-is-mine: a jar the lab starts runs on this machine; give the URL it "
                    + "answers at here (e.g. http://127.0.0.1:PORT/...) without --host-is-mine");
        }
        if (jar == null && (!jarArgs.isEmpty() || !jvmOptions.isEmpty() || jarStartSeconds != null || jarStopSeconds != null)) {
            throw new IllegalArgumentException(
                    "--jar-arg, --jvm-option, --jar-start-seconds and --jar-stop-seconds go with --jar: give the jar that starts the service");
        }
        if (jar != null && !java.nio.file.Files.isRegularFile(jar)) {
            // said before anything starts (the live view, a folder), not when the jar is about to start
            throw new IllegalArgumentException("--jar %s: no such file; give the jar that starts your service".formatted(jar));
        }
        if (jarStartSeconds != null && jarStartSeconds < 1) {
            // 0 s leaves no time for the jar to answer: accepted, it failed after starting it
            throw new IllegalArgumentException("--jar-start-seconds %d: give 1 or more seconds, how long the jar may take to answer"
                    .formatted(jarStartSeconds));
        }
        if (jarStopSeconds != null) {
            Inputs.seconds("--jar-stop-seconds", jarStopSeconds);
        }
    }

    /**
     * --url's service as a sweep, a capacity search or a footprint keeps it, with its requests and pools (load; none
     * for a footprint), checked as ./lab run --url checks it; a name that is one of the lab's target ids is refused (a
     * page would read it as that target).
     */
    ServiceSpec spec(ServiceLoadOptions load, int injectors) {
        checkJar();
        ServiceRun.Service located = located();
        Inputs.folderName("--service", located.name());
        if (Target.known(located.name()).isPresent()) {
            throw new IllegalArgumentException(("--service %s: that is the id of one of the lab's targets, and a page would read it as "
                    + "that; name your service otherwise").formatted(located.name()));
        }
        return new ServiceSpec(located.name(), url, hostIsMine, jar == null ? null : jar.toAbsolutePath().toString(), jarArgs, jvmOptions,
                jarStartSeconds, jarStopSeconds,
                load == null ? java.util.Map.of() : ServiceLoadOptions.pathOfTheRequestsFile(located, load.requestProperties()),
                load == null ? dev.latencylab.lab.run.SecretHeaders.NONE : load.headers(), load == null ? List.of() : load.givenPools(),
                load == null ? null : load.simulation(injectors, hostIsMine), located.tls());
    }

    /** --url's service, its URL checked (this machine, unless --host-is-mine), reached over TLS as said. */
    ServiceRun.Service located() {
        return ServiceRun.Service.of(name, url, hostIsMine)
                .withTls(new ServiceTls(caCert == null ? null : caCert.toAbsolutePath().toString(), insecure, http2));
    }

    /** How long the jar may take to answer: --jar-start-seconds, else the default. */
    java.time.Duration jarStart() {
        return ServiceSpec.startTimeout(jarStartSeconds);
    }

    /** How long the jar has to end on SIGTERM: --jar-stop-seconds, else the default. */
    java.time.Duration jarStop() {
        return ServiceSpec.stopTimeout(jarStopSeconds);
    }

    /** An option of the lab's own targets given beside --url (as the user typed the command): refused, naming it. */
    static void refuseBesideUrl(List<String> typed, List<String> options, String why) {
        for (String option : options) {
            if (typed.stream().anyMatch(a -> a.equals(option) || a.startsWith(option + "="))) {
                throw new IllegalArgumentException("%s and --url: %s; leave out %s".formatted(option, why, option));
            }
        }
    }

}
