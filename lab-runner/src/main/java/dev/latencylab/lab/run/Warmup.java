package dev.latencylab.lab.run;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;

import dev.latencylab.load.metrics.BoundedAnswer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Warms a fresh target up before its measured run (JIT, pools, caches), with a steady light load of a few dozen
 * concurrent requests on the path under test. Nothing of it enters the results.
 */
public final class Warmup {

    /**
     * What the warm-up sent; refusedBy: the first answer that refused the request as sent (a 3xx or 4xx), which ended
     * it at once (null: none). A 5xx is a server under load, and counts as failed.
     */
    public record Sent(long ok, long failed, String refusedBy) {
    }

    /** How long past the warm-up's end its last requests may take to answer. */
    private static final Duration ANSWER_GRACE = Duration.ofSeconds(5);

    private Warmup() {
    }

    public static Sent run(String url, Duration duration, int concurrency) {
        return run(List.of(url), java.util.Map.of(), duration, concurrency);
    }

    /**
     * The same on several URLs, each in turn (a mix's GET requests: a warm-up changes nothing on the server), with the
     * headers the run's requests carry.
     */
    public static Sent run(List<String> urls, java.util.Map<String, String> headers, Duration duration, int concurrency) {
        AtomicLong ok = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        if (duration.isZero() || urls.isEmpty()) {
            return new Sent(0, 0, null);
        }
        HttpClient http = dev.latencylab.load.tls.TlsTrust.ofThisJvm().httpClient(Duration.ofSeconds(5));
        List<HttpRequest> requests = urls.stream().map(url -> {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30));
            headers.forEach(request::header);
            return request.build();
        }).toList();
        AtomicLong sent = new AtomicLong();
        java.util.concurrent.atomic.AtomicReference<String> refused = new java.util.concurrent.atomic.AtomicReference<>();
        long deadline = System.nanoTime() + duration.toNanos();
        try (ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < concurrency; i++) {
                workers.submit(() -> {
                    while (System.nanoTime() < deadline && refused.get() == null) {
                        try {
                            HttpRequest request = requests.get((int) (sent.getAndIncrement() % requests.size()));
                            // a whole answer by the warm-up's end (and a moment): a body that never ends does not hold it
                            int status = BoundedAnswer.status(http, request, Duration.ofNanos(Math.max(0, deadline - System.nanoTime()))
                                    .plus(ANSWER_GRACE));
                            if (status >= 300 && status <= 499) {
                                // a service that refuses or redirects the request is not warmed by a thousand such
                                // answers: the run's check says why
                                refused.compareAndSet(null, "GET %s answered HTTP %d".formatted(request.uri(), status));
                            }
                            (status >= 200 && status <= 299 ? ok : failed).incrementAndGet();
                        }
                        catch (Exception e) {
                            failed.incrementAndGet();
                            if (e instanceof InterruptedException) {
                                return;
                            }
                        }
                    }
                });
            }
        }
        return new Sent(ok.get(), failed.get(), refused.get());
    }
}
