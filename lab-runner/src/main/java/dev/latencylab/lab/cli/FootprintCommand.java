package dev.latencylab.lab.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import dev.latencylab.lab.flow.FootprintFlow;
import dev.latencylab.lab.footprint.Footprint;
import dev.latencylab.lab.footprint.FootprintExperiment;
import dev.latencylab.lab.footprint.MemorySnapshot;
import dev.latencylab.lab.layout.ResultsFolders;
import dev.latencylab.lab.machine.Machine;
import dev.latencylab.lab.run.ServiceSpec;

@Command(name = "footprint", mixinStandardHelpOptions = true, description = {
        "What concurrency costs in memory: each target, fresh for each count, holds that many requests in flight (each "
                + "waiting --hold-seconds on /hello) or that many idle keep-alive connections; after a forced GC its RSS, "
                + "heap, non-heap, native memory by category (Native Memory Tracking) and threads are read.",
        "The cost of one more request or connection is the slope of a least-squares line over the counts, its spread "
                + "over --repeats. Writes footprint.json, measurements.csv and a page, the verdict first.",
        "A jar of yours (--url with --jar): started fresh for each count, it holds idle keep-alive connections, each after "
                + "one answered GET of the URL; its JVM's gauges come through its management agent."})
final class FootprintCommand implements Callable<Integer> {

    @CommandLine.Mixin
    Console console;

    @CommandLine.ParentCommand
    LatencyLab lab;

    @Option(names = "--targets", split = ",", description = "Target ids waiting on /hello (default: mvc-t<most>-uncapped, "
            + "a platform thread for each request of the largest count, mvc-virtual-uncapped, webflux).")
    List<String> targets;

    /** The counts by default: the lab's targets hold tens of thousands; a service's Tomcat admits 8,192 connections. */
    private static final List<Integer> COUNTS = List.of(0, 1000, 2000, 5000, 10000);
    private static final List<Integer> SERVICE_COUNTS = List.of(0, 500, 1000, 2000);

    @Option(names = "--counts", split = ",", description = "How many requests or connections each target holds (default: "
            + "0,1000,2000,5000,10000; a jar of yours: 0,500,1000,2000).")
    List<Integer> counts;

    @Option(names = "--modes", split = ",", description = "in-flight, idle or both (default: both; a jar of yours: idle).")
    List<String> modes;

    @CommandLine.Mixin
    ServiceOptions serviceOptions;

    @Option(names = "--repeats", defaultValue = "3", description = "Measurements of each count, each on a fresh target (default: ${DEFAULT-VALUE}).")
    int repeats;

    @Option(names = "--hold-seconds", defaultValue = "50", description = "How long the target holds each request in flight, "
            + "at most 60 (the targets' latency.max-ms); the reading must end within it (default: ${DEFAULT-VALUE}).")
    long holdSeconds;

    @Option(names = "--settle-seconds", defaultValue = "2", description = "Wait between the last connection and the forced GC (default: ${DEFAULT-VALUE}).")
    long settleSeconds;

    @Option(names = "--container-mib", defaultValue = "1024", description = "The container whose largest count the page gives, "
            + "from the RSS line (default: ${DEFAULT-VALUE}).")
    long containerMiB;

    @Option(names = "--heap-mib", defaultValue = "512", description = "The heap whose largest count the page gives, from the "
            + "heap-used line (default: ${DEFAULT-VALUE}).")
    long heapMiB;

    @CommandLine.Mixin
    ResultsOptions resultsOptions;

    @CommandLine.Mixin
    NameOption nameOption;

    @Option(names = "--take-over", description = "Resume an experiment whose ./lab was killed (its lock left behind): "
            + "the measurements it had not finished are made again.")
    boolean takeOver;

    @Override
    public Integer call() {
        Footprint.Settings settings = settings();
        Path repo = lab.repo.toAbsolutePath().normalize();
        return FootprintFlow.run(repo, new FootprintFlow.Asked(settings, resultsOptions.holder(repo, ResultsFolders.FOOTPRINTS), nameOption.checked(),
                takeOver), console.out(), console.err());
    }

