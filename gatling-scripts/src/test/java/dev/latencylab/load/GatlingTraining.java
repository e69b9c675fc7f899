package dev.latencylab.load;

import dev.latencylab.load.launch.AotCache;
import dev.latencylab.load.launch.LaunchFile;
import dev.latencylab.load.settings.SimulationSettings;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpServer;

/**
 * Build time (package phase, after target/gatling-launch.txt is written): on JDK 25 or newer, trains an AOT cache for
 * the simulation's JVM (JEP 483, in one step as JEP 514 allows) and makes the launch file use it. The training runs
 * LoadSimulation itself, a few hundred requests, against a stand-in server on loopback in the same JVM, so that the
 * classes Gatling, Netty and the simulation load and link, and the profiles of their start, are in the cache. Measured
 * here: a one-request Gatling run took 1.5-1.7 s and 2.0-2.4 s of CPU with the cache, 3.0-4.0 s and 4.6-5.6 s without.
 * An AOT cache reads classes from jars only: the launch file then names the module's jar and tests jar instead of its
 * classes folders. Trained again only when those jars' bytes change; on an older JDK, with -Dlatency-lab.aot=false, or
 * when the training fails (a warning says why), the launch file stays as LaunchFile wrote it.
 */
public final class GatlingTraining {

    private static final String RUN = "--run";

    private GatlingTraining() {
    }

    /** @param args the launch file, the module's jar, its tests jar, whether to use an AOT cache; or --run and a folder */
    public static void main(String[] args) throws Exception {
        if (args[0].equals(RUN)) {
            train(Path.of(args[1]));
            return;
        }
        Path launchFile = Path.of(args[0]);
        Path jar = Path.of(args[1]).toAbsolutePath();
        Path testsJar = Path.of(args[2]).toAbsolutePath();
        Optional<String> without = AotCache.unavailable(Boolean.parseBoolean(args[3]));
        if (without.isPresent()) {
            System.out.println("[INFO] Gatling's JVM starts without an AOT cache (" + without.get() + ")");
            return;
        }
        LaunchFile.Launch launch = LaunchFile.read(launchFile);
        Path target = jar.getParent();
        String classpath = AotCache.jarsFor(launch.classpath(), Map.of(target.resolve("classes"), jar, target.resolve("test-classes"), testsJar));
        Path folder = target.resolve("aot");
        LaunchFile.Launch jars = new LaunchFile.Launch(launch.java(), classpath, launch.jvmOptions());
        Optional<AotCache.Trained> cache = AotCache.trained(jars, folder, "gatling.aot", List.of(GatlingTraining.class.getName(), RUN,
                folder.toString()));
        if (cache.isEmpty()) {
            System.out.println("[WARNING] no AOT cache for Gatling's JVM (see " + folder.resolve("training.log") + "); it starts without"
                    + " one, about 1.5 s slower");
            return;
        }
        LaunchFile.write(launchFile, cache.get().launch(jars));
        System.out.println("[INFO] Gatling's JVM starts with an AOT cache " + (cache.get().upToDate() ? "(up to date): "
                : "trained on a run of the simulation: ") + cache.get().file());
    }

    /** In the training JVM: the simulation, a few hundred requests, against a stand-in server in this JVM. */
    private static void train(Path folder) throws Exception {
        HttpServer server = AotCache.standIn(Executors.newFixedThreadPool(8));
        System.setProperty(SimulationSettings.BASE_URL, "http://127.0.0.1:" + server.getAddress().getPort());
        System.setProperty(SimulationSettings.SAMPLE_SERVER, "false");
        System.setProperty(SimulationSettings.USERS, "20");
        System.setProperty(SimulationSettings.REPEAT, "20");
        System.setProperty(SimulationSettings.RAMP_SECONDS, "1");
        System.setProperty(SimulationSettings.THINK_MIN_MS, "10");
        System.setProperty(SimulationSettings.THINK_MAX_MS, "20");
        System.setProperty(SimulationSettings.RESULT_FILE, folder.resolve("result.json").toString());
        io.gatling.app.Gatling.main(new String[] {"--simulation", "dev.latencylab.load.LoadSimulation", "--results-folder",
                folder.resolve("gatling-results").toString(), "--no-reports"});
        server.stop(0);
        System.exit(0);
    }
}
