package dev.goodput.core.stats.internal;

import dev.goodput.core.stats.ConfidenceInterval;

/**
 * The method of batch means: samples in the order they were taken are cut into consecutive batches, and the
 * spread of the batch means, not of the samples, gives the standard error of the overall mean. Immutable.
 *
 * <p>Why: under queueing, successive requests' latencies are strongly correlated (a request that waited leaves
 * the next one waiting too; the lag-1 autocorrelation of waits in a single-slot M/D/1 queue is about 0.7 at 70 %
 * utilisation and 0.98 at 90 %). The textbook {@code s / sqrt(n)} then understates the error several times over.
 * Means of batches much longer than the correlation are nearly independent, so their spread is honest whatever
 * the correlation inside a batch.
 *
 * <p>The batch count adapts to the data: it starts at {@value #MAX_BATCHES} batches of near-equal size (fewer
 * when there are fewer samples) and halves, doubling the batch size, while the lag-1 autocorrelation of the batch
 * means exceeds {@value #INDEPENDENCE_LIMIT} and at least {@value #MIN_BATCHES} batches would remain. The
 * interval uses Student's t with {@code batches - 1} degrees of freedom, which widens it for the few batches that
 * strong correlation leaves. With uncorrelated samples and one sample per batch this is the ordinary t interval.
 */
public final class BatchMeans {

    /** The method text of the mean intervals this class makes. */
    public static final String METHOD = "batch means (Student t)";

    /** The batch count to start from. */
    public static final int MAX_BATCHES = 16;

    /** The fewest batches halving may leave. */
    public static final int MIN_BATCHES = 8;

    /** The lag-1 autocorrelation of batch means above which batches are merged. */
    public static final double INDEPENDENCE_LIMIT = 0.1;

    private final long count;
    private final double mean;
    private final double[] batchMeans;
    private final double standardError;
    private final double sampleLagOne;

    private BatchMeans(long count, double mean, double[] batchMeans, double standardError, double sampleLagOne) {
        this.count = count;
        this.mean = mean;
        this.batchMeans = batchMeans;
        this.standardError = standardError;
        this.sampleLagOne = sampleLagOne;
    }

    /**
     * Returns the batch means of samples in the order they were taken.
     *
     * @throws IllegalArgumentException if a sample is not finite, naming its index
     */
    public static BatchMeans of(double[] samplesInOrder) {
        for (int i = 0; i < samplesInOrder.length; i++) {
            if (!Double.isFinite(samplesInOrder[i])) {
                throw new IllegalArgumentException(
                        "samples[" + i + "] is " + samplesInOrder[i] + "; samples must be finite numbers");
            }
        }
        int n = samplesInOrder.length;
        if (n < 2) {
            double only = n == 1 ? samplesInOrder[0] : Double.NaN;
            return new BatchMeans(n, only, new double[0], Double.NaN, Double.NaN);
        }
        int batches = Math.min(MAX_BATCHES, n);
        double[] means = means(samplesInOrder, batches);
        while (batches / 2 >= MIN_BATCHES && lagOneAutocorrelation(means) > INDEPENDENCE_LIMIT) {
            batches /= 2;
            means = means(samplesInOrder, batches);
        }
        double mean = sampleWeightedMean(samplesInOrder);
        return new BatchMeans(
                n, mean, means, Math.sqrt(sampleVariance(means) / batches), lagOneAutocorrelation(samplesInOrder));
    }

    /** Returns the number of samples. */
    public long count() {
        return count;
    }

    /** Returns the mean of all samples, NaN when there are none. */
    public double mean() {
        return mean;
    }

    /** Returns the number of batches, 0 below two samples. */
    public int batches() {
        return batchMeans.length;
    }

    /** Returns the mean number of samples per batch. */
    public double batchSize() {
        return batchMeans.length == 0 ? Double.NaN : (double) count / batchMeans.length;
    }

    /** Returns the standard error of the mean from the batch means, NaN below two samples. */
    public double standardError() {
        return standardError;
    }

    /** Returns the degrees of freedom of the standard error: batches minus one. */
    public int degreesOfFreedom() {
        return batchMeans.length - 1;
    }

