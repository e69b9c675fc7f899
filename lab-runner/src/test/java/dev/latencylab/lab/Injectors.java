package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;

/** Result files of a split run for tests of the merge step: a real run's file, relabelled as one injector's part. */
public final class Injectors {

    private Injectors() {
    }

    /** The run as injector i of k, same start and settings, as each injector of one split run records them. */
    public static Result asInjector(Result r, int k, int i) {
        Result.Parameters q = r.parameters().withSplit(new Result.Split(k, i, null));
        return new Result(r.schema(), r.simulation(), r.target(), q, r.start(), r.end(), r.durationSeconds(), r.requests(), r.throughput(), r.plateau(),
                r.responseTimeMs(), r.histogram(), r.injector(), r.server(), r.model(), r.open(), r.timeline(), r.problems(), null, r.jvm(), r.byRequest());
    }

    /** A published run written as both parts of one split run, run/injector-0 and run/injector-1; returns that run. */
    public static Result writeTwoParts(Path run) {
        Result published = ResultFile.read(Lab.repo().resolve("docs/results/points/webflux-l100-u1000-r1/result.json"));
        for (int i = 0; i < 2; i++) {
            ResultFile.write(asInjector(published, 2, i), run.resolve("injector-" + i).resolve(ResultFile.NAME));
        }
        return published;
    }

    /** A merge step's own command (compose's or Kubernetes'), run from the repository with its environment: it must end well. */
    public static void runMergeStep(List<String> command, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(Lab.repo().toFile()).redirectErrorStream(true);
        builder.environment().putAll(env);
        Process p = builder.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
    }
}
