package dev.goodput.core.stats.internal;

import dev.goodput.core.stats.ConfidenceInterval;
import java.util.OptionalLong;

/**
 * The ranks of the distribution-free confidence interval for a quantile: two order statistics of the
 * samples themselves, chosen from the binomial distribution. Immutable.
 *
 * <p>Let {@code ξ} be the true {@code p}-quantile and {@code B ~ Bin(n, p)} the number of samples at or
 * below it, with distribution function {@code F}. The {@code k}-th smallest sample {@code X(k)} lies above
 * {@code ξ} exactly when fewer than {@code k} samples lie at or below it, so
 * {@code P(X(k) > ξ) = F(k - 1)}; likewise {@code P(X(k) < ξ) = P(B >= k) = 1 - F(k - 1)}. An equal-tailed
 * interval {@code [X(l), X(u)]} at confidence {@code c} allows {@code t = (1 - c) / 2} in each tail:
 *
 * <ul>
 *   <li>the lower rank {@code l} is the largest {@code k} with {@code F(k - 1) <= t};
 *   <li>the upper rank {@code u} is the smallest {@code k} with {@code F(k - 1) >= 1 - t};
 * </ul>
 *
 * <p>and then {@code P(X(l) <= ξ <= X(u)) = F(u - 1) - F(l - 1) >= c}. A lower rank exists once
 * {@code F(0) = (1 - p)^n <= t}, an upper rank once {@code P(B = n) = p^n <= t}. With ties (discrete data)
 * the coverage only grows. Each bound on its own holds with confidence {@code 1 - t}.
 *
 * <p>Worked example, the median of {@code n = 10} at 95% ({@code t = 0.025}): {@code F(k) = Σ C(10, j) / 1024}
 * for {@code j <= k}, so {@code F(0) = 1/1024}, {@code F(1) = 11/1024 ≈ 0.0107} and
 * {@code F(2) = 56/1024 ≈ 0.0547}. The largest {@code k} with {@code F(k - 1) <= 0.025} is {@code l = 2}. By
 * symmetry {@code F(7) = 968/1024 ≈ 0.945} and {@code F(8) = 1013/1024 ≈ 0.989}, so the smallest {@code k}
 * with {@code F(k - 1) >= 0.975} is {@code u = 9}. The interval {@code [X(2), X(9)]} covers the median with
 * probability {@code (1013 - 11) / 1024 ≈ 0.9785}.
 *
 * <p>With few samples of an extreme percentile the interval need not contain the type 7 estimate: for p99.9
 * of 8 samples {@code F(7) = 1 - 0.999^8 ≈ 0.008}, so the lower bound is {@code X(8)}, the maximum, while
 * type 7 interpolates just below it. The true quantile most likely lies above every sample; verdicts follow
 * the interval.
 *
 * <p>Ranks are exact (see {@link BinomialRanks}) up to a binomial variance of 250,000, which includes every
 * {@code n} up to 1,000,000; above it the normal approximation with continuity correction is used.
 */
public final class OrderStatisticInterval {

    /** The method text of the intervals this class makes. */
    public static final String METHOD = "order statistics (binomial)";

    /** The rank reported for a bound that does not exist; real ranks start at 1. */
    public static final long NO_RANK = BinomialRanks.NONE;

    private final long count;
    private final double probability;
    private final double confidence;
    private final long lowerRank;
    private final long upperRank;

    private OrderStatisticInterval(long count, double probability, double confidence, long lowerRank, long upperRank) {
        this.count = count;
        this.probability = probability;
        this.confidence = confidence;
        this.lowerRank = lowerRank;
        this.upperRank = upperRank;
    }

    /**
     * Returns the ranks of the interval for the {@code probability}-quantile of {@code count} samples.
     *
     * @param count the number of samples, 0 or more (0 gives no ranks)
     * @param probability the quantile as a fraction, above 0 and at most 1 (0.99 for p99)
     * @param confidence the confidence level, strictly between 0 and 1
     */
    public static OrderStatisticInterval of(long count, double probability, double confidence) {
        if (count < 0) {
            throw new IllegalArgumentException("count must be at least 0, was " + count);
        }
        requireProbability(probability);
        Confidence.require(confidence);
        if (count == 0) {
            return new OrderStatisticInterval(0, probability, confidence, NO_RANK, NO_RANK);
        }
        BinomialRanks.Pair ranks = BinomialRanks.of(count, probability, confidence);
        return new OrderStatisticInterval(count, probability, confidence, ranks.lower(), ranks.upper());
    }

