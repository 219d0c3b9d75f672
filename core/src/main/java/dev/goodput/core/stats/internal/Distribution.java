package dev.goodput.core.stats.internal;

import dev.goodput.core.stats.Summary;
import java.util.Optional;

/**
 * Read-only view of one metric's samples, the same for exact per-request samples and pooled histograms, so
 * that summaries, confidence intervals and verdicts are computed one way for both.
 */
public interface Distribution {

    /** Returns the number of samples. */
    long count();

    /**
     * Returns the sample of the given rank in ascending order, starting at 1 (the order statistic
     * {@code X(rank)}).
     *
     * @throws IllegalArgumentException if rank is not between 1 and {@link #count()}
     */
    double valueAtRank(long rank);

    /**
     * Returns a value no greater than the sample of the given rank: the sample itself when samples are exact,
     * the lowest value of its bucket when they are held in a histogram. Confidence intervals take their lower
     * bound from here and their upper bound from {@link #valueAtRank}, so a histogram's resolution widens an
     * interval instead of shifting it, and never makes a verdict more decisive than exact samples would.
     *
     * @throws IllegalArgumentException if rank is not between 1 and {@link #count()}
     */
    default double lowerBoundAtRank(long rank) {
        return valueAtRank(rank);
    }

    /**
     * Returns the percentile (0 to 100) interpolated linearly between closest ranks, Hyndman and Fan type 7.
     * NaN when empty.
     */
    default double percentile(double percentile) {
        return Type7Percentile.of(this, percentile);
    }

    /**
     * Returns the samples in the order they were taken (a copy), when this distribution knows it; empty for a
     * histogram or samples given unordered. Intervals use it to account for correlation between successive
     * samples.
     */
    default Optional<double[]> inOrder() {
        return Optional.empty();
    }

    /**
     * Returns the blocks a pooled distribution was taken from, in order, when it knows them; empty for per-request
     * samples (which know {@link #inOrder()} instead) and for histograms pooled without blocks.
     */
    default Optional<SampleBlocks> blocks() {
        return Optional.empty();
    }

    /** Returns the arithmetic mean, NaN when empty. */
    double mean();

    /** Returns the population standard deviation, NaN when empty. */
    double standardDeviation();

    /** Returns the smallest sample, NaN when empty. */
    double min();

    /** Returns the largest sample, NaN when empty. */
    double max();

    /** Returns the summary with the given percentiles. */
    default Summary summarize(double... percentiles) {
        return Summaries.of(this, percentiles);
    }
}
