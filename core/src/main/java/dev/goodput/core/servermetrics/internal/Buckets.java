package dev.goodput.core.servermetrics.internal;

import java.util.Arrays;
import java.util.Optional;

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
     * racing an observation) are evened out upwards first, as Prometheus does. The interpolation is a guess the
     * buckets cannot back; {@link #bucketOf(double)} says what they do know, and that is what the reports show.
     *
     * @param q the quantile, 0 to 1
     * @return the estimate in the unit of the bounds, or NaN when there are no observations
     */
    public double quantile(double q) {
        Rank rank = rank(q);
        if (rank == null) {
            return Double.NaN;
        }
        if (rank.upper() == Double.POSITIVE_INFINITY) {
            return rank.lower();
        }
        if (rank.lower() == Double.NEGATIVE_INFINITY) {
            return rank.upper();
        }
        if (rank.inBucket() == 0) {
            return rank.lower(); // only when q is 0 and the first bucket is empty
        }
        return rank.lower() + (rank.upper() - rank.lower()) * (rank.intoBucket() / rank.inBucket());
    }

    /**
     * Returns the bucket that holds quantile {@code q}: all the buckets know of it is that it lies above the
     * bucket's lower bound and at or below its upper bound. The first bucket starts at 0 (latencies are not
     * negative; at minus infinity when its bound is not positive); past the highest finite bound the upper bound
     * is infinite. Empty when there are no observations.
     *
     * @param q the quantile, 0 to 1
     */
    public Optional<Bucket> bucketOf(double q) {
        Rank rank = rank(q);
        return rank == null ? Optional.empty() : Optional.of(new Bucket(rank.lower(), rank.upper()));
    }

    /**
     * Where a quantile lies as far as the buckets tell.
     *
     * @param lower the bound it lies above, 0 for the first bucket
     * @param upper the bound it lies at or below, infinite past the highest finite bound
     */
    public record Bucket(double lower, double upper) {}

    /** The bucket that holds a rank, with how many observations it holds and how far into them the rank is. */
    private record Rank(double lower, double upper, double inBucket, double intoBucket) {}

    private Rank rank(double q) {
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
            return null;
        }
        double rank = q * observations;
        int bucket = 0;
        while (bucket < last && counts[bucket] < rank) {
            bucket++;
        }
        double below = bucket == 0 ? 0 : counts[bucket - 1];
        double lower = bucket > 0 ? bounds[bucket - 1] : bounds[0] <= 0 ? Double.NEGATIVE_INFINITY : 0;
        return new Rank(lower, bounds[bucket], counts[bucket] - below, rank - below);
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
