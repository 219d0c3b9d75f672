package dev.goodput.core.internal.client;

import static dev.goodput.core.RequestRecord.ABSENT;

import dev.goodput.core.Outcome;
import dev.goodput.core.Phase;
import dev.goodput.core.RequestAttempt;
import dev.goodput.core.RequestRecord;
import dev.goodput.core.RequestSpec;
import dev.goodput.core.TokenCounter;
import dev.goodput.core.internal.sse.ChunkDecoder;
import dev.goodput.core.internal.sse.SseEvent;
import dev.goodput.core.internal.sse.SseFormatException;
import dev.goodput.core.internal.sse.SseParser;
import dev.goodput.core.internal.sse.StreamChunk;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One request from its creation by the schedule until its record is frozen: it receives the transport's
 * callbacks, parses the stream, takes every timestamp the metric definitions need, and ends exactly once.
 *
 * <p>Thread-safety: the transport calls in from its threads, timeouts and cancellation from others. All
 * state is guarded by this object's monitor; the completion listener and the exchange abort are called
 * outside it, so that a driver holding its own lock can cancel requests without deadlock.
 */
public final class InFlightRequest {

    private static final int MAX_ERROR_BODY_CHARS = 4096;
    private static final ChunkDecoder DECODER = new ChunkDecoder();

    private final long index;
    private final Phase phase;
    private final RequestSpec spec;
    private final long intendedNanos;
    private final boolean requireStreamEnd;
    private final TokenTally tokens;
    private final CompletionListener listener;
    private final SseParser parser = new SseParser(this::onEvent);

    // Guarded by this.
    private long dispatchedNanos = ABSENT;
    private boolean heldByConcurrencyCap;
    private long headersNanos = ABSENT;
    private long firstTokenNanos = ABSENT;
    private long lastTokenNanos = ABSENT;
    private int httpStatus;
    private String contentType;
    private int contentEvents;
    private String finishReason;
    private long maxStallNanos = ABSENT;
    private long[] gapNanos = new long[16];
    private int[] gapTokens = new int[16];
    private int gapCount;
    private StringBuilder errorBody;
    private Exchange exchange;
    private RequestRecord record;
    private List<RequestAttempt> retriedAttempts = List.of();
    private long firstDispatchedNanos = ABSENT;
    private long attemptDispatchedNanos = ABSENT;
    private String retryAfter;

