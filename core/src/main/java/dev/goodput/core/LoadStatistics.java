package dev.goodput.core;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The load a run asked for and the load it delivered, and the measurement window.
 *
 * @param offeredRate the open-loop rate the profile asked for in requests/s, NaN for a closed loop
 * @param achievedRate the rate at which measured requests were really dispatched, in requests/s
 * @param windowStartNanos the intended start of the first measured request
 * @param windowEndNanos the latest end of a measured request
 * @param peakInFlight the most requests in flight at once (all phases)
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record LoadStatistics(
        double offeredRate, double achievedRate, long windowStartNanos, long windowEndNanos, int peakInFlight) {

    /** Returns the length of the measurement window in nanoseconds (0 without measured requests). */
    public long windowNanos() {
        return Math.max(0, windowEndNanos - windowStartNanos);
    }

    /** Returns the length of the measurement window in seconds. */
    public double windowSeconds() {
        return windowNanos() / 1e9;
    }
}
