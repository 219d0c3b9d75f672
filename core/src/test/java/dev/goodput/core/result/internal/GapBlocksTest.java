package dev.goodput.core.result.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.stats.internal.CorrelatedQuantile;
import dev.goodput.core.stats.internal.HistogramDistribution;
import dev.goodput.core.stats.internal.SampleBlocks;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class GapBlocksTest {

    private static final long MS = 1_000_000;

    @Test
    void should_keep_at_most_32_blocks_of_consecutive_requests_and_lose_no_sample() {
        GapBlocks blocks = new GapBlocks();
        for (long index = 5; index < 1_005; index++) {
            blocks.blockOf(index).add(10 * MS, 3);
        }
        SampleBlocks snapshot = blocks.snapshot();

        assertThat(snapshot.blocks()).isBetween(16, GapBlocks.MAX_BLOCKS);
        long total = 0;
        for (int b = 0; b < snapshot.blocks(); b++) {
            total += snapshot.count(b);
            assertThat(snapshot.sum(b)).isEqualTo(snapshot.count(b) * 10.0 * MS);
        }
        assertThat(total).isEqualTo(3_000);
    }

    @Test
    void should_count_samples_at_or_below_a_value_to_within_a_bucket() {
        GapBlocks blocks = new GapBlocks();
        GapBlocks.Block block = blocks.blockOf(0);
        for (long gap = 1; gap <= 1_000; gap++) {
            block.add(gap * 10_000, 1);
        }
        long below = blocks.snapshot().countAtOrBelow(0, 5_000_000);

        // Buckets are 1/16 of a power of two wide (at most about 6 %): the count is off by at most a bucket's share.
        assertThat(below).isBetween(470L, 530L);
    }

    @Test
    void should_shrink_the_effective_count_of_a_pooled_percentile_when_blocks_drift_together() {
        SplittableRandom random = new SplittableRandom(5);
        Histogram independentHistogram = new Histogram(3);
        Histogram driftingHistogram = new Histogram(3);
        GapBlocks independent = new GapBlocks();
        GapBlocks drifting = new GapBlocks();
        for (int request = 0; request < 640; request++) {
            // Drifting: every gap of a request, and of its neighbours, shares a slowly changing step time.
            double step = 10 + 8 * Math.sin(request / 60.0);
            GapBlocks.Block a = independent.blockOf(request);
            GapBlocks.Block b = drifting.blockOf(request);
            for (int gap = 0; gap < 50; gap++) {
                long independentGap = (long) ((10 + 8 * Math.sin(random.nextDouble() * 20)) * MS);
                long driftingGap = (long) ((step + random.nextDouble()) * MS);
                independentHistogram.recordValue(independentGap);
                driftingHistogram.recordValue(driftingGap);
                a.add(independentGap, 1);
                b.add(driftingGap, 1);
            }
        }
        double independentCount = CorrelatedQuantile.of(
                        HistogramDistribution.of(independentHistogram), independent.snapshot(), 90, 0.95)
                .effectiveCount();
        double driftingCount = CorrelatedQuantile.of(
                        HistogramDistribution.of(driftingHistogram), drifting.snapshot(), 90, 0.95)
                .effectiveCount();

        assertThat(independentCount).isGreaterThan(10_000);
        assertThat(driftingCount).isLessThan(500);
    }
}
