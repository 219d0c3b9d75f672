package dev.goodput.core.run.internal;

import dev.goodput.core.workload.TimedWorkload;

/**
 * The intended start times of a replayed trace: request {@code i} arrives at the workload's offset {@code i}.
 * Past the trace's end it returns offsets that no run reaches, so the request limit ends creation first.
 */
final class TraceArrivals implements ArrivalSource {

    private final TimedWorkload workload;
    private long next;

    TraceArrivals(TimedWorkload workload) {
        this.workload = workload;
    }

    @Override
    public long next() {
        long index = next++;
        if (index >= workload.size()) {
            // A century: beyond any duration limit, and far from overflowing when added to a start instant.
            return 100L * 365 * 24 * 3600 * 1_000_000_000L;
        }
        return workload.arrivalOffsetNanos(index);
    }
}
