package dev.latencylab.lab.footprint;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.latencylab.lab.footprint.Footprint.Mode;
import dev.latencylab.lab.run.FreePorts;
import dev.latencylab.lab.run.ServiceJar;
import dev.latencylab.lab.run.ServiceRun;
import dev.latencylab.lab.run.ServiceSpec;
import dev.latencylab.lab.run.TargetProcess;
import dev.latencylab.lab.targets.Target;

/**
 * What a footprint measurement holds connections to, started fresh for it: one of the lab's targets, or a jar of the
 * user's. Each says where it listens, what warms it, what a connection sends, and how its memory is read.
 */
sealed interface Subject extends AutoCloseable permits Subject.LabTarget, Subject.OwnService {

    Duration START_TIMEOUT = Duration.ofSeconds(60);

    long pid();

    int port();

    /** The paths a few requests go to before any count is held. */
    List<String> warmPaths();

    /** What each connection sends in this mode. */
    String path(Mode mode, long holdSeconds);

    /** Its memory after a forced GC. */
    MemorySnapshot afterGc();

    /** The requests it has waiting out their latency now (in flight). */
    long waiting();

    @Override
    void close();

    /** The target or the service of the experiment's settings, started with Native Memory Tracking (jvmOptions) and its log. */
    static Subject start(Path repo, String id, Footprint.Settings s, Path log) {
        List<String> jvmOptions = new ArrayList<>();
        if (s.service() != null) {
            ServiceSpec spec = s.service();
            ServiceRun.Service located = spec.located();
            jvmOptions.addAll(spec.jvmOptions());
            jvmOptions.addAll(s.jvmOptions());
            ServiceJar jar = ServiceJar.start(Path.of(spec.jar()), jvmOptions, spec.jarArgs(), located.baseUrl() + located.path(), log, spec.startTimeout(),
                    spec.stopTimeout());
            try {
                return new OwnService(located, jar, JvmGauges.Agent.attach(jar.pid()));
            }
            catch (RuntimeException e) {
                jar.close();
                throw e;
            }
        }
        Target target = Target.parse(id);
        jvmOptions.addAll(target.jvmOptions());
        jvmOptions.addAll(s.jvmOptions());
        int port = FreePorts.port();
        return new LabTarget(target, TargetProcess.start(repo, target.module(), port, target.properties(), Map.of(), jvmOptions, log, START_TIMEOUT), port);
    }

    /** One of the lab's targets: it waits on /hello/{ms}, counts what waits (hello.waiting), and its actuator has the gauges. */
    record LabTarget(Target target, TargetProcess process, int port) implements Subject {

        public long pid() {
            return process.pid();
        }

        public List<String> warmPaths() {
            return List.of("/" + target.path(1), "/hello");
        }

        public String path(Mode mode, long holdSeconds) {
            return mode == Mode.IN_FLIGHT ? "/" + target.path(holdSeconds * 1000) : "/hello";
        }

        public MemorySnapshot afterGc() {
            return MemorySnapshot.afterGc(process.pid(), () -> JvmGauges.ofActuator(process.metricsUrl()));
        }

        public long waiting() {
            return JvmGauges.metric(process.metricsUrl() + "/actuator/metrics/hello.waiting");
        }

        public void close() {
            process.kill();
        }
    }

    /**
     * A jar of the user's (footprint --jar): each connection has its URL's request answered, then stays open; its gauges
     * through its management agent, since a service may publish none.
     */
    record OwnService(ServiceRun.Service service, ServiceJar jar, JvmGauges.Agent agent) implements Subject {

        public long pid() {
            return jar.pid();
        }

        public int port() {
            return URI.create(service.baseUrl()).getPort();
        }

        public List<String> warmPaths() {
            return List.of(service.path());
        }

        public String path(Mode mode, long holdSeconds) {
            if (mode != Mode.IDLE) {
                throw new IllegalStateException("a service's footprint holds idle connections only"); // refused before it starts
            }
            return service.path();
        }

        public MemorySnapshot afterGc() {
            return MemorySnapshot.afterGc(jar.pid(), agent::read);
        }

        public long waiting() {
            throw new IllegalStateException("a service's footprint holds idle connections only");
        }

        public void close() {
            agent.close();
            jar.close();
        }
    }
}