    public InFlightRequest(
            long index,
            Phase phase,
            RequestSpec spec,
            long intendedNanos,
            boolean requireStreamEnd,
            TokenCounter outputTokenCounter,
            CompletionListener listener) {
        this.index = index;
        this.phase = Objects.requireNonNull(phase, "phase");
        this.spec = Objects.requireNonNull(spec, "spec");
        this.intendedNanos = intendedNanos;
        this.requireStreamEnd = requireStreamEnd;
        this.tokens = new TokenTally(outputTokenCounter);
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    public long index() {
        return index;
    }

    public Phase phase() {
        return phase;
    }

    public RequestSpec spec() {
        return spec;
    }

    public long intendedNanos() {
        return intendedNanos;
    }

    /** Records the moment the request leaves the client. */
    public synchronized void markDispatched(long nanos, boolean heldByCap) {
        // A retry keeps the first attempt's send: queue time and send lag are the client's, once.
        this.attemptDispatchedNanos = nanos;
        this.dispatchedNanos = firstDispatchedNanos != ABSENT ? firstDispatchedNanos : nanos;
        this.heldByConcurrencyCap = firstDispatchedNanos != ABSENT ? heldByConcurrencyCap : heldByCap;
    }

    /** Returns the dispatch instant, or {@link RequestRecord#ABSENT} while queued. */
    public synchronized long dispatchedNanos() {
        return dispatchedNanos;
    }

    /** Attaches the exchange; if the request already ended (cancelled meanwhile), the exchange is aborted. */
    public void attach(Exchange started) {
        boolean alreadyEnded;
        synchronized (this) {
            exchange = started;
            alreadyEnded = record != null;
        }
        if (alreadyEnded) {
            started.abort();
        }
    }

    /** The response status and headers arrived. */
    public void onHeaders(int status, String responseContentType, long nanos) {
        synchronized (this) {
            if (record != null) {
                return;
            }
            headersNanos = nanos;
            httpStatus = status;
            contentType = responseContentType;
            if (status < 200 || status > 299) {
                errorBody = new StringBuilder();
            }
        }
    }

    /** Bytes of the body arrived in one read; {@code nanos} is the clock reading taken for that read. */
    public void onBytes(ByteBuffer bytes, long nanos) {
        boolean ended;
        synchronized (this) {
            if (record != null) {
                return;
            }
            try {
                if (errorBody != null) {
                    appendErrorBody(bytes);
                } else {
                    parser.feed(bytes, nanos);
                }
            } catch (SseFormatException | RuntimeException e) {
                finishLocked(Outcome.FAILED, "unreadable stream: " + e.getMessage(), nanos);
            }
            ended = record != null;
        }
        if (ended) {
            afterEnd();
        }
    }

    /** The body ended normally (the connection or the response body closed). */
    public void onEndOfStream(long nanos) {
        boolean ended;
        synchronized (this) {
            if (record != null) {
                return;
            }
            if (errorBody != null) {
                finishLocked(Outcome.FAILED, httpErrorDetail(), nanos);
            } else {
                try {
                    parser.finish(nanos);
                } catch (SseFormatException | RuntimeException e) {
                    finishLocked(Outcome.FAILED, "unreadable stream: " + e.getMessage(), nanos);
                }
                if (record == null) {
                    String detail = streamEndedEarlyDetail();
                    finishLocked(detail == null ? Outcome.SUCCESS : Outcome.FAILED, detail, nanos);
                }
            }
            ended = true;
        }
        if (ended) {
            afterEnd();
        }
    }

    /** The exchange failed: connection refused or lost, protocol error. */
    public void onFailure(Throwable cause, long nanos) {
        endWith(Outcome.FAILED, failureDetail(cause), nanos);
    }

    /**
     * Ends the request as timed out if it has not ended yet.
     *
     * @return whether this call ended it
     */
    public boolean timeOut(String reason, long nanos) {
        return endWith(Outcome.TIMED_OUT, reason, nanos);
    }

    /**
     * Ends the request as cancelled if it has not ended yet.
     *
     * @return whether this call ended it
     */
    public boolean cancel(String reason, long nanos) {
        return endWith(Outcome.CANCELLED, reason, nanos);
    }

    /** Returns whether the response headers have arrived. */
    public synchronized boolean hasHeaders() {
        return headersNanos != ABSENT;
    }

    /** Returns whether the first token has arrived. */
    public synchronized boolean hasFirstToken() {
        return firstTokenNanos != ABSENT;
    }

    /** Returns whether the request has ended. */
    public synchronized boolean isEnded() {
        return record != null;
    }

    /** Returns the frozen record, or {@code null} while the request is under way. */
    public synchronized RequestRecord record() {
        return record;
    }

    /**
     * Calls {@code consumer} with every gap between consecutive content events and the number of tokens the
     * later event carried, in stream order. Only meaningful after the request ended.
     */
    public synchronized void forEachGap(GapConsumer consumer) {
        for (int i = 0; i < gapCount; i++) {
            consumer.accept(gapNanos[i], gapTokens[i]);
        }
    }

    /** Receives one inter-event gap. */
    @FunctionalInterface
    public interface GapConsumer {
        void accept(long gapNanos, int tokens);
    }

    private boolean endWith(Outcome outcome, String detail, long nanos) {
        boolean endedNow;
        synchronized (this) {
            if (record != null) {
                return false;
            }
            finishLocked(outcome, detail, nanos);
            endedNow = true;
        }
        if (outcome != Outcome.SUCCESS) {
            abortExchange();
        }
        afterEnd();
        return endedNow;
    }

    private void afterEnd() {
        listener.onComplete(this);
    }

    private void abortExchange() {
        Exchange toAbort;
        synchronized (this) {
            toAbort = exchange;
        }
        if (toAbort != null) {
            toAbort.abort();
        }
    }

    // Called by the parser, inside the monitor, once per event.
    private void onEvent(SseEvent event, long nanos) {
        if (record != null) {
            return;
        }
        StreamChunk chunk = DECODER.decode(event);
        switch (chunk.kind()) {
            case DONE -> finishLocked(outcomeAtDone(), detailAtDone(), nanos);
            case ERROR -> finishLocked(Outcome.FAILED, "error event in the stream: " + chunk.detail(), nanos);
            case MALFORMED -> finishLocked(Outcome.FAILED, "malformed stream event: " + chunk.detail(), nanos);
            case CONTENT -> onContent(chunk, nanos);
            case NO_CONTENT -> onUsageAndFinish(chunk);
        }
    }

    private void onContent(StreamChunk chunk, long nanos) {
        int eventTokens = tokens.tokensOf(chunk);
        if (firstTokenNanos == ABSENT) {
            firstTokenNanos = nanos;
        } else {
            long gap = nanos - lastTokenNanos;
            appendGap(gap, eventTokens);
            maxStallNanos = Math.max(maxStallNanos, gap);
        }
        lastTokenNanos = nanos;
        contentEvents++;
        onUsageAndFinish(chunk);
    }

    private void onUsageAndFinish(StreamChunk chunk) {
        if (chunk.finishReason() != null) {
            finishReason = chunk.finishReason();
        }
        tokens.take(chunk);
    }

    private Outcome outcomeAtDone() {
        return detailAtDone() == null ? Outcome.SUCCESS : Outcome.FAILED;
    }

    private String detailAtDone() {
        if (contentEvents == 0) {
            return "the stream ended with [DONE] without generating any text";
        }
        if (requireStreamEnd && finishReason == null) {
            return "the stream ended with [DONE] but no choice carried a finish_reason";
        }
        return null;
    }

    private String streamEndedEarlyDetail() {
        if (contentType != null && !contentType.startsWith("text/event-stream")) {
            return "the response was " + contentType + ", not an event stream (text/event-stream)";
        }
        if (!requireStreamEnd && contentEvents > 0) {
            return null;
        }
        return "the stream ended without [DONE] after " + contentEvents + " content events"
                + (finishReason == null ? " and without a finish_reason" : "");
    }

    private void finishLocked(Outcome outcome, String detail, long nanos) {
        TokenTally.OutputCount output = tokens.output(contentEvents);
        record = new RequestRecord(
                index,
                phase,
                intendedNanos,
                dispatchedNanos,
                headersNanos,
                firstTokenNanos,
                lastTokenNanos,
                nanos,
                heldByConcurrencyCap,
                httpStatus,
                contentEvents,
                output.tokens(),
                output.source(),
                output.clientTokens(),
                tokens.serverPromptTokens(),
                spec.promptTokens(),
                maxStallNanos,
                finishReason,
                outcome,
                outcome == Outcome.SUCCESS ? null : detail,
                retriedAttempts);
    }

    /**
     * Makes this request the next attempt of {@code failed}, which was retried after waiting {@code waitNanos}:
     * it keeps the earlier attempts, and its record reports the first attempt's send.
     */
    public void continueAfter(InFlightRequest failed, long waitNanos) {
        RequestRecord failedRecord = failed.record();
        List<RequestAttempt> earlier = new ArrayList<>(failed.retriedAttempts());
        long failedAttemptSent;
        synchronized (failed) {
            failedAttemptSent = failed.attemptDispatchedNanos;
        }
        earlier.add(new RequestAttempt(
                earlier.size() + 1,
                failedAttemptSent,
                failedRecord.endNanos(),
                failedRecord.httpStatus(),
                failedRecord.errorDetail(),
                waitNanos));
        synchronized (this) {
            retriedAttempts = List.copyOf(earlier);
            firstDispatchedNanos = failedRecord.dispatchedNanos();
            dispatchedNanos = firstDispatchedNanos; // until the retry is sent, a cancellation still shows the send
            heldByConcurrencyCap = failedRecord.heldByConcurrencyCap();
        }
    }

    /** Returns the earlier attempts of this request, oldest first. */
    public synchronized List<RequestAttempt> retriedAttempts() {
        return retriedAttempts;
    }

    /** Notes the response's {@code Retry-After} header, before {@link #onHeaders}. */
    public synchronized void onRetryAfter(String value) {
        retryAfter = value;
    }

    /** Returns the response's {@code Retry-After} in whole seconds, or -1 when absent or an HTTP date. */
    public synchronized long retryAfterSeconds() {
        if (retryAfter == null) {
            return -1;
        }
        try {
            return Math.max(0, Long.parseLong(retryAfter.trim()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private void appendGap(long gap, int tokens) {
        if (gapCount == gapNanos.length) {
            gapNanos = Arrays.copyOf(gapNanos, gapCount * 2);
            gapTokens = Arrays.copyOf(gapTokens, gapCount * 2);
        }
        gapNanos[gapCount] = gap;
        gapTokens[gapCount] = tokens;
        gapCount++;
    }

    private void appendErrorBody(ByteBuffer bytes) {
        int room = MAX_ERROR_BODY_CHARS - errorBody.length();
        if (room > 0) {
            byte[] copy = new byte[Math.min(room, bytes.remaining())];
            bytes.get(copy);
            errorBody.append(new String(copy, StandardCharsets.UTF_8));
        }
        bytes.position(bytes.limit());
    }

    private String httpErrorDetail() {
        String body = errorBody.toString().strip();
        String message = body;
        if (!body.isEmpty()) {
            StreamChunk decoded = DECODER.decode(new SseEvent(null, body));
            if (decoded.kind() == StreamChunk.Kind.ERROR) {
                message = decoded.detail();
            }
        }
        return "HTTP " + httpStatus + (message.isEmpty() ? "" : ": " + message);
    }

    /** Names the failure by the most telling exception in the chain: the client wraps causes in several layers. */
    static String failureDetail(Throwable cause) {
        String kind = "connection failed";
        Throwable named = cause;
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String type = t.getClass().getSimpleName();
            if (type.equals("HttpConnectTimeoutException")) {
                kind = "connect timeout";
                named = t;
                break;
            }
            if (type.equals("ConnectException")) {
                kind = "connection refused or unreachable";
                named = t;
                break;
            }
            if (type.equals("EOFException") || type.equals("ClosedChannelException")) {
                kind = "connection closed by the server";
                named = t;
            }
            if (!(t instanceof java.util.concurrent.CompletionException) && named == cause) {
                named = t;
            }
        }
        String message = named.getMessage();
        return kind + " (" + named.getClass().getSimpleName() + (message == null ? "" : ": " + message) + ")";
    }
}
