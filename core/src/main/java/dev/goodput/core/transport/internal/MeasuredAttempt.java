package dev.goodput.core.transport.internal;

import static dev.goodput.core.record.RequestRecord.ABSENT;

import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.RequestAttempt;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.record.ServerTimings;
import dev.goodput.core.transport.Exchange;
import dev.goodput.core.transport.StreamAttempt;
import dev.goodput.core.transport.internal.sse.ChunkDecoder;
import dev.goodput.core.transport.internal.sse.SseEvent;
import dev.goodput.core.transport.internal.sse.SseFormatException;
import dev.goodput.core.transport.internal.sse.SseParser;
import dev.goodput.core.transport.internal.sse.StreamChunk;
import dev.goodput.core.workload.RequestSpec;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Goodput's {@link StreamAttempt}: one HTTP exchange of a request, as OkHttp's {@code Exchange} is one of a {@code Call}: it receives the
 * transport's callbacks for one response (headers, bytes with the clock reading of their read, the end or a
 * failure), parses the stream, takes every timestamp the metric definitions need, and ends once. What its end
 * means (another attempt, or the request's record) its {@link InFlightRequest} decides.
 *
 * <p>Longer than 300 lines because it is the one place where an exchange's timestamps are taken and its end is
 * decided, under one monitor; the parts that need no state of their own live beside it ({@link TokenTally},
 * {@link PhaseTally}, {@link StreamEnds}, {@link ConnectionFailures}, {@link GapLog}).
 *
 * <p>Thread-safety: all state is guarded by the monitor of its request, so a request and its attempts change
 * together. A callback that arrives after the attempt ended (a late read, a stale timeout) does nothing. Aborts
 * and the request's listener are called outside the monitor.
 */
public final class MeasuredAttempt implements StreamAttempt {

    private final InFlightRequest request;
    private final int number;
    private final StreamSettings settings;
    private final ChunkDecoder decoder;
    private final TokenTally tokens;
    private final SseParser parser = new SseParser(this::onEvent);
    private final GapLog gaps = new GapLog();
    private final PhaseTally phases = new PhaseTally();

    // Guarded by request.
    private long sentNanos = ABSENT;
    private long headersNanos = ABSENT;
    private long firstTokenNanos = ABSENT;
    private long lastTokenNanos = ABSENT;
    private int httpStatus;
    private String contentType;
    private int contentEvents;
    private String finishReason;
    // The model the stream named first (the top-level "model" of its chunks); read until a chunk names one.
    private String servedModel;
    private long maxStallNanos = ABSENT;
    private ErrorBody errorBody;
    private String retryAfter;
    private Exchange exchange;
    private ServerTimings serverTimings;
    private boolean closedBeforeResponse;
    private boolean ended;
    private InFlightRequest.Ending parserEnding;

    public MeasuredAttempt(InFlightRequest request, int number, StreamSettings settings) {
        this.request = request;
        this.number = number;
        this.settings = settings;
        this.decoder = new ChunkDecoder(settings.redaction());
        this.tokens = new TokenTally(settings.outputTokenCounter());
    }

    /** Returns the request this attempt belongs to. */
    public InFlightRequest request() {
        return request;
    }

    /** Returns the attempt's number, starting at 1. */
    @Override
    public int number() {
        return number;
    }

    @Override
    public long requestIndex() {
        return request.index();
    }

    @Override
    public boolean isResentAfterClosedConnection() {
        return request.isResentAfterClosedConnection();
    }

    /** Returns what the request sends. */
    @Override
    public RequestSpec spec() {
        return request.spec();
    }

    /** Attaches the exchange; if the attempt already ended (cancelled meanwhile), the exchange is aborted. */
    public void attach(Exchange started) {
        boolean alreadyEnded;
        synchronized (request) {
            exchange = started;
            alreadyEnded = ended;
        }
        if (alreadyEnded) {
            started.abort();
        }
    }

    /** Notes the response's {@code Retry-After} header, before {@link #onHeaders}. */
    @Override
    public void onRetryAfter(String value) {
        synchronized (request) {
            retryAfter = value;
        }
    }

    /**
     * The transport handed the request body to its connection: the request has left the client. Replaces the send
     * stamp taken when the attempt was started (a transport that cannot tell leaves that one).
     */
    @Override
    public void onRequestWritten(long nanos) {
        synchronized (request) {
            if (!ended) {
                sentNanos = nanos;
                request.writtenLocked(this, nanos);
            }
        }
    }

    /** The response status and headers arrived. */
    @Override
    public void onHeaders(int status, String responseContentType, long nanos) {
        synchronized (request) {
            if (ended) {
                return;
            }
            headersNanos = nanos;
            httpStatus = status;
            contentType = responseContentType;
            if (status < 200 || status > 299) {
                errorBody = new ErrorBody(status, settings.redaction());
            }
        }
    }

    /** Bytes of the body arrived in one read; {@code nanos} is the clock reading taken for that read. */
    @Override
    public void onBytes(ByteBuffer bytes, long nanos) {
        InFlightRequest.Ending ending;
        synchronized (request) {
            if (ended) {
                return;
            }
            try {
                if (errorBody != null) {
                    errorBody.append(bytes);
                } else {
                    parser.feed(bytes, nanos);
                }
            } catch (SseFormatException | RuntimeException e) {
                parserEnding = endLocked(Outcome.FAILED, "unreadable stream: " + e.getMessage(), nanos);
            }
            ending = takeParserEnding();
        }
        request.afterEnding(ending);
    }

    /** The body ended normally (the connection or the response body closed). */
    @Override
    public void onEndOfStream(long nanos) {
        InFlightRequest.Ending ending;
        synchronized (request) {
            if (ended) {
                return;
            }
            if (errorBody != null) {
                parserEnding = endLocked(Outcome.FAILED, errorBody.reason(), nanos);
            } else {
                try {
                    parser.finish(nanos);
                } catch (SseFormatException | RuntimeException e) {
                    parserEnding = endLocked(Outcome.FAILED, "unreadable stream: " + e.getMessage(), nanos);
                }
                if (!ended) {
                    String detail = StreamEnds.detailWithoutDone(
                            contentType, contentEvents, finishReason, settings.requireStreamEnd());
                    parserEnding = endLocked(detail == null ? Outcome.SUCCESS : Outcome.FAILED, detail, nanos);
                }
            }
            ending = takeParserEnding();
        }
        request.afterEnding(ending);
    }

    /** The exchange failed: connection refused or lost, protocol error. */
    @Override
    public void onFailure(Throwable cause, long nanos) {
        synchronized (request) {
            // Nothing of a response arrived and the connection was closed under the request: a pooled connection
            // the server had already closed. Its request may go out again on another one.
            closedBeforeResponse = !ended && headersNanos == ABSENT && ConnectionFailures.isClosedBeforeResponse(cause);
        }
        request.end(this, Outcome.FAILED, ConnectionFailures.describe(cause), nanos);
    }

    /**
     * Ends this attempt, and with it the request, as timed out if it has not ended yet.
     *
     * @return whether this call ended it
     */
    public boolean timeOut(String reason, long nanos) {
        return request.end(this, Outcome.TIMED_OUT, reason, nanos);
    }

    /** Returns whether the response headers have arrived. */
    public boolean hasHeaders() {
        synchronized (request) {
            return headersNanos != ABSENT;
        }
    }

    /** Returns whether the first token has arrived. */
    public boolean hasFirstToken() {
        synchronized (request) {
            return firstTokenNanos != ABSENT;
        }
    }

    public void markSentLocked(long nanos) {
        sentNanos = nanos;
    }

    public long sentNanosLocked() {
        return sentNanos;
    }

    /** Returns whether the attempt failed because its connection closed before any byte of a response. */
    public boolean closedBeforeResponseLocked() {
        return closedBeforeResponse;
    }

    public boolean isEndedLocked() {
        return ended;
    }

    public Exchange exchangeLocked() {
        return exchange;
    }

    /** Ends this attempt; returns what its request does about it outside the monitor. */
    public InFlightRequest.Ending endLocked(Outcome outcome, String detail, long nanos) {
        ended = true;
        return request.attemptEndedLocked(this, outcome, detail, nanos);
    }

    /** Returns the {@code Retry-After} in whole seconds, or -1 when absent or an HTTP date. */
    public long retryAfterSecondsLocked() {
        return StreamEnds.retryAfterSeconds(retryAfter);
    }

    /** Builds the record the request has if this attempt is its last. Call once, when the attempt ends. */
    public RequestRecord recordLocked(
            Outcome outcome,
            String detail,
            long endNanos,
            long dispatchedNanos,
            boolean heldByConcurrencyCap,
            List<RequestAttempt> earlierAttempts,
            int connectionRetries) {
        TokenTally.OutputCount output = tokens.output(contentEvents);
        return new RequestRecord(
                request.index(),
                request.phase(),
                request.intendedNanos(),
                dispatchedNanos,
                headersNanos,
                firstTokenNanos,
                lastTokenNanos,
                endNanos,
                heldByConcurrencyCap,
                httpStatus,
                contentEvents,
                output.tokens(),
                output.source(),
                output.clientTokens(),
                tokens.serverPromptTokens(),
                request.spec().promptTokens(),
                maxStallNanos,
                finishReason,
                outcome,
                outcome == Outcome.SUCCESS ? null : detail,
                earlierAttempts,
                connectionRetries,
                serverTimings,
                phases.phases(tokens.continuousUsageSeen()));
    }

    /** Returns the request's handover, with this attempt's gaps, for its final record. */
    public FinishedRequest finishLocked(RequestRecord record) {
        RequestSpec spec = request.spec();
        return gaps.finish(record, Boolean.TRUE.equals(spec.ignoreEos()), spec.maxTokens(), servedModel);
    }

    private InFlightRequest.Ending takeParserEnding() {
        InFlightRequest.Ending ending = parserEnding;
        parserEnding = null;
        return ending;
    }

    // Called by the parser, inside the monitor, once per event.
    private void onEvent(SseEvent event, long nanos) {
        if (ended) {
            return;
        }
        StreamChunk chunk = decoder.decode(event, servedModel == null);
        if (servedModel == null) {
            servedModel = chunk.model();
        }
        switch (chunk.kind()) {
            case DONE -> {
                String detail = StreamEnds.detailAtDone(
                        contentEvents, finishReason, settings.requireStreamEnd(), tokens.serverOutputTokens());
                parserEnding = endLocked(detail == null ? Outcome.SUCCESS : Outcome.FAILED, detail, nanos);
            }
            case ERROR ->
                parserEnding = endLocked(Outcome.FAILED, "error event in the stream: " + chunk.detail(), nanos);
            case MALFORMED ->
                parserEnding = endLocked(Outcome.FAILED, "malformed stream event: " + chunk.detail(), nanos);
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
            gaps.add(gap, eventTokens);
            maxStallNanos = Math.max(maxStallNanos, gap);
        }
        lastTokenNanos = nanos;
        contentEvents++;
        phases.content(chunk, eventTokens, nanos);
        onUsageAndFinish(chunk);
    }

    private void onUsageAndFinish(StreamChunk chunk) {
        if (chunk.timings() != null) {
            serverTimings = chunk.timings();
        }
        if (chunk.finishReason() != null) {
            finishReason = chunk.finishReason();
        }
        tokens.take(chunk);
        phases.usage(chunk);
    }
}
