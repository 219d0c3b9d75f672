package dev.goodput.core.stats.internal;

import dev.goodput.core.stats.ConfidenceInterval;

/**
 * The confidence interval of a percentile of samples that may be correlated in the order they were taken: the
 * distribution-free order-statistic interval ({@link OrderStatisticInterval}) computed for an effective sample
 * count instead of the raw one. Immutable.
 *
 * <p>The order-statistic interval rests on the count of samples at or below the true quantile being binomial,
 * with variance {@code n p (1 - p)}. Correlated samples make that count vary more. So: take the indicator series
 * {@code I(x_i <= q)} at the estimated percentile {@code q}, estimate the variance of its mean by
 * {@link BatchMeans}, and divide the binomial variance {@code p (1 - p) / n} by it. That ratio, times {@code n}, is
 * the effective count {@code n_eff}; it is further divided by {@code (t / z)^2}, the batch means' Student t over the
 * normal quantile, so that the few degrees of freedom of a strongly correlated series widen the interval as they
 * do a mean's. The binomial ranks for {@code n_eff} samples are then scaled to ranks among the {@code n} real
 * ones: {@code floor(l n / n_eff)} and {@code ceil(u n / n_eff)}. Uncorrelated samples give {@code n_eff} close to
 * {@code n} (never above) and the plain interval. Below {@value #MIN_SAMPLES} samples correlation cannot be
 * estimated and the plain interval is used.
 *
 * @param interval the interval, a bound NaN when the effective count is too small for it
 * @param effectiveCount the effective sample count, between 1 and the raw count; 0 without samples
 */
public record CorrelatedQuantile(ConfidenceInterval interval, double effectiveCount) {

    /** The method text of the intervals this class makes. */
    public static final String METHOD = "order statistics (binomial) on the batch-means effective count";

    /**
     * The fewest samples from which correlation is estimated: below it a tail has too few samples in each batch for
     * the variance of the batch proportions to mean anything, and the plain interval is used. A gate that small
     * cannot show a tail percentile anyway (p99 needs 368 samples for an upper bound).
     */
    public static final int MIN_SAMPLES = 100;

    /**
     * Returns the interval of a percentile.
     *
     * @param sorted the samples in ascending order, as a distribution
     * @param inOrder the same samples in the order they were taken
     * @param percentile above 0 and at most 100
     * @param confidence strictly between 0 and 1
     * @throws IllegalArgumentException if the two views do not hold the same number of samples
     */
    public static CorrelatedQuantile of(Distribution sorted, double[] inOrder, double percentile, double confidence) {
        Confidence.require(confidence);
        long n = sorted.count();
        if (n != inOrder.length) {
            throw new IllegalArgumentException(
                    "the sorted view has " + n + " samples, the ordered one " + inOrder.length);
        }
        double probability = percentile / 100;
        double effective = n == 0 ? 0 : effectiveCount(inOrder, sorted.percentile(percentile), probability, confidence);
        return withEffectiveCount(sorted, effective, probability, confidence, METHOD);
    }

    /**
     * Returns the interval of a percentile of samples pooled from blocks of requests taken in order (a pooled gap
     * metric): the effective count comes from the spread of the blocks' shares at or below the estimated
     * percentile ({@link RatioBatches}). With fewer than {@link BatchMeans#MIN_BATCHES} non-empty blocks there is no
     * spread to trust, and each block counts as one sample.
     *
     * @param sorted the pooled samples, as a distribution
     * @param blocks the same samples by block, in order
     */
    public static CorrelatedQuantile of(
            Distribution sorted, SampleBlocks blocks, double percentile, double confidence) {
        Confidence.require(confidence);
        long n = sorted.count();
        double probability = percentile / 100;
        double effective = n == 0 ? 0 : blockEffectiveCount(sorted, blocks, percentile, confidence);
        return withEffectiveCount(sorted, effective, probability, confidence, BLOCK_METHOD);
    }

    /** The method text of the intervals this class makes for pooled samples in blocks. */
    public static final String BLOCK_METHOD = "order statistics (binomial) on the block ratio effective count";