    private Footprint.Settings settings() {
        ServiceSpec service = service();
        List<Footprint.Mode> parsedModes = (modes != null ? modes : service != null ? List.of("idle") : List.of("in-flight", "idle")).stream()
                .map(String::strip).map(Footprint.Mode::parse).distinct().toList();
        List<Integer> given = counts != null ? counts : service != null ? SERVICE_COUNTS : COUNTS;
        if (given.isEmpty() || given.stream().anyMatch(c -> c < 0)) {
            throw new IllegalArgumentException("--counts " + given + ": give counts of 0 or more");
        }
        List<Integer> sorted = given.stream().distinct().sorted().toList();
        if (sorted.size() < 2) {
            throw new IllegalArgumentException("--counts " + given + ": give at least two counts, so that a line has a slope");
        }
        if (repeats < 1) {
            throw new IllegalArgumentException("--repeats " + repeats + ": give 1 or more");
        }
        if (holdSeconds < 5 || holdSeconds * 1000 > Inputs.MAX_LATENCY_MS) {
            throw new IllegalArgumentException("--hold-seconds %d: give 5 to %d (the targets answer 400 above their latency.max-ms)"
                    .formatted(holdSeconds, Inputs.MAX_LATENCY_MS / 1000));
        }
        if (settleSeconds < 0 || settleSeconds * 2 >= holdSeconds) {
            throw new IllegalArgumentException("--settle-seconds " + settleSeconds + ": give 0 to less than half of --hold-seconds");
        }
        if (containerMiB < 1 || heapMiB < 1) {
            throw new IllegalArgumentException("--container-mib and --heap-mib: give 1 or more");
        }
        int most = sorted.getLast();
        long openFiles = Machine.openFilesLimit() == null ? Long.MAX_VALUE : Machine.openFilesLimit();
        List<String> ids;
        String refusal;
        if (service != null) {
            ids = List.of(service.name());
            refusal = service.url().startsWith("https:")
                    ? "--url %s: a footprint holds plain connections, not TLS ones; give the service's http URL".formatted(service.url())
                    : FootprintExperiment.serviceRefusal(parsedModes, most, openFiles);
        }
        else {
            ids = targets != null ? targets.stream().map(String::strip).toList()
                    : List.of("mvc-t" + Math.max(1, most) + "-uncapped", "mvc-virtual-uncapped", "webflux");
            refusal = FootprintExperiment.refusal(ids, parsedModes, sorted, openFiles);
        }
        if (refusal != null) {
            throw new IllegalArgumentException(refusal);
        }
        return new Footprint.Settings(ids, parsedModes, sorted, repeats, holdSeconds, settleSeconds, containerMiB, heapMiB,
                List.of(MemorySnapshot.NATIVE_MEMORY_TRACKING), service);
    }

    /**
     * --url with --jar: the jar of the user's to measure, started fresh for each count as the lab starts its targets;
     * null without --url. Only what a jar's footprint uses may be given beside it.
     */
    private ServiceSpec service() {
        if (serviceOptions.url == null) {
            if (serviceOptions.givenWithoutUrl(null) != null) {
                throw new IllegalArgumentException(
                        "%s goes with --url: give the URL of the service to measure".formatted(serviceOptions.givenWithoutUrl(null)));
            }
            return null;
        }
        if (targets != null) {
            throw new IllegalArgumentException("--targets and --url: the jar at the URL is the footprint's one target; leave out --targets");
        }
        if (serviceOptions.jar == null) {
            throw new IllegalArgumentException(("--url %s without --jar: a footprint starts the service fresh for each count; give the jar "
                    + "that starts it (--jar FILE, its port the URL's)").formatted(serviceOptions.url));
        }
        return serviceOptions.spec(null, 1);
    }
}
