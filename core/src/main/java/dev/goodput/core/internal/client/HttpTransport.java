package dev.goodput.core.internal.client;

import dev.goodput.core.ApiKind;
import dev.goodput.core.NanoClock;
import dev.goodput.core.ServerEndpoint;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Flow;

/**
 * Sends streaming completion requests with {@code java.net.http} over HTTP/1.1 (what the serving engines speak;
 * it also avoids an h2c upgrade attempt that some servers reject).
 *
 * <p>The response body is consumed as it arrives: the clock is read once per delivered batch of buffers (one
 * network read, or a few that the client coalesced), and every event completed by those bytes gets that
 * reading, as the metric definitions require.
 *
 * <p>The JDK client runs its work on the thread that made it due ({@code executor(Runnable::run)}): reads are
 * parsed and stamped on the client's selector thread as they come off the socket, and a request is handed to its
 * connection on the thread that sends it. With a thread pool (the JDK's default) every read crossed to a pool
 * thread before it was stamped, which cost more CPU than the parsing and about 12,000 context switches a second
 * at 10,000 tokens/s. One selector thread alone, though, stamped late at p99 whenever it had a backlog, so there
 * is one client per core ({@link #SELECTOR_THREADS}), requests spread over them by index; docs/performance.md has
 * the measurements. Nothing the transport calls back blocks: the attempts parse under their own monitors and the
 * load driver only schedules.
 *
 * <p>The request's send stamp is taken when the client takes its body to write ({@link WrittenBody}), after the
 * connection is ready and the headers are queued, not when {@code sendAsync} is called.
 */
public final class HttpTransport implements Transport {

    /**
     * One JDK client, and so one selector thread, per core up to four: each parses and stamps the reads of its own
     * connections, so on a busy run one thread's backlog does not delay every other connection's timestamps.
     */
    static final int SELECTOR_THREADS =
            Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));

    private final HttpClient[] clients;
    private final ServerEndpoint endpoint;
    /** Each API's URL, parsed once: {@code URI.create} per request was a tenth of the sending thread's time. */
    private final Map<ApiKind, URI> urls = new ConcurrentHashMap<>();

    private final NanoClock clock;
    private final String authorization;
    private final ReadTap tap;

    public HttpTransport(ServerEndpoint endpoint, NanoClock clock) {
        this(endpoint, clock, ReadTap.NONE);
    }

    /** A transport that shows every read to {@code tap} before parsing it (for the client benchmark). */
    public HttpTransport(ServerEndpoint endpoint, NanoClock clock, ReadTap tap) {
        ClientWarmUp.once();
        this.tap = tap;
        this.endpoint = endpoint;
        this.clock = clock;
        this.authorization =
                endpoint.resolveApiKey().map(key -> "Bearer " + key).orElse(null);
        this.clients = new HttpClient[SELECTOR_THREADS];
        for (int k = 0; k < clients.length; k++) {
            clients[k] = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(endpoint.connectTimeout())
                    .followRedirects(HttpClient.Redirect.NEVER)
                    .executor(Runnable::run)
                    .build();
        }
    }

    @Override
    public Exchange start(StreamAttempt attempt) {
        HttpRequest.Builder http = HttpRequest.newBuilder(
                        urls.computeIfAbsent(attempt.spec().api(), api -> endpoint.apiUrl(api.path())))
                .header("Content-Type", "application/json")
                .header("Accept", "text/event-stream")
                .POST(new WrittenBody(
                        RequestBodies.streamingBody(attempt.spec(), endpoint.model(), endpoint.continuousUsageStats()),
                        attempt,
                        clock));
        attempt.spec().headers().forEach(http::header);
        if (authorization != null) {
            http.header("Authorization", authorization);
        }
        StreamSubscriber subscriber = new StreamSubscriber(attempt, clock, tap);
        HttpClient client = clients[(int) (attempt.request().index() % clients.length)];
        CompletableFuture<HttpResponse<Void>> response = client.sendAsync(http.build(), info -> {
            info.headers().firstValue("retry-after").ifPresent(attempt::onRetryAfter);
            attempt.onHeaders(
                    info.statusCode(), info.headers().firstValue("content-type").orElse(null), clock.nanoTime());
            return subscriber;
        });
        response.whenComplete((ignored, failure) -> {
            if (failure != null) {
                attempt.onFailure(failure, clock.nanoTime());
            }
        });
        return () -> {
            subscriber.cancel();
            response.cancel(true);
        };
    }

    @Override
    public void close() {
        // The JDK 17 client has no close(): its selector thread ends once the client is unreachable and idle.
    }

    /** Feeds the response body into the attempt as it arrives. */
    private static final class StreamSubscriber implements HttpResponse.BodySubscriber<Void> {
        private final StreamAttempt attempt;
        private final NanoClock clock;
        private final ReadTap tap;
        private final CompletableFuture<Void> body = new CompletableFuture<>();
        private volatile Flow.Subscription subscription;
        private volatile boolean cancelled;

        StreamSubscriber(StreamAttempt attempt, NanoClock clock, ReadTap tap) {
            this.attempt = attempt;
            this.clock = clock;
            this.tap = tap;
        }

        @Override
        public void onSubscribe(Flow.Subscription value) {
            subscription = value;
            if (cancelled) {
                value.cancel();
            } else {
                value.request(Long.MAX_VALUE);
            }
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            long now = clock.nanoTime();
            for (ByteBuffer buffer : buffers) {
                tap.onRead(attempt, buffer, now);
                attempt.onBytes(buffer, now);
            }
        }

        @Override
        public void onError(Throwable failure) {
            attempt.onFailure(failure, clock.nanoTime());
            body.completeExceptionally(failure);
        }

        @Override
        public void onComplete() {
            attempt.onEndOfStream(clock.nanoTime());
            body.complete(null);
        }

        @Override
        public CompletionStage<Void> getBody() {
            return body;
        }

        void cancel() {
            cancelled = true;
            Flow.Subscription current = subscription;
            if (current != null) {
                current.cancel();
            }
        }
    }
}
