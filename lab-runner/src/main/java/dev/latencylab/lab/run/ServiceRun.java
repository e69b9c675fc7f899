package dev.latencylab.lab.run;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import dev.latencylab.load.metrics.MetricsEndpoint;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.load.settings.RequestMix;
import dev.latencylab.load.settings.SimulationSettings;
import dev.latencylab.load.settings.TargetPorts;
import dev.latencylab.load.tls.TlsTrust;
import dev.latencylab.lab.layout.FolderLock;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.targets.Target;

/**
 * A service of the user's (./lab run --url): already running, or started from its jar for the run (--jar); warmed up,
 * loaded and recorded like a target, and stopped after the run only when the lab started it. Its result file names it as the user named it; its metrics are read where they answer
 * (the same port, or the port + 1000 as the lab's targets have them), or not at all, said once by the simulation.
 */
public final class ServiceRun {

    /**
     * A service as given: its name, the URL loaded, and that URL's parts.
     *
     * @param baseUrl scheme, host and port
     * @param path    the path and query loaded
     * @param pools   the sizes of its pools the user gave (--pool), for those its metrics do not show
     * @param metrics where its metrics answer, as the user gave it (-Dsim.metrics.url: an actuator on another port); null:
     *                found by the lab
     * @param pinned  the addresses its host names had when they were checked, which the load is held to
     * @param tls     over https: the certificates trusted, and HTTP/2 or not
     */
    public record Service(String name, String url, String baseUrl, String path, List<Result.GivenPool> pools, String metrics,
            PinnedHosts pinned, ServiceTls tls) {

        public Service {
            pools = pools == null ? List.of() : List.copyOf(pools);
        }

        /** The same service with the sizes of pools the user gave. */
        public Service withPools(List<Result.GivenPool> given) {
            return new Service(name, url, baseUrl, path, given, metrics, pinned, tls);
        }

        /** The same service reached so over TLS (checked against its URL's scheme). */
        public Service withTls(ServiceTls given) {
            return new Service(name, url, baseUrl, path, pools, metrics, pinned, given.checkedFor(url, URI.create(url).getScheme()));
        }

        /**
         * The same service with its metrics where the user says they are (null: found by the lab), checked as its URL is:
         * this machine, unless its host is the user's.
         */
        public Service withMetrics(String given, boolean hostIsMine) {
            if (given == null) {
                return this;
            }
            Service at;
            try {
                at = of(null, given, hostIsMine);
            }
            catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(e.getMessage().replace("--url", "-D" + SimulationSettings.METRICS_URL + "="), e);
            }
            if (!at.path().equals("/")) {
                throw new IllegalArgumentException("-D%s=%s: give the actuator's base URL, http://HOST:PORT (the lab adds /actuator/...)"
                        .formatted(SimulationSettings.METRICS_URL, given));
            }
            return new Service(name, url, baseUrl, path, pools, at.baseUrl(), pinned.and(at.pinned()), tls);
        }

