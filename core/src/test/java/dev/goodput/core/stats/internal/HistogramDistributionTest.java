package dev.goodput.core.stats.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.stats.ConfidenceInterval;
import dev.goodput.core.stats.Summary;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class HistogramDistributionTest {

    private static final double[] PERCENTILES = {0, 1, 10, 25, 50, 75, 90, 95, 99, 99.9, 99.99, 100};

    @Test
    void should_report_the_highest_equivalent_value_of_a_bucket() {
        // 1,000,000 lies in [2^19, 2^20), where three significant digits give buckets 2^9 = 512 wide:
        // 1,000,000 = 1953 * 512 + 64, so the bucket is 999,936 .. 1,000,447.
        Histogram histogram = new Histogram(3);
        histogram.recordValue(1_000_000);
        HistogramDistribution samples = HistogramDistribution.of(histogram);

        assertThat(samples.valueAtRank(1)).isEqualTo(1_000_447.0);
        assertThat(samples.percentile(50)).isEqualTo(1_000_447.0);
        // min is the value at rank 1, like the 0th percentile; HdrHistogram's own minimum is the lowest value.
        assertThat(samples.min()).isEqualTo(1_000_447.0);
        assertThat(samples.max()).isEqualTo(1_000_447.0);
        assertThat(histogram.getMinValue()).isEqualTo(999_936L);
        assertThat(histogram.getMaxValue()).isEqualTo(1_000_447L);
        // The conservative lower end for intervals is the bucket's lowest value.
        assertThat(samples.lowerBoundAtRank(1)).isEqualTo(999_936.0);
    }

    @Test
    void should_agree_exactly_with_exact_samples_below_2048() {
        // Below 2048 every integer has its own bucket, so nothing is rounded.
        Histogram histogram = new Histogram(3);
        long[] values = {2, 4, 4, 4, 5, 5, 7, 9, 1500, 2000, 13};
        for (long value : values) {
            histogram.recordValue(value);
        }
        Summary pooled = HistogramDistribution.of(histogram).summarize(PERCENTILES);
        Summary exact = ExactDistribution.ofLongs(values).summarize(PERCENTILES);
        assertThat(pooled).isEqualTo(exact);
    }

    @Test
    void should_compute_the_population_standard_deviation() {
        // HdrHistogram's getStdDeviation divides by the count: mean 5, squared deviations sum 32, 32 / 8 = 4.
        Histogram histogram = new Histogram(3);
        for (long value : new long[] {2, 4, 4, 4, 5, 5, 7, 9}) {
            histogram.recordValue(value);
        }
        HistogramDistribution samples = HistogramDistribution.of(histogram);
        assertThat(samples.mean()).isEqualTo(5.0);
        assertThat(samples.standardDeviation()).isEqualTo(2.0);
    }

    @Test
    void should_never_understate_and_stay_within_a_tenth_of_a_percent_of_exact() {
        // Log-normal latencies around 200 ms, in nanoseconds: every bucket is coarse here.
        SplittableRandom random = new SplittableRandom(42);
        Histogram histogram = new Histogram(3);
        long[] values = new long[20_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = (long) (2e8 * Math.exp(0.8 * gaussian(random)));
            histogram.recordValue(values[i]);
        }
        HistogramDistribution pooled = HistogramDistribution.of(histogram);
        ExactDistribution exact = ExactDistribution.ofLongs(values);

        for (double percentile : PERCENTILES) {
            double truth = exact.percentile(percentile);
            assertThat(pooled.percentile(percentile)).as("p%s", percentile).isBetween(truth, truth * (1 + 1.0 / 1024));
        }
        for (long rank = 1; rank <= values.length; rank += 997) {
            double truth = exact.valueAtRank(rank);
            assertThat(pooled.valueAtRank(rank)).isBetween(truth, truth * (1 + 1.0 / 1024));
        }
        // The mean and deviation use bucket midpoints: within half a bucket, not biased upwards.
        assertThat(Math.abs(pooled.mean() / exact.mean() - 1)).isLessThan(0.0005);
        assertThat(Math.abs(pooled.standardDeviation() / exact.standardDeviation() - 1))
                .isLessThan(0.001);
    }

    @Test
    void should_answer_percentiles_and_intervals_of_fifty_million_samples() {
        // 1,000 values 1 µs apart, 50,000 samples each: rank 25,000,000 is the last 500 µs sample.
        Histogram histogram = new Histogram(3);
        for (long i = 1; i <= 1000; i++) {
            histogram.recordValueWithCount(i * 1000, 50_000);
        }
        HistogramDistribution samples = HistogramDistribution.of(histogram);
        assertThat(samples.count()).isEqualTo(50_000_000L);

        // 500,000 lies in [2^18, 2^19), 256 wide: 1953 * 256 = 499,968, so its bucket ends at 500,223.
        // 501,000 = 1957 * 256 + 8, so its bucket ends at 500,992 + 255 = 501,247.
        assertThat(samples.valueAtRank(25_000_000)).isEqualTo(500_223.0);
        assertThat(samples.valueAtRank(25_000_001)).isEqualTo(501_247.0);
        // h = (50,000,000 - 1) * 0.5 = 24,999,999.5: halfway between ranks 25,000,000 and 25,000,001.
        assertThat(samples.percentile(50)).isEqualTo((500_223.0 + 501_247.0) / 2);

        // Normal approximation: 25,000,000 ± 1.96 * sqrt(12,500,000) ≈ ± 6,930 ranks, inside those two buckets;
        // the interval runs from the lowest value of the first (499,968) to the highest of the second.
        ConfidenceInterval interval = OrderStatisticInterval.forPercentile(samples, 50, 0.95);
        assertThat(interval.lower()).isEqualTo(499_968.0);
        assertThat(interval.upper()).isEqualTo(501_247.0);
    }

    @Test
    void should_keep_a_snapshot_of_the_histogram() {
        Histogram histogram = new Histogram(3);
        histogram.recordValue(10);
        HistogramDistribution samples = HistogramDistribution.of(histogram);
        histogram.recordValue(20);
        assertThat(samples.count()).isEqualTo(1);
        assertThat(samples.max()).isEqualTo(10.0);
    }

    @Test
    void should_summarize_an_empty_histogram_as_nan() {
        HistogramDistribution empty = HistogramDistribution.of(new Histogram(3));
        Summary summary = empty.summarize(50, 99);
        assertThat(summary.count()).isZero();
        assertThat(summary.mean()).isNaN();
        assertThat(summary.standardDeviation()).isNaN();
        assertThat(summary.min()).isNaN();
        assertThat(summary.max()).isNaN();
        assertThat(summary.percentile(50)).isNaN();
        assertThat(summary.percentile(99)).isNaN();
        assertThatThrownBy(() -> empty.valueAtRank(1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("rank 1 is not between 1 and 0");
    }

    /** A standard normal variate by Box-Muller, so the test does not depend on the JDK's algorithm. */
    private static double gaussian(SplittableRandom random) {
        return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
    }
}
