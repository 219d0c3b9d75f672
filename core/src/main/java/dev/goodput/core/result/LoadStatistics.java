package dev.goodput.core.result;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The load a run asked for and the load it delivered, and the measurement window.
 *
 * @param offeredRate the open-loop rate the profile asked for in requests/s, NaN for a closed loop
 * @param achievedRate the rate at which measured requests were really dispatched, in requests/s
 * @param windowStartNanos the intended start of the first measured request
 * @param windowEndNanos the latest end of a measured request
 * @param peakInFlight the most measured requests in flight at once, each from its send to its end (warm-up and
 *     cool-down requests are left out, as from every other statistic; an end and a send at the same instant do
 *     not overlap)
 * @param peakOutputChunksPerSecond the most content events of measured successful requests in one second, the
 *     seconds counted from the earliest send of such a request, one per event however many tokens it carried
 *     (vLLM's {@code max_output_tokens_per_s}, with second boundaries on whole milliseconds); {@link #NOT_TRACKED}
 *     for a result computed from records alone, which do not hold the instant of every event
 * @param steadyState the part of the window in which the load was steady, or why there was none
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record LoadStatistics(
        double offeredRate,
        double achievedRate,
        long windowStartNanos,
        long windowEndNanos,
        int peakInFlight,
        long peakOutputChunksPerSecond,
        SteadyState steadyState) {

    public LoadStatistics {
        java.util.Objects.requireNonNull(steadyState, "steadyState");
    }

    /** The value of {@link #peakOutputChunksPerSecond} when the run did not track it. */
    @API(status = EXPERIMENTAL, since = "0.2")
    public static final long NOT_TRACKED = -1;

    /** Returns the length of the measurement window in nanoseconds (0 without measured requests). */
    public long windowNanos() {
        return Math.max(0, windowEndNanos - windowStartNanos);
    }

    /** Returns the length of the measurement window in seconds. */
    public double windowSeconds() {
        return windowNanos() / 1e9;
    }
}
