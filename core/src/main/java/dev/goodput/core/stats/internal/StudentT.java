package dev.goodput.core.stats.internal;

import org.apache.commons.math3.distribution.TDistribution;

/** Quantiles of Student's t distribution, from commons-math3, for intervals whose spread is itself estimated. */
public final class StudentT {

    private StudentT() {}

    /**
     * Returns the two-sided critical value for a confidence level: the {@code (1 + confidence) / 2} quantile of
     * Student's t with the given degrees of freedom (4.30 for 2 degrees at 95 %, 1.96 in the limit).
     *
     * @throws IllegalArgumentException if the degrees of freedom are not positive or the confidence is not
     *     strictly between 0 and 1
     */
    public static double twoSided(double confidence, double degreesOfFreedom) {
        Confidence.require(confidence);
        if (!(degreesOfFreedom > 0)) {
            throw new IllegalArgumentException("degrees of freedom must be above 0, was " + degreesOfFreedom);
        }
        if (degreesOfFreedom > 1e7) {
            return NormalQuantile.twoSided(confidence);
        }
        return new TDistribution(null, degreesOfFreedom).inverseCumulativeProbability((1 + confidence) / 2);
    }
}
