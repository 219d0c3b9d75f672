package dev.goodput.core.record;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.load.Load;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One earlier attempt of a request that was retried ({@link Load#retries(int)}): what the server
 * answered and why the client tried again. The request's final attempt is the {@link RequestRecord} itself.
 *
 * @param number the attempt's number, starting at 1
 * @param dispatchedNanos when the attempt left the client
 * @param endNanos when it ended
 * @param httpStatus the HTTP status, or 0 when no response arrived
 * @param reason why the attempt failed, as a {@link RequestRecord#errorDetail()} would say it
 * @param waitNanos how long the client waited before the next attempt ({@code Retry-After} or back-off)
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record RequestAttempt(
        int number, long dispatchedNanos, long endNanos, int httpStatus, String reason, long waitNanos) {

    public RequestAttempt {
        Objects.requireNonNull(reason, "reason");
    }
}
