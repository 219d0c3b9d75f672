package dev.goodput.core.transport.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.goodput.core.NanoClock;
import dev.goodput.core.PreflightException;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.internal.redaction.SecretRedaction;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.transport.ReadTap;
import dev.goodput.core.transport.Transport;
import dev.goodput.core.transport.TransportProvider;
import dev.goodput.core.workload.ChatMessage;
import dev.goodput.core.workload.RequestSpec;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * Checks, before any load, that the server under test can be measured at all, so that a wrong URL, a wrong model
 * name or a server that does not stream fails at once with what was tried and what came back, instead of as a run
 * of thousands of identical failures:
 *
 * <ol>
 *   <li>{@code GET /v1/models}: the server answers, and the model is among those it lists. A server without the
 *       endpoint (any status but 401 and 403, which mean the API key, and 503, a server still loading) goes on to
 *       the next step; a list without the model fails, naming the models it does serve.
 *   <li>One streaming request of {@value #MAX_TOKENS} tokens, through the same client as the run's requests (the
 *       run's API kind, the endpoint's key and stream options, the workload's extra body fields): it must stream
 *       and end as a measured request must succeed, within {@link #STREAM_TIMEOUT}; only text is not required
 *       (two tokens may all be special ones the server does not show).
 * </ol>
 *
 * <p>Connections time out after {@link #CONNECT_TIMEOUT} (or the endpoint's, if shorter). The key is sent as in
 * the run and redacted from every message. A server answering 503 to either step is waited for ({@link
 * LoadingWait}). Nothing of the preflight enters the run's result but a note of how long it waited.
 */
public final class Preflight {

    /** The longest wait for a connection. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    /** The longest wait for the whole answer to {@code GET /v1/models}. */
    static final Duration MODELS_TIMEOUT = Duration.ofSeconds(5);

    /** The longest wait for the whole stream of the small request. */
    static final Duration STREAM_TIMEOUT = Duration.ofSeconds(10);

    /** The output tokens the small request asks for. */
    static final int MAX_TOKENS = 2;

    private static final ObjectMapper JSON = new ObjectMapper();

    private Preflight() {}

    /**
     * Checks the server with a request shaped like {@code first} (the workload's first request): its API kind and
     * extra body fields, a one-word prompt and {@value #MAX_TOKENS} output tokens, streamed by a transport of
     * {@code transports} (the run's own, so that the preflight tries the client the run will use).
     *
     * <p>A server that answers 503 (still loading its model) is asked again every {@link LoadingWait#POLL_INTERVAL}
     * until it answers otherwise or {@code loadingWait} is over.
     *
     * @return a note saying how long the preflight waited for a loading server; empty when it was ready at once
     * @throws PreflightException naming what was tried and what came back
     * @throws IllegalStateException if the API key variable is named but not set, or the thread is interrupted
     */
    public static Optional<String> check(
            ServerEndpoint server,
            RequestSpec first,
            NanoClock clock,
            TransportProvider transports,
            Duration loadingWait) {
        return check(server, first, clock, transports, new LoadingWait(loadingWait, clock, LoadingWait.Pause.real()));
    }

    /**
     * Checks as {@link #check(ServerEndpoint, RequestSpec, NanoClock, TransportProvider, Duration)} does, waiting
     * for a loading server as {@code loadingWait} says; returns a note saying how long it waited, empty when the
     * server was ready at once.
     */
    static Optional<String> check(
            ServerEndpoint server,
            RequestSpec first,
            NanoClock clock,
            TransportProvider transports,
            LoadingWait loadingWait) {
        ServerEndpoint endpoint = server.connectTimeout().compareTo(CONNECT_TIMEOUT) < 0
                ? server
                : server.withConnectTimeout(CONNECT_TIMEOUT);
        SecretRedaction redaction = SecretRedaction.of(endpoint.resolveApiKey().orElse(null));
        String authorization =
                endpoint.resolveApiKey().map(key -> "Bearer " + key).orElse(null);
        Duration waited = loadingWait.await(() -> {
            checkModels(endpoint, authorization, redaction);
            checkStream(endpoint, probe(first), redaction, clock, transports);
        });
        return waited.isZero()
                ? Optional.empty()
                : Optional.of("the server answered 503 (still loading its model) until the preflight had waited "
                        + LoadingWait.seconds(waited.toNanos()) + " for it; the load started once it was ready");
    }

    /** Returns the small request: the API kind and extra body fields of {@code first}, a one-word prompt. */
    static RequestSpec probe(RequestSpec first) {
        RequestSpec probe = switch (first.api()) {
            case CHAT -> RequestSpec.chat(List.of(ChatMessage.user("Hello")), MAX_TOKENS);
            case COMPLETIONS -> RequestSpec.completion("Hello", MAX_TOKENS);
        };
        return probe.withExtraBody(first.extraBody());
    }

    private static void checkModels(ServerEndpoint endpoint, String authorization, SecretRedaction redaction) {
        URI uri = endpoint.apiUrl("/models");
        String tried = "GET " + redaction.url(uri);
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .timeout(MODELS_TIMEOUT)
                .header("Accept", "application/json")
                .GET();
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        ExecutorService executor = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "goodput-preflight");
            thread.setDaemon(true);
            return thread;
        });
        HttpResponse<byte[]> response;
        try {
            HttpClient client = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(endpoint.connectTimeout())
                    .followRedirects(HttpClient.Redirect.NEVER)
                    .executor(executor)
                    .build();
            CompletableFuture<HttpResponse<byte[]>> answer =
                    client.sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            try {
                response = await(answer, MODELS_TIMEOUT, tried, redaction);
            } catch (PreflightException e) {
                // The first exchange with the server: a wrong scheme shows here, as a wait or a closed connection.
                throw SchemeHint.of(uri)
                        .map(hint -> new PreflightException(e.request(), e.reason() + "; " + hint))
                        .orElse(e);
            }
        } finally {
            executor.shutdownNow();
        }
        int status = response.statusCode();
        if (status == 401 || status == 403 || status == 503) {
            ErrorBody body = new ErrorBody(status, redaction);
            body.append(ByteBuffer.wrap(response.body()));
            throw new PreflightException(tried, body.reason());
        }
        if (status < 200 || status > 299) {
            return; // no such endpoint on this server (llama.cpp's older builds, some proxies): the stream decides
        }
        List<String> served = modelIds(response.body());
        // Ollama lists "llama3:latest" and serves it as "llama3" too.
        if (served != null && !served.contains(endpoint.model()) && !served.contains(endpoint.model() + ":latest")) {
            throw new PreflightException(
                    tried,
                    redaction.redact("the server does not serve the model `" + endpoint.model() + "`; it serves "
                            + (served.isEmpty()
                                    ? "no model"
                                    : served.stream().map(id -> "`" + id + "`").collect(Collectors.joining(", ")))));
        }
    }

    /** Returns the ids of an OpenAI model list, or {@code null} when the body is not one. */
    private static List<String> modelIds(byte[] body) {
        JsonNode data;
        try {
            data = JSON.readTree(body).path("data");
        } catch (IOException | RuntimeException e) {
            return null;
        }
        if (!data.isArray()) {
            return null;
        }
        List<String> ids = new ArrayList<>();
        for (JsonNode model : data) {
            if (model.path("id").isTextual()) {
                ids.add(model.path("id").asText());
            }
        }
        return ids;
    }

    private static void checkStream(
            ServerEndpoint endpoint,
            RequestSpec probe,
            SecretRedaction redaction,
            NanoClock clock,
            TransportProvider transports) {
        String tried = "POST " + redaction.url(endpoint.apiUrl(probe.api().path()));
        CompletableFuture<FinishedRequest> finished = new CompletableFuture<>();
        RequestListener listener = new RequestListener() {
            @Override
            public void retrying(InFlightRequest request, long waitNanos) {
                // RetryRule.NEVER: never called
            }

            @Override
            public void finished(InFlightRequest request, FinishedRequest handover) {
                finished.complete(handover);
            }
        };
        StreamSettings settings = new StreamSettings(endpoint.requireStreamEnd(), null, redaction);
        long now = clock.nanoTime();
        InFlightRequest request = new InFlightRequest(0, Phase.WARMUP, probe, now, settings, RetryRule.NEVER, listener);
        try (Transport transport = Transports.open(transports, endpoint, clock, ReadTap.NONE)) {
            MeasuredAttempt attempt = request.send(now, false);
            attempt.attach(transport.start(attempt));
            try {
                finished.get(STREAM_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                attempt.timeOut(
                        "no complete stream within " + STREAM_TIMEOUT.toSeconds() + " s of sending", clock.nanoTime());
            } catch (InterruptedException e) {
                request.cancel("the preflight was interrupted", clock.nanoTime());
                Thread.currentThread().interrupt();
                throw new IllegalStateException("the preflight was interrupted; no load was sent", e);
            } catch (ExecutionException e) {
                throw new IllegalStateException(
                        "the preflight failed: " + redaction.redact(String.valueOf(e.getCause())));
            }
        }
        RequestRecord record = request.record();
        // Two tokens may all be swallowed (a reasoning model's opening tag, a template's special tokens): a stream
        // that ended properly without text still shows the server streams.
        boolean endedWithoutText = StreamEnds.NO_TEXT_AT_DONE.equals(record.errorDetail());
        if (record.outcome() != Outcome.SUCCESS && !endedWithoutText) {
            throw new PreflightException(tried, redaction.redact(record.errorDetail()));
        }
    }

    private static <T> T await(CompletableFuture<T> answer, Duration timeout, String tried, SecretRedaction redaction) {
        try {
            return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            answer.cancel(true);
            throw new PreflightException(tried, "no answer within " + timeout.toSeconds() + " s");
        } catch (ExecutionException e) {
            throw new PreflightException(tried, redaction.redact(ConnectionFailures.describe(e.getCause())));
        } catch (InterruptedException e) {
            answer.cancel(true);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("the preflight was interrupted; no load was sent", e);
        }
    }
}
