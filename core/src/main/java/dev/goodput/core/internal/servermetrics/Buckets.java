package dev.goodput.core.internal.servermetrics;

import java.util.Arrays;

/**
 * A cumulative Prometheus histogram: upper bounds in ascending order (the last may be +Inf) with the count of
 * observations at or below each, plus the sum and count of all observations. The arrays are copied in and out,
 * so an instance never changes.
 *
 * @param upperBounds the {@code le} bounds, strictly ascending
 * @param cumulativeCounts the observations at or below each bound, as many as there are bounds
 * @param sum the sum of all observations
 * @param count the number of observations (the {@code +Inf} bucket's count when there is one)
 */
public record Buckets(double[] upperBounds, double[] cumulativeCounts, double sum, double count) {

    /** Checks that bounds and counts pair up and the bounds ascend, and copies both arrays. */
    public Buckets {
        if (upperBounds.length != cumulativeCounts.length) {
            throw new IllegalArgumentException("upperBounds has " + upperBounds.length
                    + " entries but cumulativeCounts " + cumulativeCounts.length);
        }
        for (int i = 1; i < upperBounds.length; i++) {
            if (!(upperBounds[i] > upperBounds[i - 1])) {
                throw new IllegalArgumentException("upperBounds must ascend, but " + upperBounds[i] + " follows "
                        + upperBounds[i - 1] + " at index " + i);
            }
        }
        upperBounds = upperBounds.clone();
        cumulativeCounts = cumulativeCounts.clone();
    }

    @Override
    public double[] upperBounds() {
        return upperBounds.clone();
    }

    @Override
    public double[] cumulativeCounts() {
        return cumulativeCounts.clone();
    }

    /**
     * Returns the observations made between {@code earlier} and this reading of the same histogram, bucket by
     * bucket. When any count went down, or the bounds changed, the server restarted in between, so everything
     * this reading holds was observed since: this is returned alone.
     */
    public Buckets minus(Buckets earlier) {
        if (!Arrays.equals(upperBounds, earlier.upperBounds) || count < earlier.count) {
            return this;
        }
        double[] counts = new double[cumulativeCounts.length];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = cumulativeCounts[i] - earlier.cumulativeCounts[i];
            if (counts[i] < 0) {
                return this;
            }
        }
        return new Buckets(upperBounds, counts, sum - earlier.sum, count - earlier.count);
    }

    /**
     * Estimates quantile {@code q} as Prometheus' {@code histogram_quantile} does: linear interpolation inside
     * the bucket that holds the rank, the first bucket starting at 0 (or returning its bound when that is not
     * positive), and the highest finite bound when the rank falls in the +Inf bucket. Counts that dip (a scrape
     * racing an observation) are evened out upwards first, as Prometheus does.
     *
     * @param q the quantile, 0 to 1
     * @return the estimate in the unit of the bounds, or NaN when there are no observations
     */
    public double quantile(double q) {
        if (!(q >= 0 && q <= 1)) {
            throw new IllegalArgumentException("q must be between 0 and 1, got " + q);
        }
        int buckets = upperBounds.length;
        boolean infinite = buckets > 0 && upperBounds[buckets - 1] == Double.POSITIVE_INFINITY;
        double[] bounds = infinite ? upperBounds : Arrays.copyOf(upperBounds, buckets + 1);
        double[] counts = infinite ? cumulativeCounts.clone() : Arrays.copyOf(cumulativeCounts, buckets + 1);
        if (!infinite) {
            // Without a +Inf bucket the count says how many lie above the last bound.
            bounds[buckets] = Double.POSITIVE_INFINITY;
            counts[buckets] = count;
        }
        for (int i = 1; i < counts.length; i++) {
            counts[i] = Math.max(counts[i], counts[i - 1]);
        }
        int last = counts.length - 1;
        double observations = counts[last];
        if (observations == 0 || counts.length < 2) {
            return Double.NaN;
        }
        double rank = q * observations;
        int bucket = 0;
        while (bucket < last && counts[bucket] < rank) {
            bucket++;
        }
        if (bucket == last) {
            return bounds[last - 1];
        }
        if (bucket == 0 && bounds[0] <= 0) {
            return bounds[0];
        }
        double start = bucket == 0 ? 0 : bounds[bucket - 1];
        double below = bucket == 0 ? 0 : counts[bucket - 1];
        double inBucket = counts[bucket] - below;
        if (inBucket == 0) {
            return start; // only when q is 0 and the first bucket is empty
        }
        return start + (bounds[bucket] - start) * ((rank - below) / inBucket);
    }

    /** Returns the mean observation, {@code sum / count}, or NaN when there are no observations. */
    public double mean() {
        return count == 0 ? Double.NaN : sum / count;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Buckets that
                && Arrays.equals(upperBounds, that.upperBounds)
                && Arrays.equals(cumulativeCounts, that.cumulativeCounts)
                && Double.compare(sum, that.sum) == 0
                && Double.compare(count, that.count) == 0;
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Arrays.hashCode(upperBounds) + Arrays.hashCode(cumulativeCounts))
                + Double.hashCode(sum)
                + Double.hashCode(count);
    }

    @Override
    public String toString() {
        return "Buckets[upperBounds=" + Arrays.toString(upperBounds) + ", cumulativeCounts="
                + Arrays.toString(cumulativeCounts) + ", sum=" + sum + ", count=" + count + "]";
    }
}
