package dev.latencylab.lab.cli;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import dev.latencylab.lab.flow.ExitCode;
import dev.latencylab.lab.docs.Reference;
import dev.latencylab.lab.live.StatusLine;
import dev.latencylab.lab.layout.FolderLock;
import dev.latencylab.lab.machine.Machine;
import dev.latencylab.lab.run.TargetProcess;
import dev.latencylab.lab.layout.Folders;

/**
 * The lab's command line: run one load test, sweep a matrix of them, compare them, or rebuild a sweep's page. Its exit
 * codes are ExitCode's; --help says them in Reference's words.
 */
@Command(name = "lab", mixinStandardHelpOptions = true, versionProvider = LatencyLab.Versions.class,
        resourceBundle = "dev.latencylab.lab.cli.SharedOptions",
        description = "Load tests of a blocking and a non-blocking server under slow I/O.",
        subcommands = {RunCommand.class, SweepCommand.class, ReportCommand.class, CapacityCommand.class, MergeCommand.class,
                CompareCommand.class, HistoryCommand.class, FootprintCommand.class, RebuildDocsCommand.class})
public final class LatencyLab {

    static final String DEFAULT_TARGET = "webflux";
    static final long DEFAULT_LATENCY_MS = 100;

    @Option(names = "--repo", defaultValue = "${sys:latency-lab.repo:-.}",
            description = "Repository root (default: the one ./lab lives in).", scope = CommandLine.ScopeType.INHERIT)
    Path repo;

    /** The terminal's status line, where ./lab runs on one (the live view's second by second); null in a pipe. */
    StatusLine statusLine;

    public static void main(String[] args) {
        // a name looked up once keeps its answer while the lab runs: a service's host checked at the start is the host
        // its warm-up and checks reach later (the load's own JVM is held to it by PinnedHosts)
        java.security.Security.setProperty("networkaddress.cache.ttl", "-1");
        Writer out = new OutputStreamWriter(System.out, System.out.charset());
        Writer err = new OutputStreamWriter(System.err, System.err.charset());
        StatusLine status = StatusLine.ofTerminal(out);
        CommandLine cli = commandLine().setOut(console(status == null ? out : status.wiping(out)))
                .setErr(console(status == null ? err : status.wiping(err)));
        ((LatencyLab) cli.getCommand()).statusLine = status;
        int exit = cli.execute(args);
        cli.getOut().flush(); // what a command printed without a line's end (a table's last line) before the JVM ends
        cli.getErr().flush();
        System.exit(exit);
    }

    /** One writer for the command and its subcommands (each would make its own), flushed at each line's end. */
    private static PrintWriter console(Writer writer) {
        return new PrintWriter(writer, true);
    }

    /** The exit codes each subcommand can end with (see Reference.EXIT_CODES for what each means). */
    static final Map<String, List<String>> EXIT_CODES = Map.of(
            "run", List.of("0", "1", "2", "5", "130, 143"),
            "sweep", List.of("0", "1", "2", "5", "130, 143"),
            "capacity", List.of("0", "1", "2", "5", "130, 143"),
            "footprint", List.of("0", "1", "2", "130, 143"),
            "compare", List.of("0", "2", "3", "4"),
            "history", List.of("0", "2", "3", "4"),
            "merge", List.of("0", "1", "2"),
            "report", List.of("0", "1", "2"),
            "rebuild-docs", List.of("0", "1", "2"));

    /** The command line as main runs it (tests run the same). */
    public static CommandLine commandLine() {
        // no @FILE argument files: --header @FILE is the lab's own (picocli would split a secret's file into
        // arguments, and echo them when they do not parse)
        CommandLine cli = new CommandLine(new LatencyLab()).setCaseInsensitiveEnumValuesAllowed(true).setExpandAtFiles(false)
                // an option's value may begin with a dash: --jvm-option=-Dx.y=1, --jar-arg=--server.port=8080
                .setAllowOptionsAsOptionParameters(true);
        // picocli prints the help of a command asked for --help even beside an argument it does not know (./lab histroy
        // --help): refused as without --help
        CommandLine.IExecutionStrategy runLast = new CommandLine.RunLast();
        cli.setExecutionStrategy(parsed -> {
            for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
                if (!p.unmatched().isEmpty()) {
                    throw new CommandLine.UnmatchedArgumentException(p.commandSpec().commandLine(), p.unmatched());
                }
            }
            return runLast.execute(parsed);
        });
        cli.getSubcommands().get("run").getCommandSpec().usageMessage().footer(Reference.targetsHelp() + Reference.propertiesHelp());
        cli.getSubcommands().get("report").getCommandSpec().usageMessage().footer(Reference.flagsHelp());
        cli.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(Reference.exitCodesHelp());
        // each command lists the codes it can exit with, not another's (compare's 3 and 4 are not run's)
        EXIT_CODES.forEach((command, codes) -> cli.getSubcommands().get(command).getCommandSpec().usageMessage()
                .exitCodeListHeading("%nExit codes:%n").exitCodeList(Reference.exitCodesHelp(codes)));
        // A user's mistake: the message and where to read more, exit 2; no usage dump, no stack trace.
        cli.setParameterExceptionHandler((e, args) -> {
            CommandLine c = e.getCommandLine();
            // a retired spelling is said before any other mistake of the same line (a missing argument, say)
            java.util.Optional<String> retired = RetiredOptions.refusal(c.getCommandName(), c.getCommandSpec().optionsMap().keySet(), List.of(args));
            if (retired.isPresent()) {
                c.getErr().println("latency-lab: " + retired.get());
                return ExitCode.BAD_INPUT;
            }
            c.getErr().println("latency-lab: " + Inputs.withoutHeaderValues(e.getMessage()));
            c.getErr().println("Try './lab " + (c.getCommandSpec().parent() == null ? "" : c.getCommandName() + " ") + "--help'.");
            return ExitCode.BAD_INPUT;
        });
        cli.setExecutionExceptionHandler((e, command, parsed) -> {
            if (e instanceof IllegalArgumentException) {
                command.getErr().println("latency-lab: " + e.getMessage());
                return ExitCode.BAD_INPUT;
            }
            if (e instanceof TargetProcess.TargetFailedException || e instanceof FolderLock.FolderBusyException) {
                command.getErr().println("latency-lab: " + e.getMessage());
                return ExitCode.FAILED;
            }
            if (e instanceof java.io.UncheckedIOException io) {
                // a file or folder that could not be written once the command was under way: say which, and why
                command.getErr().println("latency-lab: " + Folders.why(io));
                return ExitCode.FAILED;
            }
            throw e;
        });
        return cli;
    }

    /** --version: this project's version and those it runs with. */
    static final class Versions implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            Map<String, String> v = Machine.versions();
            return new String[] {"latency-lab " + v.getOrDefault("latency-lab", "unknown"),
                    "Gatling " + v.get("gatling") + " (gatling-maven-plugin " + v.get("gatling-maven-plugin") + ", Scala " + v.get("scala") + ")",
                    "Spring Boot " + v.get("spring-boot"),
                    "JDK " + System.getProperty("java.runtime.version") + " (" + System.getProperty("java.home") + ")"};
        }
    }
}
