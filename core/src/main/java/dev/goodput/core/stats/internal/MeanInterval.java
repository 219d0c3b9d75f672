package dev.goodput.core.stats.internal;

import dev.goodput.core.stats.ConfidenceInterval;

/**
 * The confidence interval of a mean by the normal approximation: {@code mean ± z · s / sqrt(n)}, with
 * {@code z} the two-sided standard normal quantile of the confidence level (1.96 for 95%).
 *
 * <p>{@code s} is the sample standard deviation (dividing by {@code n - 1}), the unbiased estimate of the
 * variance that the standard error calls for, although summaries report the population standard deviation.
 * From the population deviation {@code σ} this is {@code z · σ / sqrt(n - 1)}, which is how it is computed.
 * Below two samples there is no spread to estimate, and both bounds are NaN. The central limit theorem makes
 * this accurate for the sample counts of a benchmark; with heavy tails and few samples it is optimistic.
 */
public final class MeanInterval {

    /** The method text of the intervals this class makes. */
    public static final String METHOD = "normal approximation";

    private MeanInterval() {}

    /** Returns the interval of the mean of a distribution. */
    public static ConfidenceInterval of(Distribution samples, double confidence) {
        return of(samples.count(), samples.mean(), samples.standardDeviation(), confidence);
    }

    /**
     * Returns the interval of a mean from its sample count, the mean and the population standard deviation.
     */
    public static ConfidenceInterval of(
            long count, double mean, double populationStandardDeviation, double confidence) {
        Confidence.require(confidence);
        if (count < 2) {
            return new ConfidenceInterval(Double.NaN, Double.NaN, confidence, METHOD);
        }
        double halfWidth = NormalQuantile.twoSided(confidence) * populationStandardDeviation / Math.sqrt(count - 1);
        return new ConfidenceInterval(mean - halfWidth, mean + halfWidth, confidence, METHOD);
    }
}
