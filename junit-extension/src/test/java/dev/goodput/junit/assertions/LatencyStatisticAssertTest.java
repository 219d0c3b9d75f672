package dev.goodput.junit.assertions;

import static dev.goodput.junit.assertions.GoodputAssertions.assertThat;
import static dev.goodput.junit.assertions.SampleRuns.MS;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.record.Phase;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.stats.Summary;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class LatencyStatisticAssertTest {

    // p50 TTFT 550 ms, p90 910 ms, p99 991 ms, mean 550 ms, min 100 ms, max 1000 ms, n=10.
    private final RunResult run = SampleRuns.tenSuccesses().build();

    @Test
    void should_pass_when_percentile_is_less_than_bound() {
        assertThatNoException()
                .isThrownBy(() -> assertThat(run).ttft().percentile(99).isLessThan(Duration.ofMillis(1000)));
    }

    @Test
    void should_fail_when_percentile_is_not_less_than_bound() {
        assertThatThrownBy(() -> assertThat(run).ttft().percentile(99).isLessThan(Duration.ofMillis(200)))
                .isInstanceOf(AssertionError.class)
                .hasMessage(
                        ShouldBeBounded.shouldBe("p99 TTFT", Relation.LESS_THAN, Metric.TTFT, 200 * MS, 991 * MS, 10)
                                .create());
    }

    @Test
    void should_pass_when_statistic_equals_an_inclusive_upper_bound() {
        assertThatNoException().isThrownBy(() -> assertThat(run).ttft().max().isAtMost(Duration.ofMillis(1000)));
    }

    @Test
    void should_fail_when_statistic_equals_an_exclusive_upper_bound() {
        assertThatThrownBy(() -> assertThat(run).ttft().max().isLessThan(Duration.ofMillis(1000)))
                .isInstanceOf(AssertionError.class)
                .hasMessage(
                        ShouldBeBounded.shouldBe("max TTFT", Relation.LESS_THAN, Metric.TTFT, 1000 * MS, 1000 * MS, 10)
                                .create());
    }

    @Test
    void should_fail_when_mean_is_above_an_inclusive_upper_bound() {
        assertThatThrownBy(() -> assertThat(run).ttft().mean().isAtMost(Duration.ofMillis(500)))
                .isInstanceOf(AssertionError.class)
                .hasMessage(ShouldBeBounded.shouldBe("mean TTFT", Relation.AT_MOST, Metric.TTFT, 500 * MS, 550 * MS, 10)
                        .create());
    }

    @Test
    void should_pass_when_min_is_greater_than_bound() {
        assertThatNoException().isThrownBy(() -> assertThat(run).ttft().min().isGreaterThan(Duration.ofMillis(99)));
    }

    @Test
    void should_fail_when_min_is_not_greater_than_bound() {
        assertThatThrownBy(() -> assertThat(run).ttft().min().isGreaterThan(Duration.ofMillis(100)))
                .isInstanceOf(AssertionError.class)
                .hasMessage(
                        ShouldBeBounded.shouldBe("min TTFT", Relation.GREATER_THAN, Metric.TTFT, 100 * MS, 100 * MS, 10)
                                .create());
    }

    @Test
    void should_pass_when_median_is_at_least_bound() {
        assertThatNoException().isThrownBy(() -> assertThat(run).ttft().median().isAtLeast(Duration.ofMillis(550)));
    }

    @Test
    void should_fail_when_median_is_below_bound() {
        assertThatThrownBy(() -> assertThat(run).ttft().median().isAtLeast(Duration.ofMillis(600)))
                .isInstanceOf(AssertionError.class)
                .hasMessage(
                        ShouldBeBounded.shouldBe("median TTFT", Relation.AT_LEAST, Metric.TTFT, 600 * MS, 550 * MS, 10)
                                .create());
    }

    @Test
    void should_pass_when_statistic_is_between_inclusive_bounds() {
        assertThatNoException()
                .isThrownBy(() ->
                        assertThat(run).ttft().percentile(90).isBetween(Duration.ofMillis(910), Duration.ofSeconds(1)));
    }

    @Test
    void should_fail_when_statistic_is_above_the_upper_bound_of_between() {
        assertThatThrownBy(() ->
                        assertThat(run).ttft().percentile(90).isBetween(Duration.ofMillis(100), Duration.ofMillis(900)))
                .isInstanceOf(AssertionError.class)
                .hasMessage(ShouldBeBounded.shouldBeBetween("p90 TTFT", Metric.TTFT, 100 * MS, 900 * MS, 910 * MS, 10)
                        .create());
    }

    @Test
    void should_fail_when_statistic_is_below_the_lower_bound_of_between() {
        assertThatThrownBy(() -> assertThat(run).ttft().min().isBetween(Duration.ofMillis(150), Duration.ofMillis(900)))
                .isInstanceOf(AssertionError.class)
                .hasMessage(ShouldBeBounded.shouldBeBetween("min TTFT", Metric.TTFT, 150 * MS, 900 * MS, 100 * MS, 10)
                        .create());
    }

    @Test
    void should_fail_listing_the_computed_percentiles_when_the_percentile_was_not_computed() {
        assertThatThrownBy(() -> assertThat(run).ttft().percentile(99.5).isLessThan(Duration.ofMillis(200)))
                .isInstanceOf(AssertionError.class)
                .hasMessage(ShouldHavePercentile.shouldHavePercentile(
                                Expectation.of("p99.5 TTFT", Relation.LESS_THAN, Metric.TTFT, 200 * MS),
                                99.5,
                                List.of(50.0, 90.0, 95.0, 99.0, 99.9))
                        .create());
    }

    @Test
    void should_fail_when_a_hand_made_summary_has_no_median() {
        // Core always computes the median; only a summary made by hand can lack it.
        Summary withoutMedian =
                new Summary(2, 150 * MS, 50 * MS, 100 * MS, 200 * MS, new TreeMap<>(Map.of(90.0, 190.0 * MS)));
        Map<Metric, Summary> summaries = new EnumMap<>(run.summaries());
        summaries.put(Metric.TTFT, withoutMedian);
        RunResult handMade = new RunResult(
                run.spec(),
                run.environment(),
                run.records(),
                run.accounting(),
                run.load(),
                summaries,
                run.values(),
                run.verdicts(),
                run.goodRequests(),
                run.tokens(),
                run.clientHealth(),
                run.failures(),
                run.serverMetrics(),
                run.classes(),
                run.notes(),
                run.stopReason(),
                run.runLength());

        assertThatThrownBy(() -> assertThat(handMade).ttft().median().isAtMost(Duration.ofSeconds(1)))
                .isInstanceOf(AssertionError.class)
                .hasMessage(ShouldHavePercentile.shouldHavePercentile(
                                Expectation.of("median TTFT", Relation.AT_MOST, Metric.TTFT, 1000 * MS),
                                50,
                                List.of(90.0))
                        .create());
    }

    @Test
    void should_fail_with_no_samples_instead_of_comparing_nan() {
        // One-token outputs have no TPOT.
        RunResult oneTokenEach = SampleRuns.run().success(100, 100, 1).build();

        assertThatThrownBy(() -> assertThat(oneTokenEach).tpot().percentile(99).isLessThan(Duration.ofMillis(50)))
                .isInstanceOf(AssertionError.class)
                .hasMessage(ShouldHaveSamples.shouldHaveSamples(
                                Expectation.of("p99 TPOT", Relation.LESS_THAN, Metric.TPOT, 50 * MS), Metric.TPOT)
                        .create());
    }

    @Test
    void should_fail_with_no_samples_for_between_and_extremes() {
        RunResult onlyWarmUp =
                SampleRuns.run().success(Phase.WARMUP, 0, 100, 200, 3).build();

        assertThatThrownBy(() -> assertThat(onlyWarmUp).ttft().max().isBetween(Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(AssertionError.class)
                .hasMessage(ShouldHaveSamples.shouldHaveSamples(
                                Expectation.between("max TTFT", Metric.TTFT, 0, 1000 * MS), Metric.TTFT)
                        .create());
    }

    @Test
    void should_show_more_decimals_when_value_and_bound_would_print_alike() {
        RunResult run = SampleRuns.run().success(100, 100, 1).build();

        assertThatThrownBy(() -> assertThat(run).ttft().max().isAtMost(Duration.ofNanos(99_999_000)))
                .isInstanceOf(AssertionError.class)
                .hasMessage("Expecting max TTFT of the run to be at most 99.999000 ms but was 100.000000 ms (n=1)");
    }

    @Test
    void should_put_the_description_in_front_of_the_message() {
        assertThatThrownBy(() ->
                        assertThat(run).as("nightly").ttft().percentile(99).isLessThan(Duration.ofMillis(200)))
                .isInstanceOf(AssertionError.class)
                .hasMessage("[nightly] "
                        + ShouldBeBounded.shouldBe("p99 TTFT", Relation.LESS_THAN, Metric.TTFT, 200 * MS, 991 * MS, 10)
                                .create());
    }

    @Test
    void should_chain_back_to_the_metric() {
        assertThatNoException()
                .isThrownBy(() -> assertThat(run)
                        .ttft()
                        .percentile(50)
                        .isLessThan(Duration.ofMillis(600))
                        .returnToLatency()
                        .percentile(99)
                        .isLessThan(Duration.ofSeconds(1))
                        .returnToLatency()
                        .returnToRun()
                        .hasNoFailedRequests());
    }

    @Test
    void should_reject_a_negative_bound() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> assertThat(run).ttft().max().isAtMost(Duration.ofMillis(-1)))
                .withMessage("a latency bound cannot be negative, was PT-0.001S");
    }

    @Test
    void should_reject_between_bounds_in_the_wrong_order() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> assertThat(run).ttft().max().isBetween(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .withMessage("upper bound PT1S is below lower bound PT2S");
    }

    @Test
    void should_reject_a_percentile_outside_0_to_100() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> assertThat(run).ttft().percentile(0))
                .withMessage("percentile must be above 0 and at most 100, was 0.0");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> assertThat(run).ttft().percentile(100.5));
    }
}
