package dev.goodput.core.transport.internal;

import dev.goodput.core.record.RequestRecord;

/** Decides whether a request whose attempt failed starts another attempt, and after how long. */
@FunctionalInterface
public interface RetryRule {

    /** Never retries. */
    RetryRule NEVER = (failedAttempt, retryAfterSeconds) -> -1;

    /**
     * Returns the wait before the next attempt, or a negative number for none. Called under the request's monitor,
     * so it must neither block nor call into the request.
     *
     * @param failedAttempt the record the request would have if this failed attempt were its last
     * @param retryAfterSeconds the response's {@code Retry-After} in whole seconds, or -1 when it gave none
     */
    long waitNanos(RequestRecord failedAttempt, long retryAfterSeconds);
}
