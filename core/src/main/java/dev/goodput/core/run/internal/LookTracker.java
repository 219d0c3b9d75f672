package dev.goodput.core.run.internal;

import java.util.BitSet;

/**
 * Knows when a sequential run's look may be taken: when the first {@code counts[k]} measured requests, in schedule
 * order, have all ended, whatever order they ended in, so that a look never judges only the requests that happened
 * to end first (the fast ones). Not thread-safe: its {@link LoadDriver} calls it under its monitor.
 */
final class LookTracker {

    /** A look that is ready: its number from 0, and the index of the first request after its measured ones. */
    record Ready(int look, long endIndex) {}

    private final long[] counts;
    private final BitSet ended = new BitSet();
    private long firstMeasuredIndex = -1;
    private int endedInOrder;
    private int nextLook;

    LookTracker(long[] counts) {
        this.counts = counts.clone();
    }

    /** Takes the index of the run's first measured request, as it is created. */
    void firstMeasured(long index) {
        firstMeasuredIndex = index;
    }

    /**
     * Takes the end of a measured request and returns the look it made ready, or {@code null}. When several become
     * ready at once, only the latest is returned: an earlier one has nothing more to say.
     */
    Ready measuredEnded(long index) {
        ended.set(Math.toIntExact(index - firstMeasuredIndex));
        while (ended.get(endedInOrder)) {
            endedInOrder++;
        }
        Ready ready = null;
        while (nextLook < counts.length && endedInOrder >= counts[nextLook]) {
            ready = new Ready(nextLook, firstMeasuredIndex + counts[nextLook]);
            nextLook++;
        }
        return ready;
    }
}