    /**
     * Returns the interval for a percentile (above 0, at most 100) of a distribution, with method
     * {@value #METHOD}; a bound that does not exist is NaN.
     */
    public static ConfidenceInterval forPercentile(Distribution samples, double percentile, double confidence) {
        return of(samples.count(), percentile / 100, confidence).applyTo(samples);
    }

    /**
     * Returns the smallest sample count for which the lower bound exists: the smallest {@code n} with
     * {@code (1 - p)^n <= (1 - confidence) / 2}.
     */
    public static long minimumCountForLowerBound(double probability, double confidence) {
        requireProbability(probability);
        return smallestCount(1 - probability, Confidence.tail(confidence));
    }

    /**
     * Returns the smallest sample count for which the upper bound exists, the smallest {@code n} with
     * {@code p^n <= (1 - confidence) / 2} (368 for p99 at 95%), or empty when none does ({@code p = 1}).
     */
    public static OptionalLong minimumCountForUpperBound(double probability, double confidence) {
        requireProbability(probability);
        double tail = Confidence.tail(confidence);
        return probability == 1 ? OptionalLong.empty() : OptionalLong.of(smallestCount(probability, tail));
    }

    /**
     * Returns the interval these ranks give on the given samples: {@code [lowerBoundAtRank(l), valueAtRank(u)]},
     * which is {@code [X(l), X(u)]} for exact samples and the outer edges of their buckets for a histogram.
     *
     * @throws IllegalArgumentException if the distribution does not have the count these ranks are for
     */
    public ConfidenceInterval applyTo(Distribution samples) {
        if (samples.count() != count) {
            throw new IllegalArgumentException(
                    "ranks are for " + count + " samples, the distribution has " + samples.count());
        }
        double lower = hasLowerRank() ? samples.lowerBoundAtRank(lowerRank) : Double.NaN;
        double upper = hasUpperRank() ? samples.valueAtRank(upperRank) : Double.NaN;
        return new ConfidenceInterval(lower, upper, confidence, METHOD);
    }

    /** Returns the number of samples the ranks are for. */
    public long count() {
        return count;
    }

    /** Returns the quantile as a fraction, for example 0.99. */
    public double probability() {
        return probability;
    }

    /** Returns the confidence level, for example 0.95. */
    public double confidence() {
        return confidence;
    }

    /** Returns the 1-based rank of the lower bound, or {@link #NO_RANK} when it does not exist. */
    public long lowerRank() {
        return lowerRank;
    }

    /** Returns the 1-based rank of the upper bound, or {@link #NO_RANK} when it does not exist. */
    public long upperRank() {
        return upperRank;
    }

    /** Returns whether the lower bound exists. */
    public boolean hasLowerRank() {
        return lowerRank != NO_RANK;
    }

    /** Returns whether the upper bound exists. */
    public boolean hasUpperRank() {
        return upperRank != NO_RANK;
    }

    @Override
    public String toString() {
        return "OrderStatisticInterval[n=" + count + ", p=" + probability + ", confidence=" + confidence
                + ", ranks " + (hasLowerRank() ? lowerRank : "none") + " .. "
                + (hasUpperRank() ? upperRank : "none") + "]";
    }

    /** Returns the smallest n >= 1 with {@code base^n <= tail}, for a base below 1. */
    private static long smallestCount(double base, double tail) {
        if (base == 0) {
            return 1;
        }
        // The logarithms give the answer up to rounding; the loops settle it on the defining inequality.
        long n = Math.max(1, (long) Math.ceil(Math.log(tail) / Math.log(base)));
        while (n > 1 && Math.pow(base, n - 1) <= tail) {
            n--;
        }
        while (Math.pow(base, n) > tail) {
            n++;
        }
        return n;
    }

    private static void requireProbability(double probability) {
        if (!(probability > 0 && probability <= 1)) {
            throw new IllegalArgumentException("probability must be above 0 and at most 1, was " + probability);
        }
    }
}
