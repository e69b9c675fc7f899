package dev.latencylab.lab.run;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

import dev.latencylab.load.launch.LaunchFile;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.load.settings.SimulationSettings;
import dev.latencylab.lab.layout.Folders;
import dev.latencylab.lab.layout.RunFolder;

/**
 * Runs the simulation as {@code ./mvnw gatling:test -D...} does, without Maven: Gatling's JVM started directly from
 * gatling-scripts/target/gatling-launch.txt (java, test classpath and JVM options the build wrote), in gatling-scripts,
 * the simulation's properties as -D options. Keeps its console output in a log, finds the report Gatling names, and
 * reads the result file at the path it gave the simulation.
 */
public final class GatlingLauncher {

    private static final String REPORT_LINE = "Reports generated, please open the following file: file://";
    /**
     * What one run left: its exit code, where its report and result file are (null when it made none), and what its
     * result file says went wrong (the target exited or stopped answering, every request failed).
     */
    public record Exit(int exitCode, Path reportDir, Path resultFile, String lastError, List<String> problems) {

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

        /**
         * Moves Gatling's report into the run's own folder and removes what else Gatling left in its results folder
         * (a run without a report leaves only its simulation.log); returns where the report is now (null: none).
         */
        public Path keepReport(RunFolder folder) {
            try {
                Path kept = null;
                if (reportDir != null && Files.isDirectory(reportDir)) {
                    kept = Files.move(reportDir, folder.report(), StandardCopyOption.REPLACE_EXISTING);
                }
                Folders.deleteTree(resultsFolder(folder.gatlingLog()));
                return kept;
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** What runs a user's simulation: Gatling's main, with the lab's sampling around it and its result file after. */
    static final String OWN_RUN = "dev.latencylab.load.own.OwnRun";
    /** Where the build writes the simulation's launch file, in the repository. */
    static final String LAUNCH_FILE = "gatling-scripts/target/gatling-launch.txt";

    /** How far ahead a split run's common start is set, by default: K Gatling JVMs start on two shared cores. */
    public static final java.time.Duration INJECTOR_LEAD = java.time.Duration.ofSeconds(10);

    private final Path repo;
    /** Whether Gatling writes its HTML report (--no-reports when not: no one reads it, e.g. in tests). */
    private final boolean reports;
    private final java.time.Duration injectorLead;
    /** The runs under way: one, or one per injector of a split run. */
    private final java.util.Set<Process> current = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Set by stop: a run asked for afterwards does not start (it may be on its way while the stop comes). */
    private volatile boolean stopped;
    /** A user's simulation that each run runs instead of the lab's; null: the lab's. */
    private final OwnSimulation own;

    public GatlingLauncher(Path repo) {
        this(repo, true, INJECTOR_LEAD);
    }

    /** @param injectorLead how far ahead of the moment its injectors are started a split run's load begins */
    public GatlingLauncher(Path repo, boolean reports, java.time.Duration injectorLead) {
        this(repo, reports, injectorLead, null);
    }

    private GatlingLauncher(Path repo, boolean reports, java.time.Duration injectorLead, OwnSimulation own) {
        this.repo = repo;
        this.reports = reports;
        this.injectorLead = injectorLead;
        this.own = own;
    }

    /** The same launcher running a user's simulation instead of the lab's (null: the lab's). */
    public GatlingLauncher running(OwnSimulation simulation) {
        return new GatlingLauncher(repo, reports, injectorLead, simulation);
    }

    /** The user's simulation this launcher runs, if any (none: the lab's own). */
    public Optional<OwnSimulation> simulation() {
        return Optional.ofNullable(own);
    }

    /** The classpath a user's simulation compiles against: the lab's Gatling, as the build wrote it. */
    public String classpath() {
        return launch().classpath();
    }

    private LaunchFile.Launch launch() {
        try {
            return LaunchFile.read(repo.resolve(LAUNCH_FILE));
        }
        catch (IOException e) {
            throw new UncheckedIOException("the simulation's launch file cannot be read (build first: ./mvnw -DskipTests package): "
                    + e.getMessage(), e);
        }
    }

    public java.time.Duration injectorLead() {
        return injectorLead;
    }

    /**
     * Gatling's results folder for the run logged in gatling.log: gatling-results beside it (the report then moves to
     * report/, the rest is removed). One per log, so that runs side by side never share one.
     */
    static Path resultsFolder(Path log) {
        String name = log.getFileName().toString();
        return log.toAbsolutePath().resolveSibling((name.endsWith(".log") ? name.substring(0, name.length() - 4) : name) + "-results");
    }

    /** The command that starts Gatling's JVM for one simulation run. */
    List<String> command(Map<String, String> properties, String description, Path results) {
        LaunchFile.Launch launch = launch();
        List<String> command = new ArrayList<>();
        command.add(launch.java());
        command.addAll(launch.jvmOptions());
        // a header's value goes in the environment (see run), never on a command line every user can read
        properties.forEach((k, v) -> {
            if (!k.startsWith(SimulationSettings.HEADER_PREFIX)) {
                command.add("-D" + k + "=" + v);
            }
        });
        // a user's classes after the lab's: the AOT cache holds for a classpath it begins
        String classpath = own == null ? launch.classpath() : launch.classpath() + java.io.File.pathSeparator
                + String.join(java.io.File.pathSeparator, own.classpath().stream().map(p -> p.toAbsolutePath().toString()).toList());
        command.addAll(List.of("-cp", classpath, own == null ? "io.gatling.app.Gatling" : OWN_RUN, "--simulation",
                own == null ? dev.latencylab.load.result.Result.LAB_SIMULATION : own.className(), "--results-folder", results.toAbsolutePath().toString(),
                "--run-description",
                description));
        if (!reports) {
            command.add("--no-reports");
        }
        return command;
    }

    /**
     * @param properties  the simulation's system properties (sim.users, base.url, ...)
     * @param description what Gatling's report calls the run (e.g. the target's id and the load)
     * @param echo        where to copy the console as it comes (TargetRun.SILENT: the log only)
     */
    public Exit run(Map<String, String> properties, String description, Path log, PrintWriter echo) {
        return run(properties, description, log, echo, written -> {
        });
    }

    /**
     * @param resultWritten given the result file once the simulation says it wrote it, while Gatling still writes its
     *                      report and exits (the target is no longer needed from then on); at the latest when Gatling
     *                      has exited, if it left one without saying so; never when it left none
     */
    public Exit run(Map<String, String> properties, String description, Path log, PrintWriter echo, Consumer<Path> resultWritten) {
        Path results = resultsFolder(log);
        List<String> command = command(properties, description, results);
        Path reportDir = null;
        // the runner names the result file; the simulation writes it there or writes nothing
        Path resultFile = Path.of(Objects.requireNonNull(properties.get(SimulationSettings.RESULT_FILE), "a run needs its result file's path"));
        Process process = null;
        try {
            Files.createDirectories(log.toAbsolutePath().getParent());
            if (stopped) {
                return new Exit(-1, null, null, "stopped before it started", List.of());
            }
            ProcessBuilder builder = new ProcessBuilder(command).directory(repo.resolve("gatling-scripts").toFile()).redirectErrorStream(true);
            builder.environment().putAll(SimulationSettings.headersEnvironment(properties));
            process = builder.start();
            current.add(process);
            if (stopped) {
                process.destroy(); // the stop came while it started
            }
            Followed console = follow(process, command, log, echo, resultFile, resultWritten);
            reportDir = console.reportDir();
            int exit = process.waitFor();
            if (!Files.isRegularFile(resultFile)) {
                return new Exit(exit, reportDir, null, console.lastError(), List.of());
            }
            if (!console.saidWritten()) {
                resultWritten.accept(resultFile);
            }
            return new Exit(exit, reportDir, resultFile, console.lastError(), ResultFile.problems(resultFile));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        catch (InterruptedException e) {
            stop();
            Thread.currentThread().interrupt();
            return new Exit(-1, reportDir, resultFile, "interrupted", List.of());
        }
        finally {
            if (process != null) {
                current.remove(process);
            }
        }
    }

    /** What Gatling's console said that a run needs: where its report went, its first error, whether it wrote the result. */
    private record Followed(Path reportDir, String lastError, boolean saidWritten) {
    }

    /** Copies Gatling's console to its log (and to echo) line by line until it ends, noting what the run needs. */
    private static Followed follow(Process process, List<String> command, Path log, PrintWriter echo, Path resultFile,
            Consumer<Path> resultWritten) throws IOException {
        Path reportDir = null;
        String lastError = null;
        boolean said = false;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                Writer logWriter = Files.newBufferedWriter(log)) {
            // the log's first line: the command, without the classpath (a hundred jars)
            logWriter.write(String.join(" ", command).replace(command.get(command.indexOf("-cp") + 1), "<" + LAUNCH_FILE + ">") + "\n");
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                logWriter.write(line + "\n");
                logWriter.flush(); // the log is how a watcher sees the run's progress
                // Gatling's report path is not echoed: the lab moves the report into the run's folder and prints
                // where it is then (a path on the screen must exist when the command ends)
                if (!line.startsWith(REPORT_LINE)) {
                    echo.println(line);
                }
                if (line.startsWith(ResultFile.WRITTEN) && !said && Files.isRegularFile(resultFile)) {
                    said = true;
                    resultWritten.accept(resultFile);
                }
                else if (line.startsWith(REPORT_LINE)) {
                    reportDir = Path.of(line.substring(REPORT_LINE.length()).trim()).getParent();
                }
                else if (line.startsWith("latency-lab: cannot run: ")) {
                    // the lab's own words of why, over a line of Gatling's log before them
                    lastError = lastError == null || !lastError.startsWith("latency-lab: cannot run: ") ? line : lastError;
                }
                else if (line.contains("[ERROR]")) {
                    lastError = lastError == null ? line : lastError;
                }
            }
        }
        return new Followed(reportDir, lastError, said);
    }

    /** Ends the runs under way, Maven and the Gatling JVMs it forked, and waits until they are gone. */
    public void stop() {
        stopped = true;
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
