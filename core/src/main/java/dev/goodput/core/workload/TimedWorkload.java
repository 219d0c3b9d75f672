package dev.goodput.core.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A workload that also says when each request starts: a replayed trace. Run it with {@link
 * dev.goodput.core.load.Load#traceReplay()}; the arrival offsets become the requests' intended start times,
 * so a late client shows up as send lag exactly as with a rate.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface TimedWorkload extends WorkloadSpec {

    /** Returns how many requests the trace holds. */
    long size();

    /** Returns when request {@code index} starts, in nanoseconds after the run's start; never decreasing. */
    long arrivalOffsetNanos(long index);
}
