package dev.latencylab.lab.cli;

import java.io.PrintWriter;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * Where a command prints: picocli's writers, a terminal's stdout and stderr as ./lab runs, a test's own when it runs
 * the command line in its JVM (never System.out and System.err, which every test class running beside it shares).
 */
@Command // what picocli asks of a mixin that brings no option
final class Console {

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    PrintWriter out() {
        return command.commandLine().getOut();
    }

    PrintWriter err() {
        return command.commandLine().getErr();
    }
}
