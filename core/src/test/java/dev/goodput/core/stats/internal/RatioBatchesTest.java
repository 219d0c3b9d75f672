package dev.goodput.core.stats.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RatioBatchesTest {

    @Test
    void should_equal_batch_means_when_every_block_has_the_same_size() {
        SplittableRandom random = new SplittableRandom(3);
        double[] samples = new double[160];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = random.nextDouble() * 10;
        }
        double[] sums = new double[16];
        double[] counts = new double[16];
        for (int i = 0; i < samples.length; i++) {
            sums[i / 10] += samples[i];
            counts[i / 10] = 10;
        }
        RatioBatches ratio = RatioBatches.of(sums, counts);
        BatchMeans means = BatchMeans.of(samples);

        assertThat(ratio.ratio()).isCloseTo(means.mean(), within(1e-9));
        assertThat(ratio.standardError()).isCloseTo(means.standardError(), within(1e-9));
        assertThat(ratio.degreesOfFreedom()).isEqualTo(means.degreesOfFreedom());
    }

    @Test
    void should_weigh_blocks_by_their_size_and_skip_empty_ones() {
        RatioBatches ratio = RatioBatches.of(new double[] {10, 0, 90, 5}, new double[] {10, 0, 30, 5});

        assertThat(ratio.ratio()).isCloseTo(105.0 / 45, within(1e-12));
        assertThat(ratio.groups()).isEqualTo(3);
        assertThat(ratio.interval(0.95).hasLower()).isTrue();
    }

    @Test
    void should_have_no_interval_from_one_block() {
        RatioBatches ratio = RatioBatches.of(new double[] {10}, new double[] {5});

        assertThat(ratio.ratio()).isEqualTo(2.0);
        assertThat(ratio.interval(0.95).hasLower()).isFalse();
    }

    @Test
    void should_widen_the_interval_of_blocks_that_move_together() {
        // Block shares that drift slowly (a batch that grows and shrinks) against the same shares shuffled.
        double[] drifting = new double[32];
        double[] shuffled = new double[32];
        double[] sizes = new double[32];
        for (int b = 0; b < 32; b++) {
            drifting[b] = 50 + 40 * Math.sin(b / 5.0);
            sizes[b] = 100;
        }
        int[] order = {
            5, 17, 2, 29, 11, 23, 8, 31, 0, 14, 26, 3, 20, 9, 30, 16, 1, 24, 12, 27, 6, 19, 10, 28, 4, 22, 15, 7, 25,
            13, 21, 18
        };
        for (int b = 0; b < 32; b++) {
            shuffled[b] = drifting[order[b]];
        }
        assertThat(RatioBatches.of(drifting, sizes).standardError())
                .isGreaterThan(RatioBatches.of(shuffled, sizes).standardError());
    }
}
