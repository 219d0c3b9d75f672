package dev.goodput.core.stats;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A confidence interval for a statistic. A bound that does not exist (too few samples for the requested
 * confidence) is {@link Double#NaN}; the verdict then says so instead of pretending.
 *
 * @param lower lower bound, or NaN when none exists
 * @param upper upper bound, or NaN when none exists
 * @param confidence the confidence level, for example 0.95
 * @param method how the interval was computed, for example {@code "order statistics (binomial)"}
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ConfidenceInterval(double lower, double upper, double confidence, String method) {

    /** Returns whether the lower bound exists. */
    public boolean hasLower() {
        return !Double.isNaN(lower);
    }

    /** Returns whether the upper bound exists. */
    public boolean hasUpper() {
        return !Double.isNaN(upper);
    }
}
