package dev.goodput.core.stats.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.goodput.core.stats.ConfidenceInterval;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BatchMeansTest {

    @Test
    void uncorrelated_samples_keep_many_batches_and_nearly_every_sample_counts() {
        SplittableRandom random = new SplittableRandom(3);
        double[] samples = new double[4000];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = random.nextDouble();
        }
        BatchMeans batches = BatchMeans.of(samples);
        assertThat(batches.batches()).isEqualTo(BatchMeans.MAX_BATCHES);
        assertThat(batches.mean()).isCloseTo(0.5, within(0.02));
        // The standard error of a uniform mean is sqrt(1/12 / n).
        assertThat(batches.standardError()).isCloseTo(Math.sqrt(1.0 / 12 / 4000), within(0.002));
        assertThat(batches.effectiveCount(1.0 / 12)).isBetween(2000.0, 4000.0);
    }

    @Test
    void strongly_correlated_samples_merge_batches_and_widen_the_interval() {
        double[] waits = MD1Queue.waits(0.9, 2000, 10_000, 11);
        BatchMeans batches = BatchMeans.of(waits);
        assertThat(batches.batches()).isEqualTo(BatchMeans.MIN_BATCHES);
        ConfidenceInterval correlated = batches.meanInterval(0.95);
        ConfidenceInterval independent = MeanInterval.of(ExactDistribution.of(waits), 0.95);
        assertThat(correlated.upper() - correlated.lower())
                .isGreaterThan(3 * (independent.upper() - independent.lower()));
        assertThat(correlated.method()).isEqualTo(BatchMeans.METHOD);
    }

    @Test
    void one_sample_per_batch_is_the_ordinary_t_interval() {
        double[] samples = {1, 2, 3, 4, 5};
        ConfidenceInterval interval = BatchMeans.of(samples).meanInterval(0.95);
        // mean 3, s = sqrt(2.5), t(0.975, 4) = 2.776
        double halfWidth = 2.7764 * Math.sqrt(2.5) / Math.sqrt(5);
        assertThat(interval.lower()).isCloseTo(3 - halfWidth, within(1e-3));
        assertThat(interval.upper()).isCloseTo(3 + halfWidth, within(1e-3));
    }

    @Test
    void fewer_than_two_samples_have_no_interval() {
        assertThat(BatchMeans.of(new double[] {7}).meanInterval(0.95).hasLower())
                .isFalse();
        assertThat(BatchMeans.of(new double[0]).mean()).isNaN();
    }

    @Test
    void a_sample_that_is_not_finite_is_refused_by_index() {
        assertThatThrownBy(() -> BatchMeans.of(new double[] {1, Double.NaN}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("samples[1] is NaN; samples must be finite numbers");
    }

    @Test
    void correlated_quantile_matches_the_plain_interval_on_independent_samples_and_widens_on_queues() {
        SplittableRandom random = new SplittableRandom(5);
        double[] independent = new double[3000];
        for (int i = 0; i < independent.length; i++) {
            independent[i] = random.nextDouble();
        }
        CorrelatedQuantile plainish = CorrelatedQuantile.of(ExactDistribution.of(independent), independent, 90, 0.95);
        assertThat(plainish.effectiveCount()).isGreaterThan(1500);

        double[] waits = MD1Queue.waits(0.9, 2000, 10_000, 11);
        ExactDistribution queue = ExactDistribution.ofOrdered(waits);
        CorrelatedQuantile correlated = CorrelatedQuantile.of(queue, waits, 90, 0.95);
        ConfidenceInterval plain = OrderStatisticInterval.forPercentile(queue, 90, 0.95);
        assertThat(correlated.effectiveCount()).isLessThan(1000);
        assertThat(correlated.interval().upper() - correlated.interval().lower())
                .isGreaterThan(3 * (plain.upper() - plain.lower()));
    }

    @Test
    void the_cautious_count_is_the_first_order_count_where_batch_means_look_independent_and_never_above_theirs() {
        // An AR(1) of 0.95 has 4,000 * 0.05 / 1.95, about 103, effective samples; half-length batches of 250 see
        // only part of its memory, so the batch means' count is higher.
        SplittableRandom random = new SplittableRandom(7);
        double[] ar = new double[4000];
        double level = 0;
        for (int i = 0; i < ar.length; i++) {
            level = 0.95 * level + random.nextDouble() - 0.5;
            ar[i] = level;
        }
        BatchMeans correlated = BatchMeans.of(ar);
        double variance = BatchMeans.sampleVariance(ar);
        double r = BatchMeans.lagOneAutocorrelation(ar);
        assertThat(correlated.cautiousEffectiveCount(variance))
                .isLessThanOrEqualTo(correlated.effectiveCount(variance))
                .isCloseTo(Math.min(correlated.effectiveCount(variance), 4000 * (1 - r) / (1 + r)), within(1e-9))
                .isBetween(60.0, 160.0);

        double[] independent = new double[4000];
        for (int i = 0; i < independent.length; i++) {
            independent[i] = random.nextDouble();
        }
        BatchMeans plain = BatchMeans.of(independent);
        assertThat(plain.cautiousEffectiveCount(1.0 / 12)).isBetween(2000.0, 4000.0);
        assertThat(BatchMeans.of(new double[] {1}).cautiousEffectiveCount(0)).isNaN();
    }
}
