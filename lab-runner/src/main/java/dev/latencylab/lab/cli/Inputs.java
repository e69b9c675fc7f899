package dev.latencylab.lab.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.latencylab.load.settings.SimulationSettings;
import dev.latencylab.load.settings.TargetPorts;
import dev.latencylab.lab.machine.Machine;
import dev.latencylab.lab.targets.TargetIds;

/**
 * The checks run, sweep and capacity share, made before anything starts: each refuses bad input with one line that
 * names the option, why, and what to give instead (IllegalArgumentException: exit 2).
 */
public final class Inputs {

    /** The highest port whose actuator port (+1000) still exists. */
    static final int MAX_PORT = 65_535 - TargetPorts.MANAGEMENT_OFFSET;
    /** The targets' cap on a request's latency (their latency.max-ms default, hello-contract's Hello): above it they answer 400. */
    static final long MAX_LATENCY_MS = 60_000;
    /** Each Gatling JVM may take this much heap (-Xmx4G in gatling-scripts/pom.xml, for 20,000 users). */
    static final long INJECTOR_HEAP_BYTES = 4L << 30;
    /**
     * Server settings a user may type as for a Spring app. ./lab starts each target with what its id names and passes no
     * -D to it, so such a property would change nothing while the run reads as if it had.
     */
    private static final List<String> SERVER_PREFIXES = List.of("server.", "spring.", "management.", "latency.", "downstream.",
            "maxThreads", "max-threads", "tomcat.");
    /** What ./lab hands on to Gatling unread by the simulation: Gatling's own settings. */
    private static final String GATLING_PREFIX = "gatling.";

    private Inputs() {
    }

    /** A header given as a property (-Dsim.header.NAME=VALUE) or as an argument ('NAME: VALUE'), up to its value. */
    private static final java.util.regex.Pattern HEADER_VALUE = java.util.regex.Pattern.compile(
            "(" + java.util.regex.Pattern.quote(SimulationSettings.HEADER_PREFIX) + "[^=\\s']*=|(?<=')[!#$%&*+.^_`|~0-9A-Za-z-]+:(?!//))[^']*");

    /**
     * A message of the parser (an unknown option, an unmatched argument) with every header value it echoes hidden: a
     * mistyped option must not print the secret it carried.
     */
    static String withoutHeaderValues(String message) {
        return message == null ? null : HEADER_VALUE.matcher(message).replaceAll(m -> java.util.regex.Matcher.quoteReplacement(m.group(1) + "<hidden>"));
    }

    static int port(String option, int port) {
        if (port < 1 || port > MAX_PORT) {
            throw new IllegalArgumentException(("%s %d: give a port from 1 to %d (the target's actuator listens on port + %d, "
                    + "which must be at most 65535%s)").formatted(option, port, MAX_PORT, TargetPorts.MANAGEMENT_OFFSET,
                            port == 0 ? "; 0 would let the system pick a port the load could not know" : ""));
        }
        return port;
    }

    static long latency(String option, long ms) {
        if (ms < 0 || ms > MAX_LATENCY_MS) {
            throw new IllegalArgumentException("%s %d: give 0 to %,d ms (the targets answer 400 above their latency.max-ms, %,d)"
                    .formatted(option, ms, MAX_LATENCY_MS, MAX_LATENCY_MS));
        }
        return ms;
    }

    static int seconds(String option, int seconds) {
        if (seconds < 0) {
            throw new IllegalArgumentException("%s %d: give 0 or more seconds".formatted(option, seconds));
        }
        return seconds;
    }

    /** A folder name of its own under the results folder: never a path that leads elsewhere. */
    static final int MAX_NAME_BYTES = 200;

    static String folderName(String option, String name) {
        if (name.isBlank() || name.equals(".") || name.equals("..") || name.contains("/") || name.contains("\\")
                || name.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException(("%s '%s': give a single folder name (no '/', not '.' or '..'); "
                    + "to put the folder elsewhere, use --results DIR").formatted(option, name));
        }
        // a file system's limit for one name (ext4, xfs, tmpfs), with room for a repeat's -r<k> and a file's .partial suffix
        if (name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
            throw new IllegalArgumentException("%s: a name of %d bytes; give at most %d (a folder's name is at most 255)"
                    .formatted(option, name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length, MAX_NAME_BYTES));
        }
        return name;
    }

    /** Gatling processes on this machine: as many as its memory holds at their heap, each. */
    static int injectors(int k) {
        long memory = Machine.memoryBytes();
        int most = (int) Math.max(1, memory / INJECTOR_HEAP_BYTES);
        if (k < 1 || k > most) {
            throw new IllegalArgumentException(("--injectors %d: give 1 to %d on this machine: each Gatling process may take %d GiB of "
                    + "heap and it has %.1f GiB of memory (and %d cores, which the injectors share with the targets); "
                    + "for more, run injectors on other machines and ./lab merge their results")
                    .formatted(k, most, INJECTOR_HEAP_BYTES >> 30, memory / (double) (1L << 30), Runtime.getRuntime().availableProcessors()));
        }
        return k;
    }

    /**
     * The -D properties a command hands on to Gatling as they are: Gatling's own (gatling.*). A server setting is
     * refused with the target id that sets it; any other property the simulation does not know is refused like a
     * misspelt sim.* one (the simulation's check names those).
     */
    static Map<String, String> passOn(Map<String, String> given) {
        Map<String, String> passOn = new LinkedHashMap<>();
        SimulationSettings.notOurs(given).forEach((name, value) -> {
            if (SERVER_PREFIXES.stream().anyMatch(name::startsWith)) {
                throw new IllegalArgumentException(("-D%s: a setting of the server, which ./lab starts with what its target id "
                        + "names and no -D (it would change nothing): choose the target instead, e.g. --target mvc-t400 (Tomcat's "
                        + "threads), mvc-virtual, mvc-t200-uncapped (Tomcat's connection cap), webflux-db-p50 (a pool of 50). "
                        + "Known: %s").formatted(name, TargetIds.known()));
            }
            if (!name.startsWith(GATLING_PREFIX)) {
                throw new IllegalArgumentException(("-D%s: not a property of the simulation nor of Gatling (gatling.*); "
                        + "the simulation's are listed by ./lab run --help and in docs/running.md").formatted(name));
            }
            passOn.put(name, value);
        });
        return passOn;
    }
}
