package dev.goodput.core.record;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * How a request ended. Every request that a load schedule creates ends in exactly one outcome, and the run
 * result counts each one.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public enum Outcome {
    /** The stream completed normally: {@code [DONE]} (where required) and a finish reason arrived. */
    SUCCESS,
    /**
     * The server or the connection failed: HTTP status 400 or above, an error object inside the stream, a
     * malformed stream, or a lost connection.
     */
    FAILED,
    /** A configured per-request timeout (headers, first token or total) fired. */
    TIMED_OUT,
    /** The request was still queued or in flight when the run ended its drain period. */
    CANCELLED
}