    private static CorrelatedQuantile withEffectiveCount(
            Distribution sorted, double effective, double probability, double confidence, String method) {
        long n = sorted.count();
        if (n == 0) {
            OrderStatisticInterval none = OrderStatisticInterval.of(0, probability, confidence);
            return new CorrelatedQuantile(withMethod(none.applyTo(sorted), method), 0);
        }
        long effectiveRanks = Math.max(1, (long) Math.floor(effective));
        if (effectiveRanks >= n) {
            return new CorrelatedQuantile(
                    withMethod(
                            OrderStatisticInterval.of(n, probability, confidence)
                                    .applyTo(sorted),
                            method),
                    n);
        }
        OrderStatisticInterval ranks = OrderStatisticInterval.of(effectiveRanks, probability, confidence);
        double scale = (double) n / effectiveRanks;
        double lower = ranks.hasLowerRank()
                ? sorted.lowerBoundAtRank(Math.max(1, (long) Math.floor(ranks.lowerRank() * scale)))
                : Double.NaN;
        double upper = ranks.hasUpperRank()
                ? sorted.valueAtRank(Math.min(n, (long) Math.ceil(ranks.upperRank() * scale)))
                : Double.NaN;
        return new CorrelatedQuantile(new ConfidenceInterval(lower, upper, confidence, method), effective);
    }

    private static double blockEffectiveCount(
            Distribution sorted, SampleBlocks blocks, double percentile, double confidence) {
        long n = sorted.count();
        double probability = percentile / 100;
        double quantile = sorted.percentile(percentile);
        int count = blocks.blocks();
        double[] below = new double[count];
        double[] sizes = new double[count];
        int nonEmpty = 0;
        for (int b = 0; b < count; b++) {
            sizes[b] = blocks.count(b);
            below[b] = blocks.countAtOrBelow(b, quantile);
            if (sizes[b] > 0) {
                nonEmpty++;
            }
        }
        if (nonEmpty < BatchMeans.MIN_BATCHES) {
            return Math.max(1, Math.min(n, nonEmpty));
        }
        if (probability >= 1) {
            return n;
        }
        RatioBatches batches = RatioBatches.of(below, sizes);
        double correlatedVariance = batches.standardError() * batches.standardError();
        double binomialVariance = probability * (1 - probability) / n;
        if (!(correlatedVariance > 0) || batches.degreesOfFreedom() < 1) {
            // Every block had the same share: no spread to see at this resolution; the blocks' number is the
            // least that can be claimed, which the plain interval's count bounds from above.
            return correlatedVariance == 0 ? n : nonEmpty;
        }
        double t = StudentT.twoSided(confidence, batches.degreesOfFreedom()) / NormalQuantile.twoSided(confidence);
        double inflation = correlatedVariance / binomialVariance * t * t;
        return Math.max(1, Math.min(n, n / inflation));
    }

    /** Returns the effective count of samples for the probability-quantile estimated at {@code quantile}. */
    static double effectiveCount(double[] inOrder, double quantile, double probability, double confidence) {
        int n = inOrder.length;
        if (n < MIN_SAMPLES || probability >= 1) {
            return n;
        }
        double[] indicators = new double[n];
        for (int i = 0; i < n; i++) {
            indicators[i] = inOrder[i] <= quantile ? 1 : 0;
        }
        BatchMeans batches = BatchMeans.of(indicators);
        double correlatedVariance = batches.standardError() * batches.standardError();
        double binomialVariance = probability * (1 - probability) / n;
        if (!(correlatedVariance > 0) || batches.degreesOfFreedom() < 1) {
            return n;
        }
        double t = StudentT.twoSided(confidence, batches.degreesOfFreedom()) / NormalQuantile.twoSided(confidence);
        double inflation = correlatedVariance / binomialVariance * t * t;
        return Math.max(1, Math.min(n, n / inflation));
    }

    private static ConfidenceInterval withMethod(ConfidenceInterval interval, String method) {
        return new ConfidenceInterval(interval.lower(), interval.upper(), interval.confidence(), method);
    }
}
