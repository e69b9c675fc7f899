package dev.latencylab.load.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real cache trained by this JDK's java on a program in a jar of a module's target/: made, kept, made again, refused. */
class AotCacheTest {

    @TempDir
    Path tmp;

    @Test
    void aCacheIsTrainedOnceThenKeptUntilTheJarChangesAndAFailedTrainingLeavesNone() throws Exception {
        assumeTrue(Runtime.version().feature() >= 25, "an AOT cache needs JDK 25+");
        Path target = Files.createDirectories(tmp.resolve("module/target"));
        Path jar = target.resolve("module.jar");
        jar(jar, "public class Hello { public static void main(String[] a) { System.exit(a.length == 0 ? 0 : 3); } }");
        LaunchFile.Launch launch = new LaunchFile.Launch(LaunchFile.javaExecutable(), jar.toString(), List.of("-Xmx64m"));
        Path folder = target.resolve("aot");

        Optional<AotCache.Trained> first = AotCache.trained(launch, folder, "hello.aot", List.of("Hello"));
        assertThat(first).hasValueSatisfying(c -> assertThat(c.upToDate()).isFalse());
        assertThat(first.get().file()).isRegularFile().isEqualTo(folder.resolve("hello.aot"));
        assertThat(AotCache.trained(launch, folder, "hello.aot", List.of("Hello"))).hasValueSatisfying(c -> assertThat(c.upToDate()).isTrue());
        LaunchFile.Launch cached = first.get().launch(launch);
        assertThat(cached).isEqualTo(new LaunchFile.Launch(launch.java(), launch.classpath(), List.of("-Xmx64m", "-XX:AOTCache=" + first.get().file())));
        Process hello = new ProcessBuilder(cached.java(), cached.jvmOptions().get(0), cached.jvmOptions().get(1), "-Xlog:class+load", "-cp",
                cached.classpath(), "Hello").redirectErrorStream(true).start();
        assertThat(new String(hello.getInputStream().readAllBytes())).as("its class read from the cache").contains("Hello source: shared objects file");
        assertThat(hello.waitFor()).isZero();

        // the same bytes written again, as a build that packages again does: ./lab's JVM refused its cache then ("[warning][aot]
        // This file is not the one used while building the shared archive file: '.../load-contract-0.1.0-SNAPSHOT.jar',
        // timestamp has changed", then three "[error][aot]" lines on every start), so the cache is trained again
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 10_000));
        assertThat(AotCache.trained(launch, folder, "hello.aot", List.of("Hello"))).as("the jar written again")
                .hasValueSatisfying(c -> assertThat(c.upToDate()).isFalse());

        jar(jar, "public class Hello { public static void main(String[] a) { System.out.println(a.length); } }");
        assertThat(AotCache.trained(launch, folder, "hello.aot", List.of("Hello"))).as("the jar's bytes changed")
                .hasValueSatisfying(c -> assertThat(c.upToDate()).isFalse());

        jar(jar, "public class Hello { public static void main(String[] a) { System.exit(3); } }");
        assertThat(AotCache.trained(launch, folder, "hello.aot", List.of("Hello"))).as("the training exited 3").isEmpty();
        assertThat(folder.resolve("hello.aot")).doesNotExist();
        assertThat(folder.resolve("training.log")).content().contains("-XX:AOTCacheOutput=" + folder.resolve("hello.aot"), "Hello");
    }

    @Test
    void aClasspathNamesTheJarsInsteadOfTheirClassFolders() {
        Path classes = tmp.resolve("m/target/classes").toAbsolutePath();
        Path jar = tmp.resolve("m/target/m.jar").toAbsolutePath();
        String classpath = String.join(File.pathSeparator, classes.toString(), "/repo/a.jar", tmp.resolve("other/classes").toString());
        assertThat(AotCache.jarsFor(classpath, Map.of(classes, jar)))
                .isEqualTo(String.join(File.pathSeparator, jar.toString(), "/repo/a.jar", tmp.resolve("other/classes").toString()));
    }

    @Test
    void noCacheIsMadeWhenTheBuildSaysSoOrOnAJdkBefore25() {
        assertThat(AotCache.unavailable(false)).contains("latency-lab.aot=false");
        int jdk = Runtime.version().feature();
        assertThat(AotCache.unavailable(true)).isEqualTo(jdk >= 25 ? Optional.empty() : Optional.of("it needs JDK 25+; this is " + jdk));
    }

    /** A jar of one class, Hello, compiled from this source. */
    private void jar(Path jar, String source) throws IOException {
        Path src = Files.createDirectories(tmp.resolve("src")).resolve("Hello.java");
        Files.writeString(src, source);
        Path out = Files.createDirectories(tmp.resolve("out"));
        assertThat(ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", out.toString(), src.toString())).isZero();
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(file)) {
            j.putNextEntry(new JarEntry("Hello.class"));
            j.write(Files.readAllBytes(out.resolve("Hello.class")));
            j.closeEntry();
        }
    }
}
