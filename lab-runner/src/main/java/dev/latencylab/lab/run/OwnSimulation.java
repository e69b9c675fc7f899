package dev.latencylab.lab.run;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import dev.latencylab.lab.layout.Folders;

/**
 * A Gatling simulation of the user's, in the Java DSL (from Java or Kotlin) or the Scala DSL (./lab run --simulation
 * FILE.java, FILE.kt or FILE.scala): its source checked (a URL in it that names a host other than this machine is
 * refused, as --url's is), compiled by this JDK's, Kotlin's or Gatling's Scala's compiler against the lab's Gatling
 * classpath into a folder of its own (removed by close: its classes hold its source's strings), and run
 * by Gatling with the folder it was in on its classpath (its feeders' files beside it).
 *
 * @param source    the .java file, checked
 * @param className the simulation's class: its package and the file's name
 * @param classes   where it was compiled to
 */
public record OwnSimulation(Source source, String className, Path classes) implements AutoCloseable {

    /** The forms --simulation takes, for messages. */
    static final String FORMS = "a .java or .kt file of Gatling's Java DSL, or a .scala file of its Scala DSL";

    /** A source's package: Java's (with its semicolon) or Scala's (without). */
    private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;?\\s*$", Pattern.MULTILINE);
    /** An absolute http(s) URL in a string literal of the source. */
    private static final Pattern URL = Pattern.compile("\"(https?://[^\"\\s]*)\"");

    /**
     * A simulation's source as a sweep keeps it (sweep.json): its file, and its digest, so that a sweep resumed runs the
     * same simulation.
     */
    public record Source(String file, String sha256) {

        /**
         * The source in file, checked: a .java file that can be read, every absolute URL in it this machine's unless the
         * host is the user's.
         *
         * @throws IllegalArgumentException naming the file and what is wrong with it
         */
        public static Source read(Path file, boolean hostIsMine) {
            String name = file.getFileName().toString();
            if (!name.endsWith(".java") && !name.endsWith(".scala") && !name.endsWith(".kt")) {
                throw new IllegalArgumentException("--simulation %s: give %s (as docs/your-simulation.md shows)".formatted(file, FORMS));
            }
            String text = text(file);
            checkHosts(file, text, hostIsMine);
            return new Source(file.toAbsolutePath().normalize().toString(), digest(text));
        }

        private static String text(Path file) {
            try {
                return Files.readString(file);
            }
            catch (IOException | UncheckedIOException e) {
                throw new IllegalArgumentException("--simulation %s: cannot read it (%s)".formatted(file, e.getClass().getSimpleName()));
            }
        }

        /** Its folder, for Gatling's classpath: the files its feeders read are beside it. */
        Path folder() {
            return Path.of(file).getParent();
        }
    }

    /** Its classes, then the folder of its source (and Kotlin's standard library for a .kt), for Gatling's classpath (after the lab's own). */
    public List<Path> classpath() {
        return source.file().endsWith(".kt") ? List.of(classes, source.folder(), kotlinStdlib()) : List.of(classes, source.folder());
    }

    /** Kotlin's standard library, as the compiler here has it: a Kotlin simulation's classes need it where they run. */
    private static Path kotlinStdlib() {
        try {
            return Path.of(Class.forName("kotlin.Unit").getProtectionDomain().getCodeSource().getLocation().toURI());
        }
        catch (ReflectiveOperationException | java.net.URISyntaxException e) {
            throw new IllegalStateException("Kotlin's standard library is not on the lab's classpath (build again: ./mvnw -DskipTests package)", e);
        }
    }

