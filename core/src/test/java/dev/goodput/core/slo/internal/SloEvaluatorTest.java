package dev.goodput.core.slo.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.slo.SloVerdict;
import dev.goodput.core.slo.Verdict;
import dev.goodput.core.stats.ConfidenceInterval;
import dev.goodput.core.stats.internal.BatchMeans;
import dev.goodput.core.stats.internal.CorrelatedQuantile;
import dev.goodput.core.stats.internal.Distribution;
import dev.goodput.core.stats.internal.ExactDistribution;
import dev.goodput.core.stats.internal.HistogramDistribution;
import dev.goodput.core.stats.internal.MD1Queue;
import dev.goodput.core.stats.internal.MeanInterval;
import java.time.Duration;
import java.util.stream.IntStream;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SloEvaluatorTest {

    /** 1 ms, 2 ms, ..., {@code n} ms, in nanoseconds. */
    private static ExactDistribution millis(int n) {
        return ExactDistribution.of(
                IntStream.rangeClosed(1, n).mapToDouble(i -> i * 1e6).toArray());
    }

    private static SloSpec ttft(double percentile, SloSpec.Comparison comparison, long boundMillis) {
        SloSpec.Builder builder = SloSpec.of(Metric.TTFT).percentile(percentile);
        Duration bound = Duration.ofMillis(boundMillis);
        return comparison == SloSpec.Comparison.AT_MOST ? builder.atMost(bound) : builder.atLeast(bound);
    }

    private static SloVerdict evaluate(SloSpec slo, Distribution samples) {
        return SloEvaluator.evaluate(slo, samples, SloEvaluator.DEFAULT_CONFIDENCE);
    }

    @Nested
    class Percentiles {

        // 1..400 ms: p99 at h = 399 * 0.99 = 395.01 is 396 + 0.01 = 396.01 ms. Ranks for n = 400, p = 0.99:
        // F(391) ≈ 0.0208 <= 0.025 < F(392) ≈ 0.0502 and F(398) ≈ 0.9095 < 0.975 <= F(399) ≈ 0.9821, so the
        // 95% interval is [X(392), X(400)] = [392 ms, 400 ms].
        private final ExactDistribution samples = millis(400);

        @Test
        void should_be_met_when_the_upper_bound_is_within_the_objective() {
            SloVerdict verdict = evaluate(ttft(99, SloSpec.Comparison.AT_MOST, 500), samples);
            assertThat(verdict.verdict()).isEqualTo(Verdict.MET);
            assertThat(verdict.measured()).isEqualTo(396.01e6);
            assertThat(verdict.interval())
                    .isEqualTo(new ConfidenceInterval(392e6, 400e6, 0.95, "order statistics (binomial)"));
            assertThat(verdict.sampleCount()).isEqualTo(400);
            assertThat(verdict.reason()).isNull();
            assertThat(verdict.describe())
                    .isEqualTo("p99 TTFT: measured 396.01 ms (95% CI 392.00 ms .. 400.00 ms, n=400), bound ≤ 500.00 ms:"
                            + " MET");
        }

        @Test
        void should_be_violated_when_the_lower_bound_exceeds_the_objective() {
            SloVerdict verdict = evaluate(ttft(99, SloSpec.Comparison.AT_MOST, 300), samples);
            assertThat(verdict.verdict()).isEqualTo(Verdict.VIOLATED);
            assertThat(verdict.reason()).isNull();
            assertThat(verdict.describe())
                    .isEqualTo("p99 TTFT: measured 396.01 ms (95% CI 392.00 ms .. 400.00 ms, n=400), bound ≤ 300.00 ms:"
                            + " VIOLATED");
        }

        @Test
        void should_be_inconclusive_when_the_interval_straddles_the_objective() {
            SloVerdict verdict = evaluate(ttft(99, SloSpec.Comparison.AT_MOST, 395), samples);
            assertThat(verdict.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
            assertThat(verdict.reason()).isEqualTo("the 95% CI straddles the bound");
            assertThat(verdict.describe())
                    .isEqualTo("p99 TTFT: measured 396.01 ms (95% CI 392.00 ms .. 400.00 ms, n=400), bound ≤ 395.00 ms:"
                            + " INCONCLUSIVE (the 95% CI straddles the bound)");
        }

        @ParameterizedTest(name = "p99 ≤ {0} ms is {1}")
        @CsvSource({
            "400, MET", // upper bound 400 ms equals the bound: inclusive
            "392, INCONCLUSIVE", // lower bound 392 ms equals the bound: not above it
            "391, VIOLATED"
        })
        void should_treat_an_upper_objective_as_inclusive(long boundMillis, Verdict expected) {
            assertThat(evaluate(ttft(99, SloSpec.Comparison.AT_MOST, boundMillis), samples)
                            .verdict())
                    .isEqualTo(expected);
        }

        @ParameterizedTest(name = "p50 ≥ {0} ms is {1}")
        @CsvSource({
            // 1..100 ms: the 95% interval of the median is [X(40), X(61)] = [40 ms, 61 ms].
            "30, MET",
            "40, MET",
            "50, INCONCLUSIVE",
            "61, INCONCLUSIVE",
            "62, VIOLATED"
        })
        void should_mirror_the_rules_for_a_lower_objective(long boundMillis, Verdict expected) {
            assertThat(evaluate(ttft(50, SloSpec.Comparison.AT_LEAST, boundMillis), millis(100))
                            .verdict())
                    .isEqualTo(expected);
        }
    }

    @Nested
    class MissingBounds {

        @Test
        void should_say_how_many_samples_an_upper_bound_on_p99_needs() {
            // 1..50 ms: p99 at h = 49 * 0.99 = 48.51 is 49.51 ms. F(47) ≈ 0.0138 <= 0.025 gives the lower rank
            // 48; 0.99^50 ≈ 0.605 > 0.025 leaves no upper rank until n = 368.
            SloVerdict verdict = evaluate(ttft(99, SloSpec.Comparison.AT_MOST, 500), millis(50));
            assertThat(verdict.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
            assertThat(verdict.reason()).isEqualTo("n=50 is too few for a 95% upper bound on p99; need at least 368");
            assertThat(verdict.describe())
                    .isEqualTo("p99 TTFT: measured 49.51 ms (95% CI 48.00 ms .. none, n=50), bound ≤ 500.00 ms:"
                            + " INCONCLUSIVE (n=50 is too few for a 95% upper bound on p99; need at least 368)");
        }

        @Test
        void should_still_find_a_violation_without_an_upper_bound() {
            SloVerdict verdict = evaluate(ttft(99, SloSpec.Comparison.AT_MOST, 10), millis(50));
            assertThat(verdict.verdict()).isEqualTo(Verdict.VIOLATED);
            assertThat(verdict.interval().lower()).isEqualTo(48e6);
        }

        @Test
        void should_name_the_confidence_level_in_use() {
            // At 90%: 0.99^298 ≈ 0.0500 > 0.05 >= 0.99^299 ≈ 0.0495.
            SloVerdict verdict = SloEvaluator.evaluate(ttft(99, SloSpec.Comparison.AT_MOST, 500), millis(50), 0.9);
            assertThat(verdict.reason()).isEqualTo("n=50 is too few for a 90% upper bound on p99; need at least 299");
        }

        @ParameterizedTest(name = "p1 {0} {1} ms")
        @CsvSource({
            // 1..100 ms, p1: (1 - 0.01)^100 ≈ 0.366 > 0.025, no lower rank; F(3) ≈ 0.9816 gives upper rank 4.
            "AT_MOST,  3, INCONCLUSIVE, n=100 is too few for a 95% lower bound on p1; need at least 368",
            "AT_MOST,  5, MET,",
            "AT_LEAST, 5, VIOLATED,",
            "AT_LEAST, 3, INCONCLUSIVE, n=100 is too few for a 95% lower bound on p1; need at least 368"
        })
        void should_name_the_missing_lower_bound(
                SloSpec.Comparison comparison, long boundMillis, Verdict expected, String reason) {
            SloVerdict verdict = evaluate(ttft(1, comparison, boundMillis), millis(100));
            assertThat(verdict.interval().hasLower()).isFalse();
            assertThat(verdict.interval().upper()).isEqualTo(4e6);
            assertThat(verdict.verdict()).isEqualTo(expected);
            assertThat(verdict.reason()).isEqualTo(reason);
        }

        @ParameterizedTest(name = "p50 of five samples {0} {1} ms")
        @CsvSource({
            // 1..5 ms, median 3 ms, no bound at all (0.5^5 > 0.025). The reason names the bound that would
            // confirm the side the estimate is on.
            "AT_MOST,  4, n=5 is too few for a 95% upper bound on p50; need at least 6",
            "AT_MOST,  2, n=5 is too few for a 95% lower bound on p50; need at least 6",
            "AT_LEAST, 2, n=5 is too few for a 95% lower bound on p50; need at least 6",
            "AT_LEAST, 4, n=5 is too few for a 95% upper bound on p50; need at least 6"
        })
        void should_name_the_deciding_bound_when_both_are_missing(
                SloSpec.Comparison comparison, long boundMillis, String reason) {
            SloVerdict verdict = evaluate(ttft(50, comparison, boundMillis), millis(5));
            assertThat(verdict.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
            assertThat(verdict.measured()).isEqualTo(3e6);
            assertThat(verdict.reason()).isEqualTo(reason);
        }

        @Test
        void should_say_that_no_sample_count_bounds_p100_from_above() {
            // The lower rank of p100 is n itself: 400 ms.
            assertThat(evaluate(ttft(100, SloSpec.Comparison.AT_MOST, 300), millis(400))
                            .verdict())
                    .isEqualTo(Verdict.VIOLATED);
            SloVerdict verdict = evaluate(ttft(100, SloSpec.Comparison.AT_MOST, 500), millis(400));
            assertThat(verdict.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
            assertThat(verdict.reason()).isEqualTo("no sample size gives a 95% upper bound on p100");
        }

        @Test
        void should_be_inconclusive_without_samples() {
            SloVerdict verdict = evaluate(ttft(99, SloSpec.Comparison.AT_MOST, 500), ExactDistribution.of());
            assertThat(verdict.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
            assertThat(verdict.measured()).isNaN();
            assertThat(verdict.sampleCount()).isZero();
            assertThat(verdict.reason()).isEqualTo("no samples");
            assertThat(verdict.describe())
                    .isEqualTo("p99 TTFT: measured nothing (95% CI none .. none, n=0), bound ≤ 500.00 ms:"
                            + " INCONCLUSIVE (no samples)");
        }
    }

    @Nested
    class MeansAndMaxima {

        // 2, 4, 4, 4, 5, 5, 7, 9 ms: mean 5 ms ± 1.959964 * 2 / sqrt(7) ≈ 1.4816 ms.
        private final ExactDistribution samples = ExactDistribution.of(2e6, 4e6, 4e6, 4e6, 5e6, 5e6, 7e6, 9e6);

        private SloSpec meanTpot(long boundMillis) {
            return SloSpec.of(Metric.TPOT).mean().atMost(Duration.ofMillis(boundMillis));
        }

        @ParameterizedTest(name = "mean ≤ {0} ms is {1}")
        @CsvSource({"7, MET", "5, INCONCLUSIVE", "3, VIOLATED"})
        void should_judge_the_mean_by_its_normal_interval(long boundMillis, Verdict expected) {
            SloVerdict verdict = evaluate(meanTpot(boundMillis), samples);
            assertThat(verdict.verdict()).isEqualTo(expected);
            assertThat(verdict.measured()).isEqualTo(5e6);
            assertThat(verdict.interval().method()).isEqualTo("normal approximation");
        }

        @Test
        void should_describe_a_met_mean() {
            assertThat(evaluate(meanTpot(7), samples).describe())
                    .isEqualTo("mean TPOT: measured 5.00 ms (95% CI 3.52 ms .. 6.48 ms, n=8), bound ≤ 7.00 ms: MET");
        }

        @Test
        void should_need_two_samples_for_the_mean() {
            SloVerdict verdict = evaluate(meanTpot(7), ExactDistribution.of(5e6));
            assertThat(verdict.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
            assertThat(verdict.reason()).isEqualTo("n=1 is too few for a 95% interval on the mean; need at least 2");
            assertThat(evaluate(meanTpot(7), ExactDistribution.of()).reason()).isEqualTo("no samples");
        }

        @ParameterizedTest(name = "max ≤ {0} ms is {1}")
        @CsvSource({"9, MET", "8, VIOLATED"})
        void should_compare_the_maximum_directly(long boundMillis, Verdict expected) {
            SloSpec slo = SloSpec.of(Metric.E2EL).max().atMost(Duration.ofMillis(boundMillis));
            SloVerdict verdict = evaluate(slo, samples);
            assertThat(verdict.verdict()).isEqualTo(expected);
            assertThat(verdict.measured()).isEqualTo(9e6);
            assertThat(verdict.interval()).isNull();
            assertThat(verdict.reason()).isNull();
        }

        @Test
        void should_describe_a_violated_maximum_and_one_without_samples() {
            SloSpec slo = SloSpec.of(Metric.E2EL).max().atMost(Duration.ofMillis(8));
            assertThat(evaluate(slo, samples).describe())
                    .isEqualTo("max E2EL: measured 9.00 ms (n=8), bound ≤ 8.00 ms: VIOLATED");
            assertThat(evaluate(slo, ExactDistribution.of()).describe())
                    .isEqualTo("max E2EL: measured nothing (n=0), bound ≤ 8.00 ms: INCONCLUSIVE (no samples)");
        }
    }

    @Nested
    class RunValues {

        private final SloSpec goodput = SloSpec.of(Metric.GOODPUT).atLeast(3.5);

        @ParameterizedTest(name = "goodput {0} is {1}")
        @CsvSource({"4.0, MET", "3.5, MET", "3.49, VIOLATED"})
        void should_compare_a_run_value_directly(double value, Verdict expected) {
            SloVerdict verdict = SloEvaluator.evaluateValue(goodput, value, 100);
            assertThat(verdict.verdict()).isEqualTo(expected);
            assertThat(verdict.measured()).isEqualTo(value);
            assertThat(verdict.interval()).isNull();
            assertThat(verdict.sampleCount()).isEqualTo(100);
        }

        @Test
        void should_describe_run_values() {
            assertThat(SloEvaluator.evaluateValue(goodput, 4, 100).describe())
                    .isEqualTo("goodput: measured 4.00 req/s (n=100), bound ≥ 3.50 req/s: MET");
            SloSpec errors = SloSpec.of(Metric.ERROR_RATE).atMost(0.01);
            assertThat(SloEvaluator.evaluateValue(errors, 0.02, 100).describe())
                    .isEqualTo("error rate: measured 2.00 % (n=100), bound ≤ 1.00 %: VIOLATED");
        }

        @Test
        void should_be_inconclusive_without_measured_requests() {
            SloVerdict none = SloEvaluator.evaluateValue(goodput, 0, 0);
            assertThat(none.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
            assertThat(none.measured()).isNaN();
            assertThat(none.reason()).isEqualTo("no measured requests");
            assertThat(none.describe())
                    .isEqualTo(
                            "goodput: measured nothing (n=0), bound ≥ 3.50 req/s: INCONCLUSIVE (no measured requests)");
            SloVerdict unmeasured = SloEvaluator.evaluateValue(goodput, Double.NaN, 10);
            assertThat(unmeasured.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
            assertThat(unmeasured.reason()).isEqualTo("no measured requests");
        }
    }

    @Nested
    class General {

        @Test
        void should_judge_a_pooled_metric_from_its_histogram() {
            // 1..1000 ns, exact in the histogram: the p99 ranks of 1000 samples are 983 and 997 (F(982) ≈ 0.0138,
            // F(996) ≈ 0.9899), so the interval is [983 ns, 997 ns].
            Histogram histogram = new Histogram(3);
            for (long value = 1; value <= 1000; value++) {
                histogram.recordValue(value);
            }
            SloSpec slo = SloSpec.of(Metric.ITL).percentile(99).atMost(Duration.ofNanos(997));
            SloVerdict verdict = SloEvaluator.evaluate(slo, HistogramDistribution.of(histogram));
            assertThat(verdict.verdict()).isEqualTo(Verdict.MET);
            assertThat(verdict.interval().lower()).isEqualTo(983.0);
            assertThat(verdict.interval().upper()).isEqualTo(997.0);
            // h = 999 * 0.99 = 989.01: 990 + 0.01.
            assertThat(verdict.measured()).isEqualTo(990.01);
        }

        @ParameterizedTest(name = "p50 ≤ {0} ns is {1}")
        @CsvSource({
            // 1,000 samples of 1,000,000 ns fall in the bucket 999,936 .. 1,000,447: the interval spans it.
            "1000447, MET",
            "1000000, INCONCLUSIVE", // exact samples would be MET: the histogram cannot tell
            "999990,  INCONCLUSIVE", // exact samples would be VIOLATED: neither can it here
            "999935,  VIOLATED"
        })
        void should_not_let_histogram_resolution_decide_a_verdict(long boundNanos, Verdict expected) {
            Histogram histogram = new Histogram(3);
            histogram.recordValueWithCount(1_000_000, 1000);
            SloSpec slo = SloSpec.of(Metric.ICL).percentile(50).atMost(Duration.ofNanos(boundNanos));
            assertThat(SloEvaluator.evaluate(slo, HistogramDistribution.of(histogram))
                            .verdict())
                    .isEqualTo(expected);
        }

        @Test
        void should_use_95_percent_by_default() {
            SloSpec slo = ttft(99, SloSpec.Comparison.AT_MOST, 500);
            assertThat(SloEvaluator.DEFAULT_CONFIDENCE).isEqualTo(0.95);
            assertThat(SloEvaluator.evaluate(slo, millis(50))).isEqualTo(SloEvaluator.evaluate(slo, millis(50), 0.95));
        }

        @Test
        void should_reject_objectives_evaluated_the_wrong_way() {
            assertThatThrownBy(() ->
                            SloEvaluator.evaluate(SloSpec.of(Metric.GOODPUT).atLeast(3.5), millis(3)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(
                            "objective goodput ≥ 3.50 req/s is on a run-level value; evaluate it with evaluateValue");
            assertThatThrownBy(() -> SloEvaluator.evaluateValue(ttft(99, SloSpec.Comparison.AT_MOST, 500), 1, 1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(
                            "objective p99 TTFT ≤ 500.00 ms is on a per-request or pooled metric; evaluate it with its"
                                    + " samples");
            assertThatThrownBy(() -> SloEvaluator.evaluateValue(
                            SloSpec.of(Metric.GOODPUT).atLeast(3.5), 1, -1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("sample count must be at least 0, was -1");
            assertThatThrownBy(() -> SloEvaluator.evaluate(ttft(99, SloSpec.Comparison.AT_MOST, 500), millis(3), 0))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Nested
    class CorrelatedSamples {

        /** M/D/1 waits at 90 % utilisation, service time 1 ms: a long queue builds up and drains slowly. */
        private final double[] waitsMillis = MD1Queue.waits(0.9, 2000, 3000, 21);

        private Distribution inOrder() {
            double[] nanos = new double[waitsMillis.length];
            for (int i = 0; i < nanos.length; i++) {
                nanos[i] = waitsMillis[i] * 1e6;
            }
            return ExactDistribution.ofOrdered(nanos);
        }

        @Test
        void a_percentile_verdict_counts_the_samples_that_correlation_leaves() {
            Distribution samples = inOrder();
            double p90Millis = samples.percentile(90) / 1e6;
            SloSpec slo = ttft(90, SloSpec.Comparison.AT_MOST, (long) Math.ceil(p90Millis * 1.05));

            SloVerdict unordered =
                    evaluate(slo, ExactDistribution.of(samples.inOrder().orElseThrow()));
            SloVerdict ordered = evaluate(slo, samples);

            // 5 % above the estimate is a safe margin for 3,000 independent samples, not for a queue's.
            assertThat(unordered.verdict()).isEqualTo(Verdict.MET);
            assertThat(ordered.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
            assertThat(ordered.interval().method()).isEqualTo(CorrelatedQuantile.METHOD);
        }

        @Test
        void a_mean_verdict_uses_batch_means() {
            Distribution samples = inOrder();
            SloSpec slo = SloSpec.of(Metric.TTFT).mean().atMost(Duration.ofNanos((long) (samples.mean() * 1.1)));
            SloVerdict ordered = evaluate(slo, samples);
            assertThat(ordered.interval().method()).isEqualTo(BatchMeans.METHOD);
            assertThat(ordered.interval().upper() - ordered.interval().lower())
                    .isGreaterThan(3
                            * (MeanInterval.of(samples, 0.95).upper()
                                    - MeanInterval.of(samples, 0.95).lower()));
        }

        @Test
        void a_run_too_short_for_its_correlation_decides_only_a_bound_far_from_its_estimate() {
            // 500 waits of a queue at 90 % utilisation hold far fewer than 100 effective samples.
            double[] nanos = new double[500];
            for (int i = 0; i < nanos.length; i++) {
                nanos[i] = waitsMillis[i] * 1e6;
            }
            Distribution samples = ExactDistribution.ofOrdered(nanos);
            // Just above the batch means' own upper end: met on their interval, not yet on the widened one.
            SloSpec near = SloSpec.of(Metric.TTFT).mean().atMost(Duration.ofNanos((long)
                    (BatchMeans.of(nanos).meanInterval(0.95).upper() * 1.01)));
            SloSpec far = SloSpec.of(Metric.TTFT).mean().atMost(Duration.ofNanos((long) (samples.mean() * 1000)));

            SloVerdict verdict = evaluate(near, samples);

            assertThat(verdict.effectiveCount()).isLessThan(SloEvaluator.MIN_CORRELATED_EFFECTIVE);
            assertThat(BatchMeans.of(nanos).meanInterval(0.95).upper()).isLessThan(near.threshold());
            assertThat(verdict.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
            double widen = Math.pow(100 / verdict.effectiveCount(), 2);
            assertThat(verdict.reason())
                    .isEqualTo(String.format(
                            java.util.Locale.ROOT,
                            "n=500 is effectively %.0f independent samples, as successive samples are correlated:"
                                    + " too few to trust the interval, widened %.1f times; need at least 100"
                                    + " effective samples for a 95%% interval",
                            verdict.effectiveCount(),
                            widen));
            // Widened about the estimate, it still holds the estimate and stays where a latency can be.
            assertThat(verdict.interval().lower()).isBetween(0.0, verdict.measured());
            assertThat(verdict.interval().upper()).isGreaterThan(near.threshold());
            assertThat(evaluate(far, samples).verdict()).isEqualTo(Verdict.MET);
        }

        @Test
        void independent_samples_and_runs_below_100_samples_keep_their_verdicts() {
            java.util.Random random = new java.util.Random(5);
            double[] independent = new double[150];
            for (int i = 0; i < independent.length; i++) {
                independent[i] = (10 + random.nextDouble()) * 1e6;
            }
            SloSpec slo = SloSpec.of(Metric.TTFT).mean().atMost(Duration.ofMillis(12));
            assertThat(evaluate(slo, ExactDistribution.ofOrdered(independent)).verdict())
                    .isEqualTo(Verdict.MET);

            assertThat(SloEvaluator.isTooShortForItsCorrelation(99, 5, 0.95)).isFalse();
            assertThat(SloEvaluator.isTooShortForItsCorrelation(100, 33, 0.95)).isTrue();
            assertThat(SloEvaluator.isTooShortForItsCorrelation(150, 60, 0.95)).isFalse();
            assertThat(SloEvaluator.isTooShortForItsCorrelation(4000, 100, 0.95))
                    .isFalse();
            assertThat(SloEvaluator.isTooShortForItsCorrelation(4000, 99, 0.95)).isTrue();
        }

        @Test
        void a_higher_confidence_needs_more_effective_samples_as_z_squared() {
            assertThat(SloEvaluator.minCorrelatedEffective(0.95)).isCloseTo(100, within(1e-9));
            // A run that lasts until decided with five looks judges each at 98.7 %: z = 2.48.
            assertThat(SloEvaluator.minCorrelatedEffective(0.987)).isCloseTo(160.6, within(0.1));
            assertThat(SloEvaluator.minCorrelatedEffective(0.99)).isCloseTo(172.7, within(0.1));
            assertThat(SloEvaluator.minCorrelatedEffective(0.90)).isCloseTo(70.4, within(0.1));

            // 150 effective of 4,000 samples: trusted at 95 %, not at a look's 98.7 %.
            assertThat(SloEvaluator.isTooShortForItsCorrelation(4000, 150, 0.95))
                    .isFalse();
            assertThat(SloEvaluator.isTooShortForItsCorrelation(4000, 150, 0.987))
                    .isTrue();
        }

        @Test
        void a_look_at_a_higher_confidence_widens_by_its_own_minimum_and_says_so() {
            // An AR(1) series of 0.94 holds about 4,000 * 0.06 / 1.94, some 124 effective samples of 4,000: enough for
            // a 95 % interval, not for a look's 98.7 %.
            java.util.Random random = new java.util.Random(11);
            double[] nanos = new double[4000];
            double x = 0;
            for (int i = 0; i < nanos.length; i++) {
                x = 0.94 * x + random.nextGaussian();
                nanos[i] = (100 + x) * 1e6;
            }
            Distribution samples = ExactDistribution.ofOrdered(nanos);
            SloSpec slo = SloSpec.of(Metric.TTFT).mean().atMost(Duration.ofMillis(1000));

            SloVerdict at95 = SloEvaluator.evaluate(slo, samples, 0.95);
            SloVerdict atLook = SloEvaluator.evaluate(slo, samples, 0.987);

            assertThat(at95.effectiveCount()).isBetween(100.0, 160.0);
            assertThat(at95.reason()).isNull();
            assertThat(atLook.reason()).isNull();
            assertThat(atLook.verdict()).isEqualTo(Verdict.MET);
            double widen = Math.pow(SloEvaluator.minCorrelatedEffective(0.987) / atLook.effectiveCount(), 2);
            double plainUpper = BatchMeans.of(nanos).meanInterval(0.987).upper();
            assertThat(atLook.interval().upper() - atLook.measured())
                    .isCloseTo((plainUpper - atLook.measured()) * widen, within(1e-3 * plainUpper));
            assertThat(at95.interval().upper())
                    .isCloseTo(BatchMeans.of(nanos).meanInterval(0.95).upper(), within(1.0));

            SloSpec near = SloSpec.of(Metric.TTFT).mean().atMost(Duration.ofNanos((long) (plainUpper * 1.001)));
            assertThat(SloEvaluator.evaluate(near, samples, 0.987).reason())
                    .endsWith("need at least 161 effective samples for a 98.7% interval");
        }
    }
}
