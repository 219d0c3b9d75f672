package dev.goodput.core.stats.internal;

/**
 * What a pooled metric knows of the order its samples were taken in: they were pooled from consecutive blocks
 * (blocks of requests in schedule order), and each block keeps its own count, sum and a coarse histogram. A
 * pooled percentile or mean gets its interval from the spread between blocks ({@link RatioBatches}), as a
 * per-request metric gets it from batches of requests, because gaps of one stream, and of streams that ran
 * together, are correlated.
 *
 * <p>Blocks are in schedule order; a block may be empty.
 */
public interface SampleBlocks {

    /** Returns the number of blocks. */
    int blocks();

    /** Returns the number of samples in a block. */
    long count(int block);

    /** Returns the sum of the samples in a block. */
    double sum(int block);

    /**
     * Returns how many samples of a block are at most {@code value}, to the resolution of the block's histogram:
     * a sample in the bucket that holds {@code value} counts when the bucket's middle is at most {@code value}.
     */
    long countAtOrBelow(int block, double value);
}
