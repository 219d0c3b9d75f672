package dev.goodput.core.compare;

import dev.goodput.core.stats.ConfidenceInterval;
import dev.goodput.core.stats.internal.BatchMeans;
import dev.goodput.core.stats.internal.CorrelatedQuantile;
import dev.goodput.core.stats.internal.ExactDistribution;
import dev.goodput.core.stats.internal.NormalQuantile;
import java.util.ArrayList;
import java.util.List;

/**
 * One side's estimate of a compared statistic with its relative standard error (the standard error of its
 * logarithm) and that error's degrees of freedom ({@code +Infinity} when it is known well).
 *
 * <p>Within the trials, the error comes from the correlation-aware intervals: a percentile's from
 * {@link CorrelatedQuantile} (half the log-width of its interval over {@code z}), a mean's and a rate's from
 * {@link BatchMeans}. With two or more trials, the spread of the trials' own values ({@code sd / sqrt(k)} of their
 * logarithms, {@code k - 1} degrees of freedom) replaces it when larger: run-to-run variation, from the server's
 * state and the machine's load, is usually the bigger part on a shared CI runner.
 */
record SideEstimate(double value, double relativeError, double degreesOfFreedom, String method) {

    boolean hasError() {
        return relativeError >= 0 && Double.isFinite(relativeError);
    }

    static SideEstimate of(BaselineComparator.Compared compared, RunDigest digest, double confidence) {
        return compared.isRate() ? rate(compared, digest, confidence) : latency(compared, digest, confidence);
    }

    /** Welch-Satterthwaite degrees of freedom of the sum of two variances. */
    static double welch(SideEstimate a, SideEstimate b) {
        double va = a.relativeError * a.relativeError;
        double vb = b.relativeError * b.relativeError;
        double denominator = term(va, a.degreesOfFreedom) + term(vb, b.degreesOfFreedom);
        return denominator == 0 ? Double.POSITIVE_INFINITY : (va + vb) * (va + vb) / denominator;
    }

    private static double term(double variance, double degrees) {
        return Double.isInfinite(degrees) ? 0 : variance * variance / degrees;
    }

    private static SideEstimate latency(BaselineComparator.Compared compared, RunDigest digest, double confidence) {
        double[] pooled = digest.pooledSamples(compared.metric());
        if (pooled.length == 0) {
            return new SideEstimate(Double.NaN, Double.NaN, Double.NaN, "no samples");
        }
        boolean mean = Double.isNaN(compared.percentile());
        double value;
        double within;
        double degrees;
        String method;
        if (mean) {
            BatchMeans batches = BatchMeans.of(pooled);
            value = batches.mean();
            within = batches.standardError() / value;
            degrees = batches.degreesOfFreedom();
            method = BatchMeans.METHOD;
        } else {
            ExactDistribution samples = ExactDistribution.ofOrdered(pooled);
            value = samples.percentile(compared.percentile());
            ConfidenceInterval interval = CorrelatedQuantile.of(samples, pooled, compared.percentile(), confidence)
                    .interval();
            within = logHalfWidth(interval, value) / NormalQuantile.twoSided(confidence);
            degrees = Double.POSITIVE_INFINITY;
            method = "order statistics, effective count";
        }
        List<Double> perTrial = new ArrayList<>();
        for (RunDigest.Trial trial : digest.trials()) {
            double[] samples = trial.samples(compared.metric());
            if (samples.length > 0) {
                perTrial.add(
                        mean
                                ? ExactDistribution.of(samples).mean()
                                : ExactDistribution.of(samples).percentile(compared.percentile()));
            }
        }
        return withTrials(value, within, degrees, method, perTrial);
    }

    private static SideEstimate rate(BaselineComparator.Compared compared, RunDigest digest, double confidence) {
        List<Double> perTrial = new ArrayList<>();
        double sumOfVariances = 0;
        double degrees = Double.POSITIVE_INFINITY;
        for (RunDigest.Trial trial : digest.trials()) {
            double value = trial.rate(compared.metric());
            if (Double.isNaN(value)) {
                continue;
            }
            perTrial.add(value);
            BatchMeans slices = BatchMeans.of(trial.rateSlices(compared.metric()));
            sumOfVariances += slices.standardError() * slices.standardError();
            degrees = Math.min(degrees, slices.degreesOfFreedom());
        }
        if (perTrial.isEmpty()) {
            return new SideEstimate(Double.NaN, Double.NaN, Double.NaN, "no value");
        }
        double mean =
                perTrial.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        double within = Math.sqrt(sumOfVariances) / perTrial.size() / mean;
        return withTrials(mean, within, degrees, "batch means over time slices", perTrial);
    }

    private static SideEstimate withTrials(
            double value, double within, double degrees, String method, List<Double> perTrial) {
        if (perTrial.size() < 2 || perTrial.stream().anyMatch(v -> !(v > 0))) {
            return new SideEstimate(value, within, degrees, method);
        }
        double[] logs = perTrial.stream().mapToDouble(Math::log).toArray();
        double mean = 0;
        for (double log : logs) {
            mean += log / logs.length;
        }
        double squares = 0;
        for (double log : logs) {
            squares += (log - mean) * (log - mean);
        }
        double between = Math.sqrt(squares / (logs.length - 1) / logs.length);
        if (between > within || Double.isNaN(within)) {
            return new SideEstimate(value, between, logs.length - 1, "spread between " + logs.length + " trials");
        }
        return new SideEstimate(value, within, degrees, method);
    }

    /** Half the width of an interval on the log scale, NaN when an end is missing or not positive. */
    private static double logHalfWidth(ConfidenceInterval interval, double value) {
        if (!interval.hasLower() || !interval.hasUpper()) {
            return Double.NaN;
        }
        if (interval.lower() > 0) {
            return (Math.log(interval.upper()) - Math.log(interval.lower())) / 2;
        }
        return (interval.upper() - interval.lower()) / 2 / value;
    }
}
