package dev.goodput.mock.internal.engine;

/**
 * How late an engine thread delivered emissions against their intended times: its own health, so that a test or
 * benchmark can tell model time from the mock's scheduling noise. Written by one engine thread, read by any.
 */
final class EmissionLateness {

    /** Lateness beyond which an emission counts as late: the runner fell behind the model. */
    static final long LATE_NANOS = 1_000_000;

    private volatile long count;
    private volatile long late;
    private volatile long totalNanos;
    private volatile long maxNanos;

    /** Records one delivery {@code latenessNanos} after its intended time (single writer). */
    void record(long latenessNanos) {
        count++;
        totalNanos += latenessNanos;
        if (latenessNanos > LATE_NANOS) {
            late++;
        }
        if (latenessNanos > maxNanos) {
            maxNanos = latenessNanos;
        }
    }

    long count() {
        return count;
    }

    /** Returns the deliveries more than {@link #LATE_NANOS} after their intended time. */
    long late() {
        return late;
    }

    long maxNanos() {
        return maxNanos;
    }

    long meanNanos() {
        long n = count;
        return n == 0 ? 0 : totalNanos / n;
    }

    @Override
    public String toString() {
        return "EmissionLateness[count=" + count + ", late=" + late + ", meanNanos=" + meanNanos() + ", maxNanos="
                + maxNanos + "]";
    }
}
