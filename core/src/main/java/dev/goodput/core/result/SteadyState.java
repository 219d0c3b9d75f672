package dev.goodput.core.result;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The part of a run's measurement window in which the load was steady: the offered rate, the achieved
 * (completion) rate and the number of requests in flight were stable, with the ramp-up at the start and the
 * drain at the end left out. Detected from the measured requests by MSER-5 truncation (White 1997) from both
 * ends of the in-flight, arrival and completion series, then checked for balance and trend; {@code
 * docs/metrics.md} ("Steady state") gives the method and its parameters.
 *
 * @param found whether a steady window was found
 * @param startNanos the window's start on the run's clock (0 when not found)
 * @param endNanos the window's end on the run's clock (0 when not found)
 * @param requests the measured requests whose intended start lies inside the window, {@code [start, end)}
 * @param measuredRequests the measured requests of the run, for the share inside
 * @param offeredRate the intended starts inside the window per second (NaN when not found)
 * @param achievedRate the ends of requests inside the window per second (NaN when not found)
 * @param meanInFlight the time-weighted mean of requests in flight inside the window (NaN when not found)
 * @param reason why no window was found, else {@code null}
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record SteadyState(
        boolean found,
        long startNanos,
        long endNanos,
        long requests,
        long measuredRequests,
        double offeredRate,
        double achievedRate,
        double meanInFlight,
        String reason) {

    public SteadyState {
        if (found != (reason == null)) {
            throw new IllegalArgumentException("a steady state has a reason exactly when it was not found, reason = "
                    + reason + ", found = " + found);
        }
        if (found && endNanos <= startNanos) {
            throw new IllegalArgumentException(
                    "a steady window must end after it starts, was " + startNanos + " .. " + endNanos);
        }
    }

    /**
     * Returns the result for a run in which no steady window was found.
     *
     * @param measuredRequests the measured requests of the run
     * @param reason why, as a phrase that completes "no steady state: ..."
     */
    public static SteadyState notFound(long measuredRequests, String reason) {
        return new SteadyState(
                false,
                0,
                0,
                0,
                measuredRequests,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Objects.requireNonNull(reason, "reason"));
    }

    /** Returns the window's length in seconds (0 when not found). */
    public double seconds() {
        return found ? (endNanos - startNanos) / 1e9 : 0;
    }

    /** Returns the share of the measured requests that started inside the window (0 when not found). */
    public double share() {
        return measuredRequests == 0 ? 0 : (double) requests / measuredRequests;
    }

    /** Returns whether a request that was meant to start at {@code intendedNanos} lies inside the window. */
    public boolean contains(long intendedNanos) {
        return found && intendedNanos >= startNanos && intendedNanos < endNanos;
    }
}
