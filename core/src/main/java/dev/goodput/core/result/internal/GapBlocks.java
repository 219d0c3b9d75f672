package dev.goodput.core.result.internal;

import dev.goodput.core.stats.internal.SampleBlocks;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One pooled gap metric kept in blocks of consecutive requests (by schedule index), so that its interval can see how
 * much the gaps of requests that ran together move together ({@link SampleBlocks}). At most {@value #MAX_BLOCKS}
 * blocks are kept: when the requests seen span more, the block size doubles and neighbours merge, as batch means
 * do. Each block holds its count, its sum and a coarse histogram ({@value #SUB_BUCKETS} buckets per power of two,
 * about 4 % wide), enough to count the samples at or below a percentile to within a bucket; the exact pooled
 * histogram beside it gives the percentile itself. About 2 KB per block and metric.
 *
 * <p>Not thread-safe: the {@link RunRecorder} that holds it guards it.
 */
final class GapBlocks {

    /** The most blocks kept. */
    static final int MAX_BLOCKS = 32;

    private static final int SUB_BUCKETS = 16;
    private static final int SUB_BITS = 4;

    private long blockSize = 1;
    private final TreeMap<Long, Block> blocks = new TreeMap<>();

    /**
     * Returns the block that takes the samples of the request at {@code index}; valid until the next call (a call
     * may merge blocks).
     */
    Block blockOf(long index) {
        Block block = blocks.computeIfAbsent(index / blockSize, k -> new Block());
        if (blocks.lastKey() - blocks.firstKey() + 1 <= MAX_BLOCKS) {
            return block;
        }
        while (blocks.lastKey() - blocks.firstKey() + 1 > MAX_BLOCKS) {
            merge();
        }
        return blocks.get(index / blockSize);
    }

    /** Returns an immutable view of the blocks, in order. */
    SampleBlocks snapshot() {
        return new Snapshot(blocks.values().stream().map(Block::copy).toList());
    }

    /** Returns the blocks of several in order, one after the other: segments of a run. */
    static SampleBlocks concat(List<SampleBlocks> parts) {
        List<Block> all = new ArrayList<>();
        for (SampleBlocks part : parts) {
            all.addAll(((Snapshot) part).parts);
        }
        return new Snapshot(all);
    }

    private void merge() {
        blockSize *= 2;
        Map<Long, Block> merged = new TreeMap<>();
        blocks.forEach((key, block) -> merged.merge(key / 2, block, Block::plus));
        blocks.clear();
        blocks.putAll(merged);
    }

    static int bucket(long value) {
        if (value < SUB_BUCKETS) {
            return (int) value;
        }
        int exponent = 63 - Long.numberOfLeadingZeros(value);
        int sub = (int) (value >>> (exponent - SUB_BITS)) & (SUB_BUCKETS - 1);
        return SUB_BUCKETS + (exponent - SUB_BITS) * SUB_BUCKETS + sub;
    }

    /** The middle of a bucket's range of values. */
    static double middle(int bucket) {
        if (bucket < SUB_BUCKETS) {
            return bucket;
        }
        int exponent = (bucket - SUB_BUCKETS) / SUB_BUCKETS + SUB_BITS;
        int sub = (bucket - SUB_BUCKETS) % SUB_BUCKETS;
        double low = (double) (SUB_BUCKETS + sub) * (1L << (exponent - SUB_BITS));
        double width = 1L << (exponent - SUB_BITS);
        return low + (width - 1) / 2;
    }

    /** One block's samples. */
    static final class Block {
        private long count;
        private double sum;
        private long[] buckets = new long[0];

        /** Adds {@code samples} samples of {@code value} (non-negative nanoseconds). */
        void add(long value, long samples) {
            int bucket = bucket(value);
            if (bucket >= buckets.length) {
                buckets = Arrays.copyOf(buckets, bucket + 1);
            }
            buckets[bucket] += samples;
            count += samples;
            sum += (double) value * samples;
        }

        Block plus(Block other) {
            Block sumBlock = copy();
            if (other.buckets.length > sumBlock.buckets.length) {
                sumBlock.buckets = Arrays.copyOf(sumBlock.buckets, other.buckets.length);
            }
            for (int i = 0; i < other.buckets.length; i++) {
                sumBlock.buckets[i] += other.buckets[i];
            }
            sumBlock.count += other.count;
            sumBlock.sum += other.sum;
            return sumBlock;
        }

        Block copy() {
            Block copy = new Block();
            copy.count = count;
            copy.sum = sum;
            copy.buckets = buckets.clone();
            return copy;
        }

        long atOrBelow(double value) {
            long below = 0;
            for (int i = 0; i < buckets.length && middle(i) <= value; i++) {
                below += buckets[i];
            }
            return below;
        }
    }

    private record Snapshot(List<Block> parts) implements SampleBlocks {
        @Override
        public int blocks() {
            return parts.size();
        }

        @Override
        public long count(int block) {
            return parts.get(block).count;
        }

        @Override
        public double sum(int block) {
            return parts.get(block).sum;
        }

        @Override
        public long countAtOrBelow(int block, double value) {
            return parts.get(block).atOrBelow(value);
        }
    }
}
