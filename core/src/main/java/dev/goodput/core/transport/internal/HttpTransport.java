package dev.goodput.core.transport.internal;

import dev.goodput.core.NanoClock;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.transport.Exchange;
import dev.goodput.core.transport.ReadTap;
import dev.goodput.core.transport.StreamAttempt;
import dev.goodput.core.transport.Transport;
import dev.goodput.core.workload.ApiKind;
import java.lang.reflect.Method;
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

    /** {@code HttpClient.shutdownNow()} on JDK 21 and later, {@code null} before (the build targets 17). */
    private static final Method SHUTDOWN_NOW = shutdownNow();

    /**
     * One JDK client, and so one selector thread, per core up to four: each parses and stamps the reads of its own
     * connections, so on a busy run one thread's backlog does not delay every other connection's timestamps.
     */
    static final int SELECTOR_THREADS =
            Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));

    /** The clients, until {@link #close()} lets them go. */
    private volatile HttpClient[] clients;

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
        HttpClient[] made = new HttpClient[SELECTOR_THREADS];
        for (int k = 0; k < made.length; k++) {
            made[k] = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(endpoint.connectTimeout())
                    .followRedirects(HttpClient.Redirect.NEVER)
                    .executor(Runnable::run)
                    .build();
        }
        this.clients = made;
    }

    private static Method shutdownNow() {
        try {
            return HttpClient.class.getMethod("shutdownNow");
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    @Override
    public Exchange start(StreamAttempt attempt) {
        StreamSubscriber subscriber = new StreamSubscriber(attempt, clock, tap);
        HttpRequest.Builder http = HttpRequest.newBuilder(
                        urls.computeIfAbsent(attempt.spec().api(), api -> endpoint.apiUrl(api.path())))
                .header("Content-Type", "application/json")
                .header("Accept", "text/event-stream")
                .POST(new WrittenBody(
                        RequestBodies.streamingBody(attempt.spec(), endpoint.model(), endpoint.continuousUsageStats()),
                        subscriber::onRequestWritten,
                        clock));
        attempt.spec().headers().forEach(http::header);
        if (authorization != null) {
            http.header("Authorization", authorization);
        }
        HttpClient[] open = clients;
        if (open == null) {
            throw new IllegalStateException("the transport is closed");
        }
        HttpClient client = open[(int) (attempt.requestIndex() % open.length)];
        CompletableFuture<HttpResponse<Void>> response = client.sendAsync(http.build(), subscriber::onResponseHead);
        response.whenComplete((ignored, failure) -> {
            if (failure != null) {
                subscriber.onError(failure);
            }
        });
        return () -> {
            subscriber.cancel();
            response.cancel(true);
        };
    }

    /**
     * Lets the clients go, and on a JDK that can (21 and later) shuts them down at once. On JDK 17, which cannot, a
     * client whose last reference is gone ends its selector thread and closes its connections at its next wake (at
     * most 3 s) after a GC has cleared it; nothing of the run waits for that, as no exchange keeps its attempt
     * ({@link StreamSubscriber}).
     */
    @Override
    public void close() {
        HttpClient[] open = clients;
        clients = null;
        if (open != null && SHUTDOWN_NOW != null) {
            for (HttpClient client : open) {
                try {
                    SHUTDOWN_NOW.invoke(client);
                } catch (ReflectiveOperationException e) {
                    // It ends as on JDK 17, once unreachable.
                }
            }
        }
    }

    /**
     * Feeds the response into the attempt as it arrives, and is the one thing of the exchange that knows the attempt.
     * It lets the attempt go when the exchange ends: the JDK client keeps the last exchange of each pooled connection
     * (its request, handler and subscriber) until the connection closes, and through an attempt it would keep its
     * whole run, with every record, for as long as the connection stays in the pool.
     */
    private static final class StreamSubscriber implements HttpResponse.BodySubscriber<Void> {
        private final NanoClock clock;
        private final ReadTap tap;
        private final CompletableFuture<Void> body = new CompletableFuture<>();
        private volatile StreamAttempt attempt;
        private volatile Flow.Subscription subscription;
        private volatile boolean cancelled;

        StreamSubscriber(StreamAttempt attempt, NanoClock clock, ReadTap tap) {
            this.attempt = attempt;
            this.clock = clock;
            this.tap = tap;
        }

        void onRequestWritten(long nanos) {
            StreamAttempt current = attempt;
            if (current != null) {
                current.onRequestWritten(nanos);
            }
        }

        HttpResponse.BodySubscriber<Void> onResponseHead(HttpResponse.ResponseInfo info) {
            StreamAttempt current = attempt;
            if (current != null) {
                info.headers().firstValue("retry-after").ifPresent(current::onRetryAfter);
                current.onHeaders(
                        info.statusCode(),
                        info.headers().firstValue("content-type").orElse(null),
                        clock.nanoTime());
            }
            return this;
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
            StreamAttempt current = attempt;
            if (current == null) {
                return;
            }
            long now = clock.nanoTime();
            for (ByteBuffer buffer : buffers) {
                tap.onRead(current, buffer, now);
                current.onBytes(buffer, now);
            }
        }

        @Override
        public void onError(Throwable failure) {
            StreamAttempt current = attempt;
            attempt = null;
            if (current != null) {
                current.onFailure(failure, clock.nanoTime());
            }
            body.completeExceptionally(failure);
        }

        @Override
        public void onComplete() {
            StreamAttempt current = attempt;
            attempt = null;
            if (current != null) {
                current.onEndOfStream(clock.nanoTime());
            }
            body.complete(null);
        }

        @Override
        public CompletionStage<Void> getBody() {
            return body;
        }

        /** Stops the exchange on the attempt's behalf (a timeout or a cancellation), which has ended it. */
        void cancel() {
            cancelled = true;
            attempt = null;
            Flow.Subscription current = subscription;
            if (current != null) {
                current.cancel();
            }
        }
    }
}