    /**
     * Returns how many independent samples would give the same standard error: {@code n} times the ratio of the
     * plain variance of the mean to the batch-means one, at most {@code n} (correlation never adds information)
     * and at least the number of batches. NaN below two samples.
     *
     * @param sampleVariance the variance of the individual samples
     */
    public double effectiveCount(double sampleVariance) {
        if (batchMeans.length == 0) {
            return Double.NaN;
        }
        double batchVariance = standardError * standardError;
        if (batchVariance == 0) {
            return sampleVariance == 0 ? count : batchMeans.length;
        }
        double effective = sampleVariance / batchVariance;
        return Math.max(batchMeans.length, Math.min(count, effective));
    }

    /**
     * Returns the smaller of two effective counts of the samples: {@link #effectiveCount(double)}, from the spread of
     * the batch means, and the count of a first-order autoregressive process with the samples' own lag-1
     * autocorrelation {@code r}, {@code n (1 - r) / (1 + r)} (no less than the batch count, and {@code n} for a
     * negative {@code r}). NaN below two samples.
     *
     * <p>Why a second estimate: 8 to 16 batch means of a queue near saturation that has not yet had a long excursion
     * look nearly independent, while the lag-1 autocorrelation, read from all {@code n - 1} neighbouring pairs, stays
     * high in a quiet stretch too. Neither alone is a bound (a queue's correlation decays more slowly than an
     * AR(1)'s), so the smaller is taken. Seeded M/D/1 gates that look repeatedly (docs/metrics.md, "How verdict
     * coverage is proven") said MET for a mean the truth misses by 10 % in 58 of 1,000 runs at utilisation 0.9 and
     * 47 at 0.8 with the batch means' count alone, 31 and 28 with the smaller of the two.
     *
     * @param sampleVariance the variance of the individual samples
     */
    public double cautiousEffectiveCount(double sampleVariance) {
        double fromBatches = effectiveCount(sampleVariance);
        if (Double.isNaN(fromBatches)) {
            return fromBatches;
        }
        double r = Math.max(0, sampleLagOne);
        double firstOrder = Math.max(batchMeans.length, count * (1 - r) / (1 + r));
        return Math.min(fromBatches, firstOrder);
    }

    /** Returns the interval of the mean, both ends NaN below two samples. */
    public ConfidenceInterval meanInterval(double confidence) {
        Confidence.require(confidence);
        if (batchMeans.length < 2) {
            return new ConfidenceInterval(Double.NaN, Double.NaN, confidence, METHOD);
        }
        double halfWidth = StudentT.twoSided(confidence, degreesOfFreedom()) * standardError;
        return new ConfidenceInterval(mean - halfWidth, mean + halfWidth, confidence, METHOD);
    }

    /** Batch {@code i} holds samples {@code [floor(i n / b), floor((i + 1) n / b))}. */
    private static double[] means(double[] samples, int batches) {
        int n = samples.length;
        double[] means = new double[batches];
        for (int batch = 0; batch < batches; batch++) {
            int from = (int) ((long) batch * n / batches);
            int to = (int) ((long) (batch + 1) * n / batches);
            double sum = 0;
            for (int i = from; i < to; i++) {
                sum += samples[i];
            }
            means[batch] = sum / (to - from);
        }
        return means;
    }

    private static double sampleWeightedMean(double[] samples) {
        double sum = 0;
        for (double sample : samples) {
            sum += sample;
        }
        return sum / samples.length;
    }

    /** The sample variance (dividing by {@code n - 1}) of at least two values. */
    public static double sampleVariance(double[] values) {
        double mean = sampleWeightedMean(values);
        double squares = 0;
        for (double value : values) {
            squares += (value - mean) * (value - mean);
        }
        return squares / (values.length - 1);
    }

    /** The lag-1 sample autocorrelation; 0 for constant values, where there is no correlation to see. */
    public static double lagOneAutocorrelation(double[] values) {
        double mean = sampleWeightedMean(values);
        double numerator = 0;
        double denominator = 0;
        for (int i = 0; i < values.length; i++) {
            double deviation = values[i] - mean;
            denominator += deviation * deviation;
            if (i > 0) {
                numerator += deviation * (values[i - 1] - mean);
            }
        }
        return denominator == 0 ? 0 : numerator / denominator;
    }
}
