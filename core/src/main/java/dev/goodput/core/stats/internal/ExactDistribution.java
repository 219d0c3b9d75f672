package dev.goodput.core.stats.internal;

import java.util.Arrays;
import java.util.Optional;

/**
 * Every sample of a per-request metric, kept sorted, so that order statistics and percentiles are exact.
 *
 * <p>The mean is a compensated (Neumaier) sum divided by the count, and the population standard deviation
 * comes from the corrected two-pass algorithm (Chan, Golub and LeVeque): latencies in nanoseconds are large
 * numbers with comparatively small spread, exactly the case where the one-pass sum-of-squares formula loses
 * every digit. Immutable.
 */
public final class ExactDistribution implements Distribution {

    private final double[] sorted;
    private final double[] inOrder;
    private final double mean;
    private final double standardDeviation;

    private ExactDistribution(double[] sorted) {
        this(sorted, null);
    }

    private ExactDistribution(double[] sorted, double[] inOrder) {
        this.sorted = sorted;
        this.inOrder = inOrder;
        this.mean = sorted.length == 0 ? Double.NaN : compensatedSum(sorted, 0) / sorted.length;
        this.standardDeviation = sorted.length == 0 ? Double.NaN : populationStandardDeviation(sorted, mean);
    }

    /**
     * Returns the distribution of the given samples, which are copied.
     *
     * @throws IllegalArgumentException if a sample is NaN or infinite, naming its index; an infinite sample
     *     would make the mean and standard deviation meaningless
     */
    public static ExactDistribution of(double... values) {
        double[] copy = values.clone();
        for (int i = 0; i < copy.length; i++) {
            if (!Double.isFinite(copy[i])) {
                throw new IllegalArgumentException(
                        "values[" + i + "] is " + copy[i] + "; samples must be finite numbers");
            }
        }
        Arrays.sort(copy);
        return new ExactDistribution(copy);
    }

    /**
     * Returns the distribution of samples given in the order they were taken, which it keeps beside the sorted
     * copy, so that intervals can account for correlation between successive samples ({@link #inOrder()}).
     *
     * @throws IllegalArgumentException if a sample is NaN or infinite, naming its index
     */
    public static ExactDistribution ofOrdered(double... valuesInOrder) {
        ExactDistribution sortedOnly = of(valuesInOrder);
        return new ExactDistribution(sortedOnly.sorted, valuesInOrder.clone());
    }

    /**
     * Returns the distribution of the given integer samples, for example nanoseconds. Values are converted to
     * doubles, exact up to 2<sup>53</sup> (104 days in nanoseconds).
     */
    public static ExactDistribution ofLongs(long... values) {
        double[] converted = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            converted[i] = values[i];
        }
        Arrays.sort(converted);
        return new ExactDistribution(converted);
    }

    @Override
    public Optional<double[]> inOrder() {
        return inOrder == null ? Optional.empty() : Optional.of(inOrder.clone());
    }

    @Override
    public long count() {
        return sorted.length;
    }

    @Override
    public double valueAtRank(long rank) {
        if (rank < 1 || rank > sorted.length) {
            throw new IllegalArgumentException("rank " + rank + " is not between 1 and " + sorted.length);
        }
        return sorted[(int) (rank - 1)];
    }

    @Override
    public double mean() {
        return mean;
    }

    @Override
    public double standardDeviation() {
        return standardDeviation;
    }

    @Override
    public double min() {
        return sorted.length == 0 ? Double.NaN : sorted[0];
    }

    @Override
    public double max() {
        return sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1];
    }

    /** Returns the sum of {@code value - shift} over all values, compensating rounding errors (Neumaier). */
    private static double compensatedSum(double[] values, double shift) {
        double sum = 0;
        double compensation = 0;
        for (double value : values) {
            double term = value - shift;
            double next = sum + term;
            compensation += Math.abs(sum) >= Math.abs(term) ? (sum - next) + term : (term - next) + sum;
            sum = next;
        }
        return sum + compensation;
    }

    private static double populationStandardDeviation(double[] values, double mean) {
        double squares = 0;
        for (double value : values) {
            double deviation = value - mean;
            squares += deviation * deviation;
        }
        // The deviations sum to zero in exact arithmetic; their rounded sum corrects the rounded mean.
        double residual = compensatedSum(values, mean);
        double variance = (squares - residual * residual / values.length) / values.length;
        return Math.sqrt(Math.max(0, variance));
    }
}
