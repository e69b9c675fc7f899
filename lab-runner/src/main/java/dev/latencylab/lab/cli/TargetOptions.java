package dev.latencylab.lab.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import dev.latencylab.load.settings.TargetPorts;
import dev.latencylab.lab.run.Jdk;
import dev.latencylab.lab.targets.Target;

/**
 * The target a run or a capacity search starts, declared once for both: its id, the latency each request waits, its
 * port, the JDK it runs on and the warm-up before it is measured. Each value as given (null: not given), and with its default.
 */
final class TargetOptions {

    @Option(names = "--target", paramLabel = "ID", description = "Target id (default: " + LatencyLab.DEFAULT_TARGET + "), of a form "
            + "./lab run --help lists under Target ids.")
    String target;

    @Option(names = "--latency-ms", paramLabel = "MS", description = "Latency of each request, in ms (default: " + LatencyLab.DEFAULT_LATENCY_MS
            + "; on run, -Dtest.path may give the whole path instead).")
    Long latencyMs;

    @Option(names = "--port", description = "Port of the target (default: " + TargetPorts.MVC + " for MVC, " + TargetPorts.WEBFLUX
            + " for WebFlux; its actuator: this + " + TargetPorts.MANAGEMENT_OFFSET + ").")
    Integer port;

    @Mixin
    JdkOption jdk;

    @Option(names = "--warmup-seconds", defaultValue = "5", description = "Light load on each fresh target before it is measured, "
            + "not counted (default: ${DEFAULT-VALUE}).")
    int warmupSeconds;

    /** The target given, or the default one, on that JDK (null: the build's; see {@link Target#onJdk}). */
    Target parsed(Jdk on) {
        return Target.parse(target != null ? target : LatencyLab.DEFAULT_TARGET).onJdk(Jdk.featureOf(on));
    }

    /** The latency given, or the default. */
    long latency() {
        return latencyMs != null ? latencyMs : LatencyLab.DEFAULT_LATENCY_MS;
    }

    /** The port given (checked), or the target's own. */
    int port(Target t) {
        return Inputs.port("--port", port == null ? t.defaultPort() : port);
    }

    /** The JDK given, found and asked its version; null: the build's. */
    Jdk jdk() {
        return jdk.resolved();
    }

    /** The warm-up given, checked. */
    int warmup() {
        return Inputs.seconds("--warmup-seconds", warmupSeconds);
    }
}
