package dev.goodput.core.transport.internal;

import static dev.goodput.core.record.RequestRecord.ABSENT;

import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestAttempt;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.transport.Exchange;
import dev.goodput.core.workload.RequestSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One request from its creation by the schedule until its one record, as OkHttp's {@code Call} outlives its
 * exchanges: it owns its attempts ({@link MeasuredAttempt}, one per HTTP exchange), keeps the earlier ones when it
 * retries, and ends exactly once, handing over a {@link FinishedRequest}. Its latencies count from its intended
 * start, and its send is its first attempt's, whatever the retries.
 *
 * <p>A retry is the same request starting its next attempt after the wait: when an attempt fails, the
 * {@link RetryRule} decides under this monitor, the failed attempt joins the earlier ones, and a fresh attempt
 * waits to be {@linkplain #send sent}. A cancellation during the wait ends the request with the failed attempt
 * kept.
 *
 * <p>A send whose connection closed before any byte of a response (a pooled keep-alive connection the server had
 * already closed) never reached the server: it is sent again at once, counted as a connection retry in the record,
 * and neither fails the request nor spends its retries.
 *
 * <p>Thread-safety: the transport calls its attempts from its threads, timeouts and cancellation come from others.
 * The request and all its attempts are guarded by this object's monitor; the listener and the exchange abort are
 * called outside it, so that a driver holding its own lock can cancel requests without deadlock.
 */
public final class InFlightRequest {

    /**
     * How many times one request is sent again after its connection closed before any response. The client drops
     * a dead connection from its pool, so the next send takes another pooled one or a new one; with several
     * connections closed at once a few sends may meet dead ones in turn. A server that closes every connection
     * before answering fails the request after these sends.
     */
    static final int MAX_CONNECTION_RETRIES = 3;

    private final long index;
    private final Phase phase;
    private final RequestSpec spec;
    private final long intendedNanos;
    private final StreamSettings settings;
    private final RetryRule retryRule;
    private final RequestListener listener;

    // Guarded by this.
    private MeasuredAttempt current;
    // Retries are rare: a shared empty list until the first, then a copy per retry.
    private List<RequestAttempt> earlierAttempts = List.of();
    private int connectionRetries;
    private long firstSentNanos = ABSENT;
    private boolean heldByConcurrencyCap;
    private RequestRecord record;

    public InFlightRequest(
            long index,
            Phase phase,
            RequestSpec spec,
            long intendedNanos,
            StreamSettings settings,
            RetryRule retryRule,
            RequestListener listener) {
        this.index = index;
        this.phase = Objects.requireNonNull(phase, "phase");
        this.spec = Objects.requireNonNull(spec, "spec");
        this.intendedNanos = intendedNanos;
        this.settings = Objects.requireNonNull(settings, "settings");
        this.retryRule = Objects.requireNonNull(retryRule, "retryRule");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.current = new MeasuredAttempt(this, 1, settings);
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

    /**
     * Returns whether this request is being sent again because a connection closed under an earlier send: a
     * transport that can choose should send it on a new connection, which the server cannot have closed already.
     */
    public synchronized boolean isResentAfterClosedConnection() {
        return connectionRetries > 0;
    }

    /**
     * Sends the next attempt now: notes the instant and returns the attempt for the transport, or {@code null} when
     * the request already ended (cancelled while it waited). The first send is the request's: its queue time and
     * whether a concurrency cap held it are the client's, once.
     */
    public synchronized MeasuredAttempt send(long nanos, boolean heldByCap) {
        if (record != null) {
            return null;
        }
        if (firstSentNanos == ABSENT) {
            firstSentNanos = nanos;
            heldByConcurrencyCap = heldByCap;
        }
        current.markSentLocked(nanos);
        return current;
    }

    /**
     * The first attempt's request left the client at {@code nanos}: that is the request's send. A send again after
     * a connection closed under it is the same attempt; its last write is the one the server saw.
     */
    public void writtenLocked(MeasuredAttempt attempt, long nanos) {
        if (attempt == current && attempt.number() == 1) {
            firstSentNanos = nanos;
        }
    }

    /** Returns the first attempt's send, or {@link RequestRecord#ABSENT} while the request waits for it. */
    public synchronized long dispatchedNanos() {
        return firstSentNanos;
    }

    /**
     * Ends the request as cancelled if it has not ended yet, whatever its attempt is doing: streaming, waiting to
     * be sent, or waiting for its retry.
     *
     * @return whether this call ended it
     */
    public boolean cancel(String reason, long nanos) {
        return end(null, Outcome.CANCELLED, reason, nanos);
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
     * Ends {@code attempt} (the current one when {@code null}) from outside a stream: a failure, a timeout, a
     * cancellation. Its exchange is aborted.
     *
     * @return whether this call ended it
     */
    public boolean end(MeasuredAttempt attempt, Outcome outcome, String detail, long nanos) {
        Ending ending;
        Exchange toAbort;
        synchronized (this) {
            MeasuredAttempt target = attempt == null ? current : attempt;
            if (record != null || target != current || target.isEndedLocked()) {
                return false;
            }
            toAbort = target.exchangeLocked();
            ending = target.endLocked(outcome, detail, nanos);
        }
        if (toAbort != null) {
            toAbort.abort();
        }
        afterEnding(ending);
        return true;
    }

    /**
     * Decides, under the monitor, what the end of the current attempt means: another attempt after a wait, or the
     * request's record. Returns what to do outside the monitor.
     */
    public Ending attemptEndedLocked(MeasuredAttempt attempt, Outcome outcome, String detail, long nanos) {
        if (outcome == Outcome.FAILED
                && attempt.closedBeforeResponseLocked()
                && connectionRetries < MAX_CONNECTION_RETRIES) {
            // The server never saw this send: the same attempt goes out again at once, on another connection.
            connectionRetries++;
            current = new MeasuredAttempt(this, attempt.number(), settings);
            return new Ending(0, null);
        }
        RequestRecord last = attempt.recordLocked(
                outcome, detail, nanos, firstSentNanos, heldByConcurrencyCap, earlierAttempts, connectionRetries);
        long waitNanos = outcome == Outcome.FAILED ? retryRule.waitNanos(last, attempt.retryAfterSecondsLocked()) : -1;
        if (waitNanos >= 0) {
            List<RequestAttempt> attempts = new ArrayList<>(earlierAttempts);
            attempts.add(new RequestAttempt(
                    attempt.number(),
                    attempt.sentNanosLocked(),
                    nanos,
                    last.httpStatus(),
                    last.errorDetail(),
                    waitNanos));
            earlierAttempts = List.copyOf(attempts);
            current = new MeasuredAttempt(this, attempt.number() + 1, settings);
            return new Ending(waitNanos, null);
        }
        record = last;
        return new Ending(-1, attempt.finishLocked(last));
    }

    /** Tells the listener what an ending means; called outside the monitor. Does nothing for {@code null}. */
    public void afterEnding(Ending ending) {
        if (ending == null) {
            return;
        }
        if (ending.finished() != null) {
            listener.finished(this, ending.finished());
        } else {
            listener.retrying(this, ending.retryWaitNanos());
        }
    }

    /** What an attempt's end means: a retry after a wait, or the request's handover. */
    public record Ending(long retryWaitNanos, FinishedRequest finished) {}
}
