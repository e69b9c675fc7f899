package dev.latencylab.lab.run;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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

    public record Sent(long ok, long failed) {
    }

    private Warmup() {
    }

    public static Sent run(String url, Duration duration, int concurrency) {
        return run(List.of(url), duration, concurrency);
    }

    /** The same on several URLs, each in turn (a mix's GET requests: a warm-up changes nothing on the server). */
    public static Sent run(List<String> urls, Duration duration, int concurrency) {
        AtomicLong ok = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        if (duration.isZero() || urls.isEmpty()) {
            return new Sent(0, 0);
        }
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        List<HttpRequest> requests = urls.stream().map(url -> HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build()).toList();
        AtomicLong sent = new AtomicLong();
        long deadline = System.nanoTime() + duration.toNanos();
        try (ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < concurrency; i++) {
                workers.submit(() -> {
                    while (System.nanoTime() < deadline) {
                        try {
                            HttpRequest request = requests.get((int) (sent.getAndIncrement() % requests.size()));
                            int status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
                            (status == 200 ? ok : failed).incrementAndGet();
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
        return new Sent(ok.get(), failed.get());
    }
}
