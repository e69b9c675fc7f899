package dev.latencylab.lab.cli;

import picocli.CommandLine.Option;

/** A service of the user's, already running, as the target of ./lab run: where it is, its name, and whose host it is. */
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
}
