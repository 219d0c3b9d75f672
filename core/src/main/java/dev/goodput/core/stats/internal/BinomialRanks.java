package dev.goodput.core.stats.internal;

import java.util.Arrays;

/**
 * The ranks of a distribution-free confidence interval for a quantile, from the binomial distribution of the
 * number of samples at or below it. See {@link OrderStatisticInterval} for the construction.
 *
 * <p>With {@code B ~ Bin(n, p)}, {@code F} its distribution function and {@code t} the probability allowed in
 * each tail, the lower rank is the largest {@code k} in {@code 1..n} with {@code F(k - 1) <= t} and the
 * upper rank the smallest {@code k} in {@code 1..n} with {@code P(B >= k) <= t}, which is
 * {@code F(k - 1) >= 1 - t}. A rank that does not exist is {@link #NONE}.
 *
 * <p>The exact computation never evaluates factorials: it starts from weight 1 at the mode and multiplies by
 * the ratio of neighbouring probabilities, {@code P(k + 1) / P(k) = (n - k) / (k + 1) * p / (1 - p)}, outwards
 * in both directions until the weights fall below 10<sup>-300</sup> of the mode's, then normalises. The terms
 * left out weigh less than {@code n} times 10<sup>-300</sup> in total, far below any tail probability of
 * interest. The cost grows with the standard deviation {@code sqrt(n p (1 - p))}, not with {@code n}: about
 * 37 standard deviations on each side.
 *
 * <p>The switch to the approximation is therefore on the variance, not on {@code n}: an extreme percentile of
 * many samples (p99.9999 of ten million has {@code n p (1 - p) ≈ 10}) stays exact, where the normal curve
 * would misjudge the skewed binomial and even whether a bound exists.
 *
 * <p>Above {@link #EXACT_VARIANCE_LIMIT} the normal approximation with continuity correction is used,
 * {@code F(k) ≈ Φ((k + 0.5 - np) / σ)}, giving the lower rank {@code floor(np + 0.5 - zσ)} and the upper rank
 * {@code ceil(np + 0.5 + zσ)}. On its own it errs by about {@code (1 - 2p)(z² - 1) / 6} ranks whatever
 * {@code n} is, the binomial's skewness: half a rank for p99 at 95%. Both ranks are therefore shifted by that
 * Cornish-Fisher term, after which the approximation agrees with the exact ranks to within a rank at the
 * switch-over, against an interval more than 1900 ranks wide there.
 */
final class BinomialRanks {

    /** A rank that does not exist; real ranks start at 1. */
    static final long NONE = 0;

    /**
     * The largest variance {@code n p (1 - p)} computed exactly: a standard deviation of 500 ranks, which
     * covers every sample count up to 1,000,000 whatever the percentile.
     */
    static final double EXACT_VARIANCE_LIMIT = 250_000;

    private static final double NEGLIGIBLE_WEIGHT = 1e-300;

    private BinomialRanks() {}

    /**
     * The two ranks; either may be {@link #NONE}.
     *
     * @param lower the lower rank
     * @param upper the upper rank
     */
    record Pair(long lower, long upper) {}

    /** Returns the ranks for {@code n >= 1} samples, probability {@code p} in (0, 1] and confidence level. */
    static Pair of(long n, double p, double confidence) {
        double tail = Confidence.tail(confidence);
        if (n * p * (1 - p) <= EXACT_VARIANCE_LIMIT) {
            return exact(n, p, tail);
        }
        return normal(n, p, -NormalQuantile.inverseCdf(tail));
    }

    /** Returns the ranks computed exactly; {@code tail} is the probability allowed in each tail. */
    static Pair exact(long n, double p, double tail) {
        if (p == 1) {
            // Every sample lies at or below the top of the support: F(k - 1) = 0 for every k <= n.
            return new Pair(n, NONE);
        }
        double odds = p / (1 - p);
        long mode = Math.min(n, (long) Math.floor((n + 1) * p));
        double[] below = weightsBelow(n, mode, odds);
        double[] above = weightsAbove(n, mode, odds);
        // weights[i] is proportional to P(B = first + i).
        long first = mode - below.length + 1;
        double[] weights = new double[below.length + above.length];
        for (int i = 0; i < below.length; i++) {
            weights[i] = below[below.length - 1 - i];
        }
        System.arraycopy(above, 0, weights, below.length, above.length);
        // Summing from both ends towards the mode adds small terms first.
        double total = 0;
        for (int i = 0; i < below.length; i++) {
            total += weights[i];
        }
        for (int i = weights.length - 1; i >= below.length; i--) {
            total += weights[i];
        }
        double allowed = tail * total;

        // Lower: the largest j with F(j) <= t gives rank j + 1. F(first - 1) is negligible, so at least
        // j = first - 1 qualifies; when first is 0 that is j = -1, rank 0: no lower rank.
        long lastWithin = first - 1;
        double cumulative = 0;
        for (int i = 0; i < weights.length; i++) {
            cumulative += weights[i];
            if (cumulative > allowed) {
                break;
            }
            lastWithin = first + i;
        }
        long lower = lastWithin + 1;

        // Upper: the smallest k with P(B >= k) <= t. P(B >= last + 1) is negligible, so k = last + 1
        // qualifies; when that is n + 1 there is no upper rank.
        long firstWithin = first + weights.length;
        double upperTail = 0;
        for (int i = weights.length - 1; i >= 0; i--) {
            upperTail += weights[i];
            if (upperTail > allowed) {
                break;
            }
            firstWithin = first + i;
        }
        long upper = firstWithin > n ? NONE : firstWithin;
        return new Pair(lower, upper);
    }

    /**
     * Returns the ranks by the normal approximation with continuity correction and Cornish-Fisher skewness
     * correction; {@code z} is the two-sided standard normal quantile.
     */
    static Pair normal(long n, double p, double z) {
        double mean = n * p;
        double spread = z * Math.sqrt(n * p * (1 - p));
        // The binomial's skewness (1 - 2p) / σ moves both quantiles by (1 - 2p)(z² - 1) / 6 ranks.
        double skew = (1 - 2 * p) * (z * z - 1) / 6;
        double lower = Math.floor(mean + 0.5 + skew - spread);
        double upper = Math.ceil(mean + 0.5 + skew + spread);
        return new Pair(lower < 1 ? NONE : (long) Math.min(lower, n), upper > n ? NONE : (long) upper);
    }

    /** Returns the weights of the mode, mode - 1, ... down to the last one that is not negligible. */
    private static double[] weightsBelow(long n, long mode, double odds) {
        double[] weights = new double[16];
        weights[0] = 1;
        int size = 1;
        double weight = 1;
        for (long k = mode; k > 0; k--) {
            weight *= k / ((n - k + 1) * odds);
            if (weight < NEGLIGIBLE_WEIGHT) {
                break;
            }
            if (size == weights.length) {
                weights = Arrays.copyOf(weights, size * 2);
            }
            weights[size++] = weight;
        }
        return Arrays.copyOf(weights, size);
    }

    /** Returns the weights of mode + 1, mode + 2, ... up to the last one that is not negligible. */
    private static double[] weightsAbove(long n, long mode, double odds) {
        double[] weights = new double[16];
        int size = 0;
        double weight = 1;
        for (long k = mode; k < n; k++) {
            weight *= (n - k) * odds / (k + 1);
            if (weight < NEGLIGIBLE_WEIGHT) {
                break;
            }
            if (size == weights.length) {
                weights = Arrays.copyOf(weights, size * 2);
            }
            weights[size++] = weight;
        }
        return Arrays.copyOf(weights, size);
    }
}
