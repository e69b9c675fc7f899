package dev.latencylab.load.metrics;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntPredicate;

/**
 * The answer to a request the lab sends itself (a check before a run, a metrics scrape, a warm-up), whole within a
 * deadline and at most MAX_BODY_BYTES of its body kept. A request's own timeout covers its headers only: a body that
 * never ends (chunked, no last chunk) or floods would hold the run for ever; here it ends at the deadline or the cap.
 *
 * @param status    the HTTP status
 * @param body      the body as text (empty when it was not read), its first MAX_BODY_BYTES at most
 * @param truncated whether the body went on past the cap
 */
public record BoundedAnswer(int status, String body, boolean truncated) {

    /** The most of a body kept: a Prometheus page of a large service is a few MB. */
    public static final int MAX_BODY_BYTES = 8 << 20;

    /** Reads bodies apart from the caller, so that the deadline holds while a body is still coming. */
    private static final Executor READERS = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("latency-lab-answer-", 0).factory());

    /** The answer with its body. */
    public static BoundedAnswer get(HttpClient http, HttpRequest request, Duration deadline) throws IOException, InterruptedException {
        return get(http, request, deadline, status -> true);
    }

    /** The status alone: the body is not read (a check that the server answers, a warm-up). */
    public static int status(HttpClient http, HttpRequest request, Duration deadline) throws IOException, InterruptedException {
        return get(http, request, deadline, status -> false).status();
    }

    /**
     * The answer, its body read only where readBody says for its status (e.g. only a failure's, to say why).
     *
     * @throws HttpTimeoutException when the headers, or the body read, did not all come within the deadline
     */
    public static BoundedAnswer get(HttpClient http, HttpRequest request, Duration deadline, IntPredicate readBody)
            throws IOException, InterruptedException {
        long until = System.nanoTime() + deadline.toNanos();
        CompletableFuture<HttpResponse<InputStream>> sent = http.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream());
        HttpResponse<InputStream> response = within(sent, until, request, deadline);
        if (!readBody.test(response.statusCode())) {
            response.body().close();
            return new BoundedAnswer(response.statusCode(), "", false);
        }
        CompletableFuture<BoundedAnswer> read = CompletableFuture.supplyAsync(() -> read(response), READERS);
        try {
            return within(read, until, request, deadline);
        }
        finally {
            response.body().close(); // a body still coming ends here
        }
    }

    private static <T> T within(CompletableFuture<T> future, long until, HttpRequest request, Duration deadline)
            throws IOException, InterruptedException {
        try {
            return future.get(Math.max(0, until - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
        catch (TimeoutException e) {
            future.cancel(true);
            throw new HttpTimeoutException("%s %s: no whole answer within %d s".formatted(request.method(), request.uri(), deadline.toSeconds()));
        }
        catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof UncheckedIOException u ? u.getCause() : e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            throw new IOException(cause);
        }
    }

    private static BoundedAnswer read(HttpResponse<InputStream> response) {
        ByteArrayOutputStream kept = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try (InputStream in = response.body()) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                if (kept.size() + n > MAX_BODY_BYTES) {
                    kept.write(buffer, 0, MAX_BODY_BYTES - kept.size());
                    return new BoundedAnswer(response.statusCode(), kept.toString(StandardCharsets.UTF_8), true);
                }
                kept.write(buffer, 0, n);
            }
            return new BoundedAnswer(response.statusCode(), kept.toString(StandardCharsets.UTF_8), false);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