        /**
         * The service at url, named name; a host that is not this machine only when the user says it is theirs (a load
         * test against a host that is not one's own is an attack).
         *
         * @throws IllegalArgumentException naming the URL and what is wrong with it
         */
        public static Service of(String name, String url, boolean hostIsMine) {
            URI uri;
            try {
                uri = URI.create(url);
            }
            catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--url %s: not a URL (%s)".formatted(url, e.getMessage()));
            }
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
                throw new IllegalArgumentException("--url %s: give http://HOST:PORT/PATH or https://HOST:PORT/PATH, e.g. http://127.0.0.1:8080/owners"
                        .formatted(url));
            }
            // looked up once: the load is held to what was checked (PinnedHosts)
            PinnedHosts.Resolved resolved;
            try {
                resolved = PinnedHosts.resolve(uri.getHost());
            }
            catch (UnknownHostException e) {
                throw new IllegalArgumentException("--url: host %s is not known here".formatted(uri.getHost()));
            }
            if (!hostIsMine && !resolved.addresses().stream().allMatch(InetAddress::isLoopbackAddress)) {
                throw new IllegalArgumentException(("--url %s: %s is not this machine; a load test against a host that is not yours is "
                        + "an attack: give --host-is-mine if it is yours").formatted(url, uri.getHost()));
            }
            int port = uri.getPort() != -1 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
            String path = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                    + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
            return new Service(name != null ? name : "service-" + port, url, "%s://%s:%d".formatted(uri.getScheme(), uri.getHost(), port), path,
                    List.of(), null, resolved.pin(), ServiceTls.NONE);
        }

        /**
         * Where its metrics answer: where the user said, else its own port, else its port + 1000; its own port when
         * neither (said by the run).
         */
        public String metricsUrl() {
            if (metrics != null) {
                return metrics;
            }
            if (MetricsEndpoint.unseen(baseUrl) == null) {
                return baseUrl;
            }
            String management = TargetPorts.managementUrl(baseUrl);
            return MetricsEndpoint.unseen(management) == null ? management : baseUrl;
        }

        /** The simulation's properties that point it at this service and the run's result file (its metrics: once it runs). */
        public Map<String, String> properties(Path resultFile) {
            Map<String, String> m = new LinkedHashMap<>();
            m.put(SimulationSettings.BASE_URL, baseUrl);
            if (tls.http2()) {
                m.put(SimulationSettings.HTTP2, "true");
            }
            m.put(SimulationSettings.PATH, path);
            m.put(SimulationSettings.RESULT_FILE, resultFile.toString());
            return m;
        }
    }

    /**
     * A jar of the user's that the lab starts for the run and stops after it (./lab run --jar).
     *
     * @param jvmEvents    with the flight recording every target has
     * @param startTimeout how long it may take until its URL answers
     */
    public record Launch(Path jar, List<String> jvmOptions, List<String> args, boolean jvmEvents, Duration startTimeout, Duration stopTimeout) {
    }

    /** The target property naming the user's simulation that loaded the service: its file's name and SHA-256. */
    public static final String SIMULATION = "simulation";

    /** The hosts file of the load's JVM, in the run's folder (see PinnedHosts). */
    static final String HOSTS_FILE = "hosts";

    private ServiceRun() {
    }

    /**
     * What the result file says the service was: its URL and, for a jar the lab started, the jar's file name, its
     * arguments and JVM options as given (a pool resized by an argument is then the one setting a compare names); and
     * the simulation of the user's that loaded it, by its file's name and SHA-256 (a history's series is one simulation).
     */
    static Map<String, String> properties(Service service, Launch launch, OwnSimulation simulation) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("url", service.url());
        if (simulation != null) {
            p.put(SIMULATION, "%s sha256:%s".formatted(java.nio.file.Path.of(simulation.source().file()).getFileName(), simulation.source().sha256()));
        }
        if (launch != null) {
            p.put("jar", launch.jar().getFileName().toString());
            if (!launch.args().isEmpty()) {
                p.put("jarArgs", String.join(" ", launch.args()));
            }
            if (!launch.jvmOptions().isEmpty()) {
                p.put("jvmOptions", String.join(" ", launch.jvmOptions()));
            }
        }
        return p;
    }

    /**
     * Starts the service's jar when one is given, warms the service up, runs the simulation against it in dir (locked;
     * a signal ends the simulation and the jar the lab started, never a service it did not start), names the service
     * in the result file, and stops the jar, adding its JVM events to the result.
     *
     * @param launch    the jar to start, or null: the service runs already
     * @param injectors the Gatling processes that share the load, started together once it is warm (see TargetRun#split)
     */
    public static GatlingLauncher.Exit run(Path repo, GatlingLauncher gatling, Service service, SimulationSettings settings,
            Map<String, String> passOn, RunFolder dir, Duration warmup, Launch launch, int injectors, PrintWriter out) {
        AtomicReference<ServiceJar> started = new AtomicReference<>();
        // the load trusts what the user said; the jar's start, the metrics' search and the warm-up here, the same
        TlsTrust trust = service.tls().trust();
        trust.useInThisJvm();
        try (FolderLock lock = FolderLock.take(dir.dir(), "run --url " + service.url(), false);
                StopOnSignal signal = StopOnSignal.endingRun(gatling, () -> Optional.ofNullable(started.get()).ifPresent(ServiceJar::close),
                        "stopped; the simulation was ended%s (folder: %s)".formatted(launch == null ? ", the service left running"
                                : " and the jar stopped", dir.dir()))) {
            Map<String, String> sim = new LinkedHashMap<>(settings.toProperties());
            if (launch != null) {
                List<String> options = new ArrayList<>(launch.jvmOptions());
                if (launch.jvmEvents()) {
                    options.addAll(JvmEvents.recordingOptions(repo, dir.targetRecording()));
                }
                started.set(ServiceJar.start(launch.jar(), options, launch.args(), service.baseUrl() + service.path(), dir.targetLog(),
                        launch.startTimeout(), launch.stopTimeout()));
                out.printf("latency-lab: %s started from %s (pid %d; its output: %s)%n", service.name(), launch.jar(), started.get().pid(),
                        dir.targetLog());
                sim.put(SimulationSettings.TARGET_PID, String.valueOf(started.get().pid()));
            }
            sim.put(SimulationSettings.METRICS_URL, service.metricsUrl());
            warmUp(service, settings, warmup, out);
            Result.TargetSettings named = new Result.TargetSettings(service.name(), Target.SERVICE_MODULE,
                    properties(service, launch, gatling.simulation().orElse(null)));
            java.util.function.Consumer<Path> stamp = file -> {
                try {
                    ResultFile.write(ResultFile.read(file).withTarget(named).withGivenPools(service.pools()), file);
                }
                catch (ResultFile.BadResultFile e) {
                    // left for the caller's read (or the merge) to report
                }
            };
            String description = "%s, %,d users, %s".formatted(service.name(), settings.users(), service.path());
            // the load's JVM is held to the addresses checked, not asking DNS again
            Map<String, String> held = new LinkedHashMap<>(passOn);
            held.putAll(service.pinned().properties(dir.dir().resolve(HOSTS_FILE)));
            held.putAll(trust.gatlingProperties());
            GatlingLauncher.Exit run;
            if (injectors > 1) {
                run = TargetRun.split(gatling, description, SimulationSettings.from(sim), held, dir, injectors,
                        java.time.Instant.now().plus(gatling.injectorLead()), out, stamp);
            }
            else {
                sim.putAll(held);
                run = gatling.run(sim, description, dir.gatlingLog(), out, stamp);
                run.keepReport(dir);
            }
            if (started.get() != null) {
                ServiceJar jar = started.get();
                jar.close(); // its recording is written as it exits
                out.println("latency-lab: stopped " + service.name());
                if (jar.outputCut()) {
                    out.printf("latency-lab: %s printed more than %d MB: %s keeps the first %d MB%n", service.name(), ServiceJar.MAX_LOG_MB,
                            dir.targetLog(), ServiceJar.MAX_LOG_MB);
                }
                if (jar.killed()) {
                    // its recording is written at its exit, which SIGKILL skips: running it again would not help
                    out.printf("latency-lab: %s ignored SIGTERM for %d s and was killed (SIGKILL): it wrote no flight recording, so this run "
                            + "has no JVM events; a service that ends on SIGTERM has them (or give --no-jvm-events)%n", service.name(),
                            launch.stopTimeout().toSeconds());
                }
                else if (launch.jvmEvents()) {
                    run = TargetRun.withJvmEvents(run, dir, out);
                }
            }
            return run;
        }
        finally {
            Optional.ofNullable(started.get()).ifPresent(ServiceJar::close);
        }
    }

    /**
     * Light load before the run, not measured: the run's GET requests only, as it must not change what the service
     * holds, with the headers they carry; ended at the first the service refuses or redirects (the run's own check
     * then says why).
     */
    private static void warmUp(Service service, SimulationSettings settings, Duration warmup, PrintWriter out) {
        List<RequestMix.Request> gets = settings.endpoint().mix().requests().stream().filter(q -> q.method().equals("GET") && q.bodyFile().isEmpty())
                .toList();
        if (!warmup.isZero() && gets.isEmpty()) {
            out.printf("latency-lab: %s not warmed up: the run sends no GET request, and a warm-up must not change the service%n", service.name());
        }
        else if (!warmup.isZero()) {
            Warmup.Sent warm = Warmup.run(gets.stream().map(q -> service.baseUrl() + q.path()).toList(), settings.endpoint().mix().headersOf(gets.get(0)),
                    warmup, 50);
            if (warm.refusedBy() != null) {
                out.printf("latency-lab: %s not warmed up: %s%n", service.name(), warm.refusedBy());
            }
            else {
                out.printf("latency-lab: %s warmed up for %d s (%d requests, not measured)%n", service.name(), warmup.toSeconds(),
                        warm.ok() + warm.failed());
            }
        }
    }
}
