package dev.goodput.core.internal.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.goodput.core.ConfidenceInterval;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Holds the intervals verdicts rest on to their promise on correlated data: over many seeded M/D/1 runs, whose
 * true mean and percentiles are known, the 95 % interval covers the truth in about 95 % of runs, while the
 * intervals that assume independent samples miss it far more often.
 */
class CorrelatedIntervalCoverageTest {

    private static final int RUNS = 400;

    @ParameterizedTest(name = "utilisation {0}, {1} requests")
    @CsvSource({"0.5, 2000", "0.7, 4000", "0.9, 20000"})
    void batch_means_interval_covers_the_true_mean_wait(double utilisation, int count) {
        double truth = MD1Queue.meanWait(utilisation);
        int covered = 0;
        int coveredIfIndependent = 0;
        for (int run = 0; run < RUNS; run++) {
            double[] waits = MD1Queue.waits(utilisation, count / 5, count, 1000 + run);
            ConfidenceInterval interval = BatchMeans.of(waits).meanInterval(0.95);
            if (interval.lower() <= truth && truth <= interval.upper()) {
                covered++;
            }
            ConfidenceInterval plain = MeanInterval.of(ExactDistribution.of(waits), 0.95);
            if (plain.lower() <= truth && truth <= plain.upper()) {
                coveredIfIndependent++;
            }
        }
        System.out.printf(
                "M/D/1 rho=%.1f n=%d: mean interval coverage batch means %d/%d, independent %d/%d%n",
                utilisation, count, covered, RUNS, coveredIfIndependent, RUNS);
        assertThat((double) covered / RUNS).isBetween(0.92, 0.99);
        assertThat((double) coveredIfIndependent / RUNS).isLessThan(0.80);
    }

    @ParameterizedTest(name = "p{1} at utilisation {0}, {2} requests")
    @CsvSource({"0.5, 90, 2000", "0.7, 90, 4000", "0.9, 90, 20000", "0.7, 99, 20000"})
    void effective_count_interval_covers_the_true_percentile(double utilisation, double percentile, int count) {
        double truth = MD1Queue.waitQuantile(utilisation, percentile / 100);
        int covered = 0;
        int coveredIfIndependent = 0;
        for (int run = 0; run < RUNS; run++) {
            double[] waits = MD1Queue.waits(utilisation, count / 5, count, 5000 + run);
            ExactDistribution samples = ExactDistribution.ofOrdered(waits);
            ConfidenceInterval interval =
                    CorrelatedQuantile.of(samples, waits, percentile, 0.95).interval();
            if (interval.lower() <= truth && truth <= interval.upper()) {
                covered++;
            }
            ConfidenceInterval plain = OrderStatisticInterval.forPercentile(samples, percentile, 0.95);
            if (plain.lower() <= truth && truth <= plain.upper()) {
                coveredIfIndependent++;
            }
        }
        System.out.printf(
                "M/D/1 rho=%.1f n=%d: p%.0f interval coverage effective count %d/%d, independent %d/%d%n",
                utilisation, count, percentile, covered, RUNS, coveredIfIndependent, RUNS);
        assertThat((double) covered / RUNS).isBetween(0.92, 0.99);
        assertThat((double) coveredIfIndependent / RUNS).isLessThan(0.85);
    }

    @ParameterizedTest(name = "utilisation {0}")
    @CsvSource({"0.5", "0.7", "0.9"})
    void the_queue_model_agrees_with_its_closed_form(double utilisation) {
        double[] waits = MD1Queue.waits(utilisation, 100_000, 2_000_000, 7);
        double mean = ExactDistribution.of(waits).mean();
        assertThat(mean).isCloseTo(MD1Queue.meanWait(utilisation), within(MD1Queue.meanWait(utilisation) * 0.05));
        double p90 = MD1Queue.waitQuantile(utilisation, 0.9);
        long below = java.util.Arrays.stream(waits).filter(w -> w <= p90).count();
        assertThat((double) below / waits.length).isCloseTo(0.9, within(0.01));
        assertThat(MD1Queue.waitCdf(utilisation, 0)).isCloseTo(1 - utilisation, within(1e-12));
    }
}
