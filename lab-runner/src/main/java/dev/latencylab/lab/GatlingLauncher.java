package dev.latencylab.lab;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

import dev.latencylab.load.ResultFile;
import dev.latencylab.load.SimulationSettings;

/**
 * Runs the simulation exactly as a user does by hand: {@code ./mvnw gatling:test -D...} from the repository root,
 * here limited to the gatling-scripts module. Keeps its console output in a log, finds the report Gatling names, and
 * reads the result file at the path it gave the simulation.
 */
public final class GatlingLauncher {

    private static final String REPORT_LINE = "Reports generated, please open the following file: file://";
    /** Maven's advice after a failed goal (the log keeps it): the run's own lines say what went wrong. */
    private static final Pattern MAVEN_BOILERPLATE = Pattern.compile("^\\[ERROR\\] (\\s*$|To see the full stack trace|Re-run Maven"
            + "|For more information about the errors|\\[Help 1\\]|After correcting the problems|  mvn <args>)");

    /**
     * What one run left: its exit code, where its report and result file are (null when it made none), and what its
     * result file says went wrong (the target exited or stopped answering, every request failed).
     */
    public record Outcome(int exitCode, Path reportDir, Path resultFile, String lastError, List<String> problems) {

        public boolean succeeded() {
            return exitCode == 0 && resultFile != null && Files.isRegularFile(resultFile) && problems.isEmpty();
        }

        /** Why the run does not count, one line each; empty when it succeeded. */
        public List<String> failures(Path log) {
            List<String> why = new ArrayList<>(problems);
            if (why.isEmpty() && !succeeded()) {
                why.add("the simulation exited with %d: %s; see %s".formatted(exitCode,
                        lastError == null ? "no result file" : lastError, log));
            }
            return why;
        }

        /** Moves Gatling's report into the run's own folder; returns where it is now (null: none). */
        public Path keepReport(RunFolder folder) {
            if (reportDir == null || !Files.isDirectory(reportDir)) {
                return null;
            }
            try {
                return Files.move(reportDir, folder.report(), StandardCopyOption.REPLACE_EXISTING);
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private final Path repo;
    /** The runs under way: one, or one per injector of a split run. */
    private final java.util.Set<Process> current = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public GatlingLauncher(Path repo) {
        this.repo = repo;
    }

    /**
     * @param properties the simulation's system properties (sim.users, base.url, ...)
     * @param echo       where to copy the console as it comes (null: only the log)
     */
    public Outcome run(Map<String, String> properties, Path log, PrintStream echo) {
        List<String> command = new ArrayList<>(List.of(repo.resolve("mvnw").toString(), "-B", "-q", "-pl", "gatling-scripts", "gatling:test"));
        properties.forEach((k, v) -> command.add("-D" + k + "=" + v));
        Path reportDir = null;
        // the runner names the result file; the simulation writes it there or writes nothing
        Path resultFile = Path.of(Objects.requireNonNull(properties.get(SimulationSettings.RESULT_FILE), "a run needs its result file's path"));
        String lastError = null;
        Process process = null;
        try {
            Files.createDirectories(log.toAbsolutePath().getParent());
            process = new ProcessBuilder(command).directory(repo.toFile()).redirectErrorStream(true).start();
            current.add(process);
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                 Writer logWriter = Files.newBufferedWriter(log)) {
                logWriter.write(String.join(" ", command) + "\n");
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    logWriter.write(line + "\n");
                    logWriter.flush(); // the log is how a watcher sees the run's progress
                    // Gatling's report path is not echoed: the lab moves the report into the run's folder and prints
                    // where it is then (a path on the screen must exist when the command ends)
                    if (echo != null && !MAVEN_BOILERPLATE.matcher(line).find() && !line.startsWith(REPORT_LINE)) {
                        echo.println(line);
                    }
                    if (line.startsWith(REPORT_LINE)) {
                        reportDir = Path.of(line.substring(REPORT_LINE.length()).trim()).getParent();
                    }
                    else if (line.startsWith("latency-lab: cannot run: ") || line.contains("[ERROR]")) {
                        lastError = lastError == null ? line : lastError;
                    }
                }
            }
            int exit = process.waitFor();
            if (!Files.isRegularFile(resultFile)) {
                return new Outcome(exit, reportDir, null, lastError, List.of());
            }
            return new Outcome(exit, reportDir, resultFile, lastError, ResultFile.problems(resultFile));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        catch (InterruptedException e) {
            stop();
            Thread.currentThread().interrupt();
            return new Outcome(-1, reportDir, resultFile, "interrupted", List.of());
        }
        finally {
            if (process != null) {
                current.remove(process);
            }
        }
    }

    /** Ends the runs under way, Maven and the Gatling JVMs it forked, and waits until they are gone. */
    public void stop() {
        List<ProcessHandle> all = new ArrayList<>();
        for (Process p : List.copyOf(current)) {
            all.addAll(p.descendants().toList());
            all.add(p.toHandle());
        }
        all.forEach(ProcessHandle::destroy);
        for (ProcessHandle h : all) {
            try {
                h.onExit().get(15, java.util.concurrent.TimeUnit.SECONDS);
            }
            catch (Exception e) {
                h.destroyForcibly();
            }
        }
    }
}
