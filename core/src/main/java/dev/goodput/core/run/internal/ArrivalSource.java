package dev.goodput.core.run.internal;

import dev.goodput.core.load.Arrivals;
import dev.goodput.core.workload.TimedWorkload;

/** The offsets from the start at which an open loop's requests arrive, in order. */
public interface ArrivalSource {

    /** Returns the offset of the next arrival in nanoseconds, then advances. */
    long next();

    /** Returns the trace's arrivals for {@link Arrivals.TraceTimes}, else the profile's rate schedule. */
    static ArrivalSource of(RunOptions options) {
        if (options.profile().arrivals() instanceof Arrivals.AtRate atRate) {
            return new ArrivalSchedule(atRate);
        }
        if (!(options.workload() instanceof TimedWorkload timed)) {
            throw new IllegalArgumentException("trace arrivals need a TimedWorkload, was " + options.workload());
        }
        return new TraceArrivals(timed);
    }
}
