package dev.latencylab.lab.compose;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What podman's systemd timers do where systemd runs: every 2 s, each container of the project whose health is still
 * starting runs its own healthcheck (compose's `healthcheck:` test, in the container). Without it, a container stays
 * "starting" and compose waits forever on `condition: service_healthy`.
 */
final class HealthChecks implements AutoCloseable {

    private final Podman podman;
    private final String project;
    private final Thread driver;
    private volatile boolean running = true;

    HealthChecks(Podman podman, String project) {
        this.podman = podman;
        this.project = project;
        this.driver = Thread.ofPlatform().daemon().name("healthchecks").start(this::drive);
    }

    private void drive() {
        while (running) {
            try {
                for (String id : quiet("ps", "-q", "--filter", "label=com.docker.compose.project=" + project, "--filter", "health=starting")) {
                    quiet("healthcheck", "run", id);
                }
                Thread.sleep(2000);
            }
            catch (InterruptedException e) {
                return;
            }
            catch (IOException e) {
                // podman busy or a container gone between the two calls: the next round asks again
            }
        }
    }

    /** A podman command whose output is only read, not kept (it runs every 2 s). */
    private List<String> quiet(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("podman"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(podman.environment());
        Process p = builder.start();
        List<String> lines = new String(p.getInputStream().readAllBytes()).lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        return lines;
    }

    /** Waits (at most 3 minutes) until every service's container of the project reports healthy. */
    void awaitHealthy(List<String> services) throws IOException, InterruptedException {
        Map<String, String> status = new LinkedHashMap<>();
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        do {
            for (String service : services) {
                List<String> health = quiet("ps", "-a", "--filter", "label=com.docker.compose.project=" + project, "--filter",
                        "label=com.docker.compose.service=" + service, "--format", "{{.Status}}");
                status.put(service, String.join("; ", health));
            }
            if (status.values().stream().allMatch(s -> s.endsWith("(healthy)"))) {
                return;
            }
            Thread.sleep(1000);
        }
        while (System.nanoTime() < deadline);
        assertThat(status).as("every service healthy within 3 minutes").allSatisfy((service, s) -> assertThat(s).endsWith("(healthy)"));
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        driver.interrupt();
        driver.join(Duration.ofSeconds(70));
    }
}
