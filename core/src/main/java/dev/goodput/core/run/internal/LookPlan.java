package dev.goodput.core.run.internal;

import dev.goodput.core.load.Load;
import dev.goodput.core.stats.internal.SequentialBoundary;
import java.util.Arrays;
import java.util.Optional;

/**
 * When a run that lasts until decided looks at its objectives, and at what confidence: at its first look's count of
 * measured requests, then each time that count has doubled, last at every measured request of its maximum (a step
 * to the maximum shorter than a quarter of it is merged into the last look); each look at the confidence
 * {@link SequentialBoundary} gives for these looks (rounded up to a tenth of a percent), so that all of them together
 * keep the run's.
 *
 * @param measuredCounts the measured requests of each look, increasing
 * @param lookConfidence the confidence of each look's intervals
 */
public record LookPlan(long[] measuredCounts, double lookConfidence) {

    public LookPlan {
        measuredCounts = measuredCounts.clone();
    }

    /** Returns the plan of a load that lasts until decided, empty for a run of fixed length. */
    public static Optional<LookPlan> of(Load load, double confidence) {
        if (load.firstLookRequests().isEmpty()) {
            return Optional.empty();
        }
        long first = load.firstLookRequests().getAsLong();
        long requests = load.limits().requests().orElseThrow();
        // A warm-up by time leaves an unknown number of measured requests; the request limit bounds it.
        long measured = requests - load.warmup().requests().orElse(0);
        return Optional.of(doubling(first, measured, confidence));
    }

    /**
     * Returns the plan that looks at {@code first}, then each time the count has doubled, last at {@code last}
     * (the looks of a run that lasts until decided, counted in measured requests, or an A/B run's, counted in
     * pairs of blocks).
     *
     * @param first the count of the first look, at least 1
     * @param last the count of the last look, at least {@code first}
     */
    public static LookPlan doubling(long first, long last, double confidence) {
        if (first < 1 || last < first) {
            throw new IllegalArgumentException("looks need 1 <= first <= last, were " + first + " and " + last);
        }
        long[] counts = new long[64];
        int looks = 0;
        for (long count = first; count < last; count *= 2) {
            counts[looks++] = count;
        }
        if (looks > 0 && counts[looks - 1] * 4 > last * 3) {
            looks--;
        }
        counts[looks++] = last;
        long[] planned = Arrays.copyOf(counts, looks);
        // Rounded up to a tenth of a percent: a level a report can print, and never less than the boundary asks.
        double level = Math.ceil(SequentialBoundary.lookConfidence(planned, confidence) * 1000) / 1000;
        return new LookPlan(planned, Math.min(level, 0.9999));
    }

    /** Returns the number of looks planned. */
    public int looks() {
        return measuredCounts.length;
    }

    /** Returns the measured requests of the look numbered from 0. */
    public long measuredAt(int look) {
        return measuredCounts[look];
    }

    /** Returns where the recorder's gap segments end: every look's count but the last. */
    public long[] segmentEnds() {
        return Arrays.copyOf(measuredCounts, measuredCounts.length - 1);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof LookPlan plan
                && Arrays.equals(measuredCounts, plan.measuredCounts)
                && lookConfidence == plan.lookConfidence;
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(measuredCounts) + Double.hashCode(lookConfidence);
    }

    @Override
    public String toString() {
        return "looks at " + Arrays.toString(measuredCounts) + " measured requests, each at " + lookConfidence;
    }
}
