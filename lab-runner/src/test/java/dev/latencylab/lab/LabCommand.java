package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.latencylab.lab.cli.LatencyLab;
import dev.latencylab.lab.run.TargetProcess;

/**
 * {@code ./lab} as a user starts it: the script in the repository root, its own process, its console in a file.
 * The build that ran these tests wrote the launch file, so the script starts the runner without building.
 */
final class LabCommand {

    private static final Pattern JVM_NOTICE = Pattern.compile("(?m)^Picked up JAVA_TOOL_OPTIONS: .*\n");

    private final Process process;
    private final Path console;

    private LabCommand(Process process, Path console) {
        this.process = process;
        this.console = console;
    }

    /** Starts {@code ./lab args...}; stdout and stderr go together to {@code console}. */
    static LabCommand start(Path console, String... args) {
        return start(console, List.of(), args);
    }

    /** The same, behind a prefix command (e.g. setsid, for a process group of its own). */
    static LabCommand start(Path console, List<String> prefix, String... args) {
        List<String> command = new ArrayList<>(prefix);
        command.add(Lab.repo().resolve("lab").toString());
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(console.toFile()).start();
            return new LabCommand(p, console);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs {@code ./lab args...} to its end (at most 5 minutes) and returns its exit code. */
    static Finished run(Path console, String... args) {
        return run(console, List.of(), args);
    }

    /** The same, behind a prefix command (e.g. a CPU's taskset). */
    static Finished run(Path console, List<String> prefix, String... args) {
        LabCommand lab = start(console, prefix, args);
        return new Finished(lab.await(Duration.ofMinutes(5)), lab.output());
    }

    /**
     * ./lab's command line run in this JVM, as main runs it, its console (both writers) captured: for input refused
     * before anything starts, which needs no process of its own. Commands print only through picocli's writers.
     */
    static Finished inThisJvm(String... args) {
        java.io.StringWriter console = new java.io.StringWriter();
        java.io.PrintWriter writer = new java.io.PrintWriter(console, true);
        int exit = LatencyLab.commandLine().setOut(writer).setErr(writer).execute(args);
        writer.flush();
        return new Finished(exit, console.toString());
    }

    /**
     * A tiny {@code ./lab capacity} to its end: 5-s levels after a 1-s ramp, a 1-s warm-up, no Gatling report, a port of
     * its own, in results/name (its console beside it), on a CPU of its own; more: the target, rates, SLO.
     */
    static Finished capacity(OwnCpu cpu, Path results, String name, String... more) {
        List<String> args = new ArrayList<>(List.of("capacity", "--level-seconds", "5", "--ramp-seconds", "1", "--warmup-seconds", "1",
                "--no-gatling-report", "--port", String.valueOf(Lab.freePort()), "--results", results.toString(), "--name", name));
        args.addAll(List.of(more));
        return run(results.resolve(name + ".console"), cpu.taskset(), args.toArray(String[]::new));
    }

    record Finished(int exitCode, String output) {

        private static final Pattern RUN_FOLDER = Pattern.compile("\\(run folder: (.+)\\)$", Pattern.MULTILINE);

        /** The folder ./lab run said it made (its first line: "... (run folder: DIR)"), if it got that far. */
        java.util.Optional<Path> runFolder() {
            Matcher m = RUN_FOLDER.matcher(output);
            return m.find() ? java.util.Optional.of(Path.of(m.group(1))) : java.util.Optional.empty();
        }
    }

    int await(Duration max) {
        try {
            if (!process.waitFor(max.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new IllegalStateException("./lab did not end within " + max + "; console: " + output());
            }
            return process.exitValue();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Waits until the console shows a line that matches, and returns its first group (or the whole match). */
    String awaitLine(String regex, Duration max) {
        Pattern pattern = Pattern.compile(regex, Pattern.MULTILINE);
        long deadline = System.nanoTime() + max.toNanos();
        while (true) {
            boolean ended = !process.isAlive(); // read before the console: what it printed is all there then
            Matcher m = pattern.matcher(output());
            if (m.find()) {
                return m.groupCount() > 0 ? m.group(1) : m.group();
            }
            if (ended || System.nanoTime() >= deadline) {
                throw new IllegalStateException("no line /" + regex + "/ " + (ended ? "before ./lab ended" : "within " + max) + ": " + output());
            }
            TargetProcess.sleep(200);
        }
    }

    long pid() {
        return process.pid();
    }

    /** SIGTERM to this process alone, as `kill PID` does. */
    void terminate() {
        process.destroy();
    }

    /**
     * What ./lab printed, without the JVM's notice of the options this build gives every JVM the tests start
     * (JAVA_TOOL_OPTIONS in lab-runner/pom.xml): a user's console has no such line.
     */
    String output() {
        try {
            return JVM_NOTICE.matcher(Files.readString(console)).replaceAll("");
        }
        catch (IOException e) {
            return "";
        }
    }

    /** A console that says what is wrong in its own words: no exception, stack frame or build error in it. */
    static void assertNoStackTrace(String output) {
        assertThat(output).doesNotContain("Exception").doesNotContain("\tat ").doesNotContain("[ERROR]");
    }
}
