package dev.latencylab.lab;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpServer;

import dev.latencylab.load.launch.AotCache;
import dev.latencylab.load.launch.LaunchFile;

/**
 * Build time (package phase, after target/lab-launch.txt is written): on JDK 25 or newer, trains an AOT cache for the
 * runner's own JVM, the one every {@code ./lab} command starts, and makes the launch file use it. The training is a
 * small {@code ./lab run --url} of a stand-in server on loopback in this JVM (the runner's start, its options, the
 * Gatling process, the result read and its page written). Measured here: a small run's runner took 2.3 to 2.6 CPU-s with
 * the cache, 2.8 to 3.5 without. The launch file then names lab-runner's jar instead of its classes folder (a cache
 * reads classes from jars only). On an older JDK, with -Dlatency-lab.aot=false, or when the training fails (a warning
 * says why), the launch file stays as LaunchFile wrote it.
 */
public final class LabTraining {

    private LabTraining() {
    }

    /** @param args the launch file, lab-runner's jar, whether to use an AOT cache, and the repository's root */
    public static void main(String[] args) throws Exception {
        Path launchFile = Path.of(args[0]);
        Path jar = Path.of(args[1]).toAbsolutePath();
        Path repo = Path.of(args[3]).toAbsolutePath().normalize();
        Optional<String> without = AotCache.unavailable(Boolean.parseBoolean(args[2]));
        if (without.isPresent()) {
            System.out.println("[INFO] ./lab's JVM starts without an AOT cache (" + without.get() + ")");
            return;
        }
        LaunchFile.Launch launch = LaunchFile.read(launchFile);
        Path target = jar.getParent();
        LaunchFile.Launch jars = new LaunchFile.Launch(launch.java(), AotCache.jarsFor(launch.classpath(), Map.of(target.resolve("classes"), jar)),
                launch.jvmOptions());
        Path folder = target.resolve("aot");
        ExecutorService threads = Executors.newFixedThreadPool(8);
        HttpServer server = AotCache.standIn(threads);
        Optional<AotCache.Trained> cache;
        try {
            String url = "http://127.0.0.1:%d/".formatted(server.getAddress().getPort());
            cache = AotCache.trained(jars, folder, "lab.aot", List.of("-Dlatency-lab.repo=" + repo, "-Dlatency-lab.terminal=false",
                    "dev.latencylab.lab.cli.LatencyLab", "run", "--url", url, "--users", "10", "--requests-per-user", "20", "--ramp-seconds", "1",
                    "--think-min-ms", "10", "--think-max-ms", "20", "--warmup-seconds", "1", "--no-gatling-report", "--results",
                    folder.resolve("runs").toString()));
        }
        finally {
            server.stop(0);
            threads.shutdownNow();
        }
        if (cache.isEmpty()) {
            System.out.println("[WARNING] no AOT cache for ./lab's JVM (see " + folder.resolve("training.log") + "); it starts without one");
            return;
        }
        LaunchFile.write(launchFile, cache.get().launch(jars));
        System.out.println("[INFO] ./lab's JVM starts with an AOT cache " + (cache.get().upToDate() ? "(up to date): "
                : "trained on a small run: ") + cache.get().file());
    }
}
