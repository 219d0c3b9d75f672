package dev.goodput.core.load;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.internal.Settings;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.RequestRecord;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What the client does for each request: how long it waits for headers, the first token and the whole response,
 * and whether it retries a request that failed before streaming anything. Every timeout is counted from the
 * attempt's send and ends the request as {@link Outcome#TIMED_OUT}.
 *
 * <p>Retries are off by default because a retry hides what a user of the server saw; turn them on to measure a
 * client that retries, as most SDKs do. Retried: HTTP 408, 429, 500, 502, 503 and 504, and a connection that
 * failed before any response. Never retried: a timeout, a cancellation, any other status, or a failure after the
 * first byte of the stream (a retry would count the request's tokens twice). The wait honours a {@code
 * Retry-After} of whole seconds; without one it backs off 100 ms, 200 ms, 400 ms and so on. A wait longer than
 * {@link #maxRetryWait()} is not waited: the request keeps its failure. Each attempt gets its own timeouts, the
 * request's latencies still count from its intended start, and every earlier attempt is kept in {@link
 * RequestRecord#retriedAttempts()}.
 *
 * @param headersTimeout the longest wait for the response's status and headers, if any
 * @param firstTokenTimeout the longest wait for the first token, if any
 * @param totalTimeout the longest a request may take (default 5 minutes)
 * @param retries how often a failed request is sent again, 0 to 10 (default 0)
 * @param maxRetryWait the longest wait before a retry, a server's {@code Retry-After} included (default 10 s)
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record RequestPolicy(
        Optional<Duration> headersTimeout,
        Optional<Duration> firstTokenTimeout,
        Duration totalTimeout,
        int retries,
        Duration maxRetryWait) {

    /** The default policy: a 5-minute total timeout, no other timeout, no retries. */
    public static final RequestPolicy DEFAULT =
            new RequestPolicy(Optional.empty(), Optional.empty(), Duration.ofMinutes(5), 0, Duration.ofSeconds(10));

    public RequestPolicy {
        Objects.requireNonNull(headersTimeout, "headersTimeout")
                .ifPresent(value -> Settings.positive("headersTimeout", value));
        Objects.requireNonNull(firstTokenTimeout, "firstTokenTimeout")
                .ifPresent(value -> Settings.positive("firstTokenTimeout", value));
        Settings.positive("totalTimeout", totalTimeout);
        Settings.between("retries", retries, 0, 10);
        Settings.positive("maxRetryWait", maxRetryWait);
    }

    /** Returns this policy with a headers timeout. */
    public RequestPolicy withHeadersTimeout(Duration value) {
        return new RequestPolicy(Optional.of(value), firstTokenTimeout, totalTimeout, retries, maxRetryWait);
    }

    /** Returns this policy with a first-token timeout. */
    public RequestPolicy withFirstTokenTimeout(Duration value) {
        return new RequestPolicy(headersTimeout, Optional.of(value), totalTimeout, retries, maxRetryWait);
    }

    /** Returns this policy with another total timeout. */
    public RequestPolicy withTotalTimeout(Duration value) {
        return new RequestPolicy(headersTimeout, firstTokenTimeout, value, retries, maxRetryWait);
    }

    /** Returns this policy with another retry count. */
    public RequestPolicy withRetries(int value) {
        return new RequestPolicy(headersTimeout, firstTokenTimeout, totalTimeout, value, maxRetryWait);
    }

    /** Returns this policy with another longest retry wait. */
    public RequestPolicy withMaxRetryWait(Duration value) {
        return new RequestPolicy(headersTimeout, firstTokenTimeout, totalTimeout, retries, value);
    }
}
