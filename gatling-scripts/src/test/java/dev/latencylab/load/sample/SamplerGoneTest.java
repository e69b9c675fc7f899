package dev.latencylab.load.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * A live target is never taken for gone, even by a sampler whose JVM has no descriptor left (a load at its open-files
 * limit): a real JVM with a low limit fills its descriptors, then asks about this test's own, living, JVM. A process
 * that ended is gone.
 */
class SamplerGoneTest {

    @Test
    void aLiveProcessIsNotGoneWhenTheAskerHasNoDescriptorLeft() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // the class's name holds a '$': given to bash as an argument, not in its script
        Process child = new ProcessBuilder("bash", "-c", "ulimit -n 64 && exec \"$0\" -cp \"$1\" \"$2\" \"$3\"", java,
                System.getProperty("java.class.path"), Exhausted.class.getName(), String.valueOf(ProcessHandle.current().pid()))
                .redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        // the JDK's own answer with no descriptor left: the live process looks gone (what failed a run at 20,000 users)
        assertThat(out).as(out).contains("before: ProcessHandle sees it: true, gone: false").contains("descriptors exhausted")
                .contains("\nProcessHandle sees it: false").contains("\ngone: false");
    }

    @Test
    void aProcessThatEndedIsGone() throws Exception {
        Process p = new ProcessBuilder("true").start();
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(Sampler.gone(p.pid())).isTrue();
        assertThat(Sampler.gone(ProcessHandle.current().pid())).isFalse();
    }

    /** Opens files until none is left, then asks whether the process given is gone. */
    public static final class Exhausted {
        public static void main(String[] args) throws IOException {
            long pid = Long.parseLong(args[0]);
            // every class the question needs, loaded while files can still be opened
            System.out.println("before: ProcessHandle sees it: " + ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)
                    + ", gone: " + Sampler.gone(pid));
            List<InputStream> held = new ArrayList<>();
            try {
                while (held.size() < 10_000) {
                    held.add(Files.newInputStream(Path.of("/dev/null")));
                }
                System.out.println("never exhausted");
            }
            catch (IOException e) {
                System.out.println("descriptors exhausted after " + held.size() + ": " + e.getMessage());
            }
            System.out.println("ProcessHandle sees it: " + ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
            System.out.println("gone: " + Sampler.gone(pid));
        }
    }
}
