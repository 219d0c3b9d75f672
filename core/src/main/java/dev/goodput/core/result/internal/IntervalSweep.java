package dev.goodput.core.result.internal;

import java.util.Arrays;

/**
 * The most half-open intervals {@code [start, end)} that overlap at one instant, by an exact sweep: where one
 * interval ends at the instant another starts, the end is taken first, so the two do not overlap. This is vLLM's
 * {@code max_concurrent_requests} sweep, and Goodput's peak in flight.
 */
public final class IntervalSweep {

    private IntervalSweep() {}

    /**
     * Returns the most intervals open at once.
     *
     * @param starts the start of each interval
     * @param ends the end of each interval, in any order (only the counts at each instant matter)
     */
    public static int peak(long[] starts, long[] ends) {
        if (starts.length != ends.length) {
            throw new IllegalArgumentException(
                    "starts and ends must have the same length, were " + starts.length + " and " + ends.length);
        }
        long[] sortedStarts = starts.clone();
        long[] sortedEnds = ends.clone();
        Arrays.sort(sortedStarts);
        Arrays.sort(sortedEnds);
        int open = 0;
        int peak = 0;
        int nextEnd = 0;
        for (long start : sortedStarts) {
            while (nextEnd < sortedEnds.length && sortedEnds[nextEnd] <= start) {
                open--;
                nextEnd++;
            }
            open++;
            peak = Math.max(peak, open);
        }
        return peak;
    }
}
