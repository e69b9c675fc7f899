package dev.latencylab.lab.live;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import dev.latencylab.load.live.LiveSample;

/**
 * The run's latest second as Prometheus metrics, through Micrometer's Prometheus registry: users, responses OK and KO
 * so far, completions and p50/p95/p99 of the last second, CPU of the server, the machine and the injector, the loaded
 * path's pool, the server's threads busy, and the model's bound and pool size (T) where the run has them; each labelled with the target and the point, so that a
 * Prometheus scraping several runs tells them apart. A figure not read yet is NaN, as Prometheus has it.
 */
final class LiveMetrics {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final AtomicReference<LiveSample> latest = new AtomicReference<>();

    LiveMetrics(LiveView.Watched run) {
        Tags tags = Tags.of("target", run.target(), "point", run.point());
        gauge("latency.lab.active.users", tags, s -> (double) s.users());
        FunctionCounter.builder("latency.lab.responses.ok", latest, l -> l.get() == null ? 0 : l.get().ok()).tags(tags).register(registry);
        FunctionCounter.builder("latency.lab.responses.ko", latest, l -> l.get() == null ? 0 : l.get().ko()).tags(tags).register(registry);
        gauge("latency.lab.completed.last.second", tags, s -> (double) s.completed());
        for (String[] q : new String[][] {{"0.5", "p50"}, {"0.95", "p95"}, {"0.99", "p99"}}) {
            gauge("latency.lab.response.time.last.second.ms", tags.and("quantile", q[0]), s -> ms(q[1].equals("p50") ? s.p50Ms()
                    : q[1].equals("p95") ? s.p95Ms() : s.p99Ms()));
        }
        gauge("latency.lab.cpu.share", tags.and("process", "server"), LiveSample::serverCpu);
        gauge("latency.lab.cpu.share", tags.and("process", "machine"), LiveSample::machineCpu);
        gauge("latency.lab.cpu.share", tags.and("process", "injector"), LiveSample::injectorCpu);
        gauge("latency.lab.pool.in.use", tags, LiveSample::poolInUse);
        gauge("latency.lab.pool.waiting", tags, LiveSample::poolWaiting);
        gauge("latency.lab.threads.busy", tags, LiveSample::threadsBusy);
        if (run.modelBoundPerSecond() != null) {
            Gauge.builder("latency.lab.model.bound.per.second", run::modelBoundPerSecond).tags(tags).register(registry);
        }
        if (run.poolSize() != null) {
            Gauge.builder("latency.lab.model.pool.size", run::poolSize).tags(tags).register(registry);
        }
    }

    private void gauge(String name, Tags tags, Function<LiveSample, Double> value) {
        Gauge.builder(name, latest, l -> {
            LiveSample s = l.get();
            Double v = s == null ? null : value.apply(s);
            return v == null ? Double.NaN : v;
        }).tags(tags).register(registry);
    }

    private static Double ms(Long ms) {
        return ms == null ? null : ms.doubleValue();
    }

    void update(LiveSample s) {
        latest.set(s);
    }

    /** The metrics in Prometheus' text format. */
    String scrape() {
        return registry.scrape();
    }
}
