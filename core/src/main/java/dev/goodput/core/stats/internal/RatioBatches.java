package dev.goodput.core.stats.internal;

import dev.goodput.core.stats.ConfidenceInterval;

/**
 * Batch means for a ratio: a pooled statistic that is a sum over samples divided by their count, where the samples
 * come in blocks of unequal size taken in order (a pooled gap metric: each block is a run of consecutive requests).
 * Immutable.
 *
 * <p>The blocks are joined into {@value BatchMeans#MAX_BATCHES} consecutive groups of near-equal sample counts
 * (fewer when there are fewer blocks), halved in number while the lag-1 autocorrelation of the group ratios exceeds
 * {@value BatchMeans#INDEPENDENCE_LIMIT} and at least {@value BatchMeans#MIN_BATCHES} groups would remain, exactly as
 * {@link BatchMeans} does for per-request samples. The ratio {@code R = Σ y / Σ m} gets the ratio estimator's
 * standard error from the groups' residuals {@code e_g = y_g - R m_g}: {@code sqrt(g / (g - 1) · Σ e_g²) / Σ m}
 * (Cochran, Sampling Techniques, 1977, §6.4), with {@code g - 1} degrees of freedom. With groups of equal size this
 * is the batch-means standard error of {@link BatchMeans}.
 */
public final class RatioBatches {

    /** The method text of the mean intervals this class makes. */
    public static final String METHOD = "ratio batch means over blocks of requests (Student t)";

    private final double ratio;
    private final double standardError;
    private final int groups;
    private final double total;

    private RatioBatches(double ratio, double standardError, int groups, double total) {
        this.ratio = ratio;
        this.standardError = standardError;
        this.groups = groups;
        this.total = total;
    }

    /**
     * Returns the ratio of the sums of {@code numerators} and {@code denominators}, block by block in order.
     *
     * @throws IllegalArgumentException if the arrays differ in length or a denominator is negative
     */
    public static RatioBatches of(double[] numerators, double[] denominators) {
        if (numerators.length != denominators.length) {
            throw new IllegalArgumentException(
                    numerators.length + " numerators for " + denominators.length + " denominators");
        }
        int nonEmpty = 0;
        double total = 0;
        double sum = 0;
        for (int i = 0; i < denominators.length; i++) {
            if (denominators[i] < 0) {
                throw new IllegalArgumentException("denominators[" + i + "] is " + denominators[i]);
            }
            if (denominators[i] > 0) {
                nonEmpty++;
                total += denominators[i];
                sum += numerators[i];
            }
        }
        double ratio = total > 0 ? sum / total : Double.NaN;
        if (nonEmpty < 2) {
            return new RatioBatches(ratio, Double.NaN, nonEmpty, total);
        }
        int groups = Math.min(BatchMeans.MAX_BATCHES, nonEmpty);
        double[][] grouped = group(numerators, denominators, groups, total);
        while (groups / 2 >= BatchMeans.MIN_BATCHES
                && BatchMeans.lagOneAutocorrelation(ratios(grouped)) > BatchMeans.INDEPENDENCE_LIMIT) {
            groups /= 2;
            grouped = group(numerators, denominators, groups, total);
        }
        groups = grouped[0].length;
        double squares = 0;
        for (int g = 0; g < groups; g++) {
            double residual = grouped[0][g] - ratio * grouped[1][g];
            squares += residual * residual;
        }
        double standardError = groups < 2 ? Double.NaN : Math.sqrt(groups / (groups - 1.0) * squares) / total;
        return new RatioBatches(ratio, standardError, groups, total);
    }

    /** Returns the pooled ratio, NaN without samples. */
    public double ratio() {
        return ratio;
    }

    /** Returns the standard error of the ratio, NaN below two groups. */
    public double standardError() {
        return standardError;
    }

    /** Returns the degrees of freedom of the standard error: groups minus one. */
    public int degreesOfFreedom() {
        return groups - 1;
    }

    /** Returns the number of groups the standard error rests on. */
    public int groups() {
        return groups;
    }

    /**
     * Returns how many independent samples would give the same standard error, given the variance of a single
     * sample: at most the total count, at least the number of groups. NaN below two groups.
     */
    public double effectiveCount(double sampleVariance) {
        if (groups < 2 || Double.isNaN(standardError)) {
            return Double.NaN;
        }
        if (standardError == 0) {
            return sampleVariance == 0 ? total : groups;
        }
        return Math.max(groups, Math.min(total, sampleVariance / (standardError * standardError)));
    }

    /** Returns the interval of the ratio, both ends NaN below two groups. */
    public ConfidenceInterval interval(double confidence) {
        Confidence.require(confidence);
        if (groups < 2 || Double.isNaN(standardError)) {
            return new ConfidenceInterval(Double.NaN, Double.NaN, confidence, METHOD);
        }
        double halfWidth = StudentT.twoSided(confidence, degreesOfFreedom()) * standardError;
        return new ConfidenceInterval(ratio - halfWidth, ratio + halfWidth, confidence, METHOD);
    }

    /**
     * Joins consecutive non-empty blocks into {@code groups} groups of near-equal denominator: a block goes to the
     * group its cumulative midpoint falls in. Returns {numerator sums, denominator sums}; groups left empty are
     * dropped.
     */
    private static double[][] group(double[] numerators, double[] denominators, int groups, double total) {
        double[] y = new double[groups];
        double[] m = new double[groups];
        double cumulative = 0;
        for (int i = 0; i < denominators.length; i++) {
            if (denominators[i] == 0) {
                continue;
            }
            double middle = cumulative + denominators[i] / 2;
            int g = Math.min(groups - 1, (int) (middle / total * groups));
            y[g] += numerators[i];
            m[g] += denominators[i];
            cumulative += denominators[i];
        }
        int kept = 0;
        for (int g = 0; g < groups; g++) {
            if (m[g] > 0) {
                y[kept] = y[g];
                m[kept] = m[g];
                kept++;
            }
        }
        return new double[][] {java.util.Arrays.copyOf(y, kept), java.util.Arrays.copyOf(m, kept)};
    }

    private static double[] ratios(double[][] grouped) {
        double[] ratios = new double[grouped[0].length];
        for (int g = 0; g < ratios.length; g++) {
            ratios[g] = grouped[0][g] / grouped[1][g];
        }
        return ratios;
    }
}
