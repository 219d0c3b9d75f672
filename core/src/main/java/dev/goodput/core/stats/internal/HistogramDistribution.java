package dev.goodput.core.stats.internal;

import java.util.Arrays;
import java.util.Optional;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * A pooled metric held in an HdrHistogram of nanoseconds, seen through the same percentile definition as
 * exact samples.
 *
 * <p>Construction walks the histogram once and keeps, for every non-empty bucket, its highest equivalent
 * value and the number of samples up to and including it. Any order statistic is then a binary search,
 * so summaries and confidence intervals of histograms with tens of millions of samples cost microseconds,
 * and later recordings into the histogram do not change this snapshot.
 *
 * <p>Choices, documented because they shape every number:
 *
 * <ul>
 *   <li>{@link #valueAtRank} returns the highest value equivalent to the bucket holding that sample. It never
 *       understates; with three significant digits it overstates by less than 1/1024 of the value (under
 *       0.1%), and with the default lowest discernible value of 1, values below 2048 are exact.
 *   <li>{@link #percentile} applies the type 7 formula to those ranks, so exact and pooled metrics share one
 *       definition; interpolating between two upper-bounded neighbours is itself an upper bound.
 *   <li>{@link #min} and {@link #max} are the values at ranks 1 and {@code count}, so they equal the 0th and
 *       100th percentiles. (HdrHistogram's own {@code getMinValue} reports the lowest equivalent value
 *       instead; {@code getMaxValue} agrees with ours.)
 *   <li>{@link #lowerBoundAtRank} returns the lowest value of that bucket, so confidence intervals widen by the
 *       histogram's resolution on both sides rather than shift upwards.
 *   <li>{@link #mean} is {@code getMean()} and {@link #standardDeviation} is {@code getStdDeviation()}. Both
 *       use each bucket's median equivalent value, so they are unbiased to within half a bucket, and the
 *       latter divides by the count: it is the population standard deviation.
 * </ul>
 */
public final class HistogramDistribution implements Distribution {

    private final long count;
    private final long[] bucketValues;
    private final long[] bucketLowestValues;
    private final long[] cumulativeCounts;
    private final double mean;
    private final double standardDeviation;
    private final SampleBlocks blocks;

    private HistogramDistribution(
            long count,
            long[] bucketValues,
            long[] bucketLowestValues,
            long[] cumulativeCounts,
            double mean,
            double standardDeviation,
            SampleBlocks blocks) {
        this.count = count;
        this.bucketValues = bucketValues;
        this.bucketLowestValues = bucketLowestValues;
        this.cumulativeCounts = cumulativeCounts;
        this.mean = mean;
        this.standardDeviation = standardDeviation;
        this.blocks = blocks;
    }

    /**
     * Returns a snapshot of a histogram. The histogram must not be recorded into while this runs, since
     * HdrHistogram's mean and standard deviation share one internal iterator.
     */
    public static HistogramDistribution of(AbstractHistogram histogram) {
        return of(histogram, null);
    }

    /**
     * Returns a snapshot of a histogram whose samples were pooled from {@code blocks} (in order), which intervals
     * use to account for correlation; {@code null} for none.
     */
    public static HistogramDistribution of(AbstractHistogram histogram, SampleBlocks blocks) {
        long[] values = new long[64];
        long[] cumulative = new long[64];
        int buckets = 0;
        long total = 0;
        for (HistogramIterationValue bucket : histogram.recordedValues()) {
            if (buckets == values.length) {
                values = Arrays.copyOf(values, buckets * 2);
                cumulative = Arrays.copyOf(cumulative, buckets * 2);
            }
            total += bucket.getCountAddedInThisIterationStep();
            // getValueIteratedTo is already the highest equivalent value; saying so keeps that explicit.
            values[buckets] = histogram.highestEquivalentValue(bucket.getValueIteratedTo());
            cumulative[buckets] = total;
            buckets++;
        }
        if (total == 0) {
            return new HistogramDistribution(0, new long[0], new long[0], new long[0], Double.NaN, Double.NaN, blocks);
        }
        long[] lowest = new long[buckets];
        for (int i = 0; i < buckets; i++) {
            lowest[i] = histogram.lowestEquivalentValue(values[i]);
        }
        return new HistogramDistribution(
                total,
                Arrays.copyOf(values, buckets),
                lowest,
                Arrays.copyOf(cumulative, buckets),
                histogram.getMean(),
                histogram.getStdDeviation(),
                blocks);
    }

    @Override
    public Optional<SampleBlocks> blocks() {
        return Optional.ofNullable(blocks);
    }

    @Override
    public long count() {
        return count;
    }

    @Override
    public double valueAtRank(long rank) {
        return bucketValues[bucketOf(rank)];
    }

    /** Returns the lowest value equivalent to the bucket holding the sample of the given rank. */
    @Override
    public double lowerBoundAtRank(long rank) {
        return bucketLowestValues[bucketOf(rank)];
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
        return count == 0 ? Double.NaN : valueAtRank(1);
    }

    @Override
    public double max() {
        return count == 0 ? Double.NaN : valueAtRank(count);
    }

    private int bucketOf(long rank) {
        if (rank < 1 || rank > count) {
            throw new IllegalArgumentException("rank " + rank + " is not between 1 and " + count);
        }
        // Cumulative counts strictly increase; the bucket holding the rank is the first that reaches it.
        int found = Arrays.binarySearch(cumulativeCounts, rank);
        return found >= 0 ? found : -found - 1;
    }
}
