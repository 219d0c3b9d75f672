package dev.goodput.core.run.internal;

import org.HdrHistogram.Histogram;

/** Lets tests in other packages record wake-ups as the pause meter does. */
public final class PauseMeterAccess {

    private PauseMeterAccess() {}

    /** Records one wake-up {@code lateNanos} late, with the wake-ups a longer pause swallowed. */
    public static void record(Histogram histogram, long lateNanos) {
        PauseMeter.record(histogram, lateNanos);
    }
}
