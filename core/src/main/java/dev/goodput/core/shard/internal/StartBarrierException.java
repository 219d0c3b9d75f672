package dev.goodput.core.shard.internal;

/**
 * The shards could not agree on a start: a shard never checked in before the timeout, the coordinator could not
 * be reached, or a shard's index, count or run identity does not fit the coordinator's. The message says which.
 */
public final class StartBarrierException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    StartBarrierException(String message) {
        super(message);
    }

    StartBarrierException(String message, Throwable cause) {
        super(message, cause);
    }
}
