package dev.latencylab.lab.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine.Option;

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

    /** Whether an option that only goes with --url (or --jar) was given. */
    String givenWithoutUrl() {
        return name != null ? "--service" : hostIsMine ? "--host-is-mine" : jar != null ? "--jar" : !jarArgs.isEmpty() ? "--jar-arg"
                : !jvmOptions.isEmpty() ? "--jvm-option" : null;
    }
}
