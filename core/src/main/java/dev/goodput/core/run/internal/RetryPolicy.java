package dev.goodput.core.run.internal;

import dev.goodput.core.load.Load;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.transport.internal.RetryRule;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * Which failures a retrying client retries, and how long it waits; see {@code Load.retries(int)}. A run that is
 * stopping (its drain ended, or it was interrupted) retries nothing.
 */
final class RetryPolicy implements RetryRule {

    private static final Set<Integer> RETRYABLE_STATUSES = Set.of(408, 429, 500, 502, 503, 504);
    private static final long FIRST_BACKOFF_NANOS = 100_000_000L;

    private final int retries;
    private final long maxWaitNanos;
    private final BooleanSupplier stopping;

    RetryPolicy(Load profile, BooleanSupplier stopping) {
        this.retries = profile.requestPolicy().retries();
        this.maxWaitNanos = profile.requestPolicy().maxRetryWait().toNanos();
        this.stopping = stopping;
    }

    @Override
    public long waitNanos(RequestRecord failedAttempt, long retryAfterSeconds) {
        if (retries == 0
                || failedAttempt.attempts() > retries
                || !isRetryable(failedAttempt)
                || stopping.getAsBoolean()) {
            return -1;
        }
        long wait = waitNanos(retryAfterSeconds, failedAttempt.attempts());
        return wait > maxWaitNanos ? -1 : wait;
    }

    /** A failure before any streamed content: a retryable status, or a connection that got no response. */
    static boolean isRetryable(RequestRecord record) {
        if (record.outcome() != Outcome.FAILED || record.contentEvents() > 0) {
            return false;
        }
        return record.httpStatus() == 0 || RETRYABLE_STATUSES.contains(record.httpStatus());
    }

    /** The server's {@code Retry-After} when it gave one, else 100 ms doubled for each attempt so far. */
    static long waitNanos(long retryAfterSeconds, int attemptsSoFar) {
        if (retryAfterSeconds >= 0) {
            // Capped far above any sensible maxRetryWait, so the multiplication cannot overflow.
            return Math.min(retryAfterSeconds, 1_000_000L) * 1_000_000_000L;
        }
        return FIRST_BACKOFF_NANOS << Math.min(attemptsSoFar - 1, 20);
    }
}
