package dev.goodput.core;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * How far a run has got, reported about once a second while it is under way.
 *
 * @param created requests the schedule has created so far
 * @param ended requests that have ended, in any outcome
 * @param plannedRequests the profile's request limit, or 0 when only a duration limits the run
 * @param elapsedNanos time since the run started
 * @param plannedNanos the profile's duration limit in nanoseconds, or 0 when only a request count limits it
 * @param finished whether this is the last report: every request has ended
 * @param unsuccessful requests that have ended without success so far: failed, timed out or cancelled
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record RunProgress(
        long created,
        long ended,
        long plannedRequests,
        long elapsedNanos,
        long plannedNanos,
        boolean finished,
        long unsuccessful) {

    /** Returns the requests in flight or queued. */
    public long inFlight() {
        return created - ended;
    }
}