    /**
     * The simulation of source compiled against classpath (the lab's Gatling) into a new folder of this JVM's temporary
     * folder (./lab's own, under the build's target/tmp).
     *
     * @throws IllegalArgumentException naming the file and what is wrong: changed since it was read (a sweep resumed),
     *                                  what the compiler said, no class named as the file
     */
    public static OwnSimulation compile(Source source, String classpath) {
        Path file = Path.of(source.file());
        String text = Source.text(file);
        if (!digest(text).equals(source.sha256())) {
            throw new IllegalArgumentException("--simulation %s has changed since the sweep began (SHA-256 %s then); give it as it was, "
                    .formatted(file, source.sha256()) + "or begin another sweep (another --name)");
        }
        String name = file.getFileName().toString();
        Matcher pkg = PACKAGE.matcher(text);
        String simple = name.substring(0, name.lastIndexOf('.'));
        String className = pkg.find() ? pkg.group(1) + "." + simple : simple;
        Path classes;
        try {
            classes = Files.createTempDirectory("simulation-");
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String errors = name.endsWith(".scala") ? scalac(file, classpath, classes)
                : name.endsWith(".kt") ? kotlinc(file, classpath, classes) : javac(file, classpath, classes);
        if (errors != null) {
            remove(classes);
            throw new IllegalArgumentException("--simulation %s does not compile against the lab's Gatling:%n%s".formatted(file, errors));
        }
        if (!Files.isRegularFile(classes.resolve(className.replace('.', '/') + ".class"))) {
            remove(classes);
            throw new IllegalArgumentException("--simulation %s: it holds no class %s; a file holds one simulation, named as the file"
                    .formatted(file, className));
        }
        return new OwnSimulation(source, className, classes);
    }

    /** Every absolute URL the source names, checked as --url is: this machine, unless the host is the user's. */
    static void checkHosts(Path file, String text, boolean hostIsMine) {
        Matcher url = URL.matcher(text);
        while (url.find()) {
            try {
                ServiceRun.Service.of(null, url.group(1).replaceFirst("^https", "http"), hostIsMine);
            }
            catch (IllegalArgumentException e) {
                int line = (int) text.substring(0, url.start()).lines().count();
                throw new IllegalArgumentException("--simulation %s, line %d: %s".formatted(file, Math.max(1, line),
                        e.getMessage().replaceFirst("^--url ", "")), e);
            }
        }
    }

    /**
     * What the Scala compiler said (the Scala of the lab's Gatling, in this JVM), or null when it compiled: its errors
     * in its own words, the first 40 lines.
     */
    private static String scalac(Path file, String classpath, Path classes) {
        java.io.ByteArrayOutputStream said = new java.io.ByteArrayOutputStream();
        String[] args = {"-classpath", classpath, "-d", classes.toString(), "-nowarn", file.toString()};
        Object ok = scala.Console.withErr(said, () -> scala.tools.nsc.Main.process(args));
        if (Boolean.TRUE.equals(ok)) {
            return null;
        }
        return said.toString(StandardCharsets.UTF_8).lines().limit(40).map(l -> "  " + l).collect(java.util.stream.Collectors.joining(System.lineSeparator()));
    }

    /** What Kotlin's compiler said (in this JVM, for Java 21 bytecode), or null when it compiled: its errors, the first 40 lines. */
    private static String kotlinc(Path file, String classpath, Path classes) {
        java.io.ByteArrayOutputStream said = new java.io.ByteArrayOutputStream();
        java.io.PrintStream err = new java.io.PrintStream(said, true, StandardCharsets.UTF_8);
        org.jetbrains.kotlin.cli.common.ExitCode code = new org.jetbrains.kotlin.cli.jvm.K2JVMCompiler().exec(err, "-classpath",
                classpath + java.io.File.pathSeparator + kotlinStdlib(), "-d", classes.toString(), "-jvm-target", "21", "-no-stdlib", "-no-reflect",
                // its fast jar reader calls sun.misc.Unsafe, which JDK 24+ warns of on the console
                "-Xuse-fast-jar-file-system=false", "-nowarn", file.toString());
        if (code == org.jetbrains.kotlin.cli.common.ExitCode.OK) {
            return null;
        }
        return said.toString(StandardCharsets.UTF_8).lines().filter(l -> !l.startsWith("warning:")).limit(40).map(l -> "  " + l)
                .collect(java.util.stream.Collectors.joining(System.lineSeparator()));
    }

    /** What the compiler said of its errors (the first ten), or null when it compiled. */
    private static String javac(Path file, String classpath, Path classes) {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) {
            throw new IllegalStateException("--simulation: this Java (" + System.getProperty("java.home") + ") has no compiler; the lab needs a JDK");
        }
        DiagnosticCollector<JavaFileObject> said = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = compiler.getStandardFileManager(said, Locale.ROOT, StandardCharsets.UTF_8)) {
            List<String> options = List.of("-classpath", classpath, "-d", classes.toString(), "-proc:none", "-nowarn", "-encoding", "UTF-8");
            boolean ok = compiler.getTask(new StringWriter(), files, said, options, null, files.getJavaFileObjects(file)).call();
            if (ok) {
                return null;
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> lines = new ArrayList<>();
        said.getDiagnostics().stream().filter(d -> d.getKind() == Diagnostic.Kind.ERROR).limit(10)
                .forEach(d -> lines.add("  line %d: %s".formatted(d.getLineNumber(), d.getMessage(Locale.ROOT))));
        return String.join(System.lineSeparator(), lines);
    }

    private static void remove(Path classes) {
        try {
            Folders.deleteTree(classes);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The SHA-256 of text's UTF-8 bytes, in hex: a simulation's source as a sweep keeps it, and a history's load settings. */
    public static String digest(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Its classes removed: they hold its source's strings (a token written in it, say). */
    @Override
    public void close() {
        remove(classes);
    }
}
