package dev.latencylab.lab.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.latencylab.lab.Lab;
import dev.latencylab.load.result.Json;

/**
 * ./lab history's change points are Apache Otava's: on synthetic series with known steps and with none (noise of a
 * run's spread, steps of a regression's size, longer than Otava's window, constant, short), Otava 0.8 itself, run by
 * tools/otava_change_points.py, and {@link ChangePoints} find the same points with the same p-values and means; and
 * the steps made are the ones found, where there are none nothing is.
 */
class OtavaAgreementTest {

    /** The series, each seeded: noise of sd 3 around 100 (a run's goodput spread, in %), steps where named. */
    private static Map<String, double[]> series() {
        Map<String, double[]> series = new LinkedHashMap<>();
        series.put("none", noisy(1, 40, Map.of()));
        series.put("none-long", noisy(2, 120, Map.of()));
        series.put("step-at-20", noisy(3, 40, Map.of(20, 115.0)));
        series.put("drop-at-12", noisy(4, 16, Map.of(12, 80.0)));
        series.put("steps-at-30-and-75", noisy(5, 120, Map.of(30, 120.0, 75, 95.0)));
        series.put("small-step-at-20", noisy(6, 40, Map.of(20, 102.0)));
        series.put("last-3-worse", noisy(7, 25, Map.of(22, 70.0)));
        series.put("constant", new double[30]);
        series.put("short", new double[] {100, 101, 99, 130, 131});
        return series;
    }

    private static double[] noisy(long seed, int length, Map<Integer, Double> steps) {
        Random random = new Random(seed);
        double[] values = new double[length];
        double level = 100;
        for (int i = 0; i < length; i++) {
            level = steps.getOrDefault(i, level);
            values[i] = Math.round((level + 3 * random.nextGaussian()) * 1000) / 1000.0;
        }
        return values;
    }

    @Test
    void theChangePointsAreOtavasAndTheStepsMade() throws Exception {
        Map<String, double[]> series = series();
        JsonNode otava = otava(series, ChangePoints.OTAVA);
        for (Map.Entry<String, double[]> s : series.entrySet()) {
            List<ChangePoints.Change> ours = ChangePoints.OTAVA.of(s.getValue());
            JsonNode theirs = otava.path(s.getKey());
            assertThat(ours).as("%s: as many points as Otava's %s", s.getKey(), theirs).hasSize(theirs.size());
            for (int i = 0; i < ours.size(); i++) {
                JsonNode t = theirs.get(i);
                ChangePoints.Change c = ours.get(i);
                assertThat(c.index()).as(s.getKey()).isEqualTo(t.path("index").asInt());
                assertThat(c.pValue()).as(s.getKey()).isCloseTo(t.path("pvalue").asDouble(), within(1e-9 + 1e-6 * t.path("pvalue").asDouble()));
                assertThat(c.meanBefore()).as(s.getKey()).isCloseTo(t.path("mean_before").asDouble(), within(1e-9));
                assertThat(c.meanAfter()).as(s.getKey()).isCloseTo(t.path("mean_after").asDouble(), within(1e-9));
            }
        }
        assertThat(indices(series.get("none"))).isEmpty();
        assertThat(indices(series.get("none-long"))).isEmpty();
        assertThat(indices(series.get("step-at-20"))).containsExactly(20);
        assertThat(indices(series.get("drop-at-12"))).containsExactly(12);
        assertThat(indices(series.get("steps-at-30-and-75"))).containsExactly(30, 75);
        assertThat(indices(series.get("last-3-worse"))).containsExactly(22);
        assertThat(indices(series.get("constant"))).isEmpty();
    }

    /** Otava's stricter p-value and a least magnitude: the same answers with other options too. */
    @Test
    void otherOptionsAgreeToo() throws Exception {
        Map<String, double[]> series = series();
        ChangePoints strict = new ChangePoints(20, 0.0001, 0.1);
        JsonNode otava = otava(series, strict);
        for (Map.Entry<String, double[]> s : series.entrySet()) {
            assertThat(strict.of(s.getValue()).stream().map(ChangePoints.Change::index).toList()).as(s.getKey())
                    .isEqualTo(otava.path(s.getKey()).valueStream().map(p -> p.path("index").asInt()).toList());
        }
        assertThat(strict.of(series.get("small-step-at-20"))).as("2% is less than the least magnitude of 10%").isEmpty();
    }

    private static List<Integer> indices(double[] series) {
        return ChangePoints.OTAVA.of(series).stream().map(ChangePoints.Change::index).toList();
    }

    private static JsonNode otava(Map<String, double[]> series, ChangePoints options) throws IOException, InterruptedException {
        Map<String, Object> input = Map.of("options", Map.of("window_len", options.windowLength(), "max_pvalue", options.maxPValue(),
                "min_magnitude", options.minMagnitude()), "series", series);
        Process python = new ProcessBuilder("python3", Lab.repo().resolve("tools/otava_change_points.py").toString()).start();
        python.getOutputStream().write(Json.LINE.writeValueAsString(input).getBytes(StandardCharsets.UTF_8));
        python.getOutputStream().close();
        String out = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(python.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(python.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(python.exitValue()).as("Otava's answer (pip install apache-otava==0.8.0; .ci/run does): %s", err).isZero();
        return Json.MAPPER.readTree(out);
    }
}
