package dev.goodput.junit.assertions;

import static dev.goodput.junit.assertions.SampleRuns.MS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.result.Accounting;
import dev.goodput.core.result.ClientHealth;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.slo.SloVerdict;
import dev.goodput.core.slo.Verdict;
import dev.goodput.core.stats.ConfidenceInterval;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.assertj.core.description.TextDescription;
import org.junit.jupiter.api.Test;

/** Pins the exact text of every message factory, so a change of wording is a visible, deliberate change. */
class FailureMessagesTest {

    private static final String NEWLINE = System.lineSeparator();

    @Test
    void should_say_expected_measured_unit_and_sample_count_of_a_latency() {
        assertThat(ShouldBeBounded.shouldBe("p99 TTFT", Relation.LESS_THAN, Metric.TTFT, 200 * MS, 312.4 * MS, 600)
                        .create())
                .isEqualTo("Expecting p99 TTFT of the run to be less than 200.00 ms but was 312.40 ms (n=600)");
    }

    @Test
    void should_say_expected_and_measured_rate_with_unit() {
        assertThat(ShouldBeBounded.shouldBe("goodput", Relation.AT_LEAST, Metric.GOODPUT, 3.5, 2.1)
                        .create())
                .isEqualTo("Expecting goodput of the run to be at least 3.50 req/s but was 2.10 req/s");
    }

    @Test
    void should_show_a_ratio_as_a_percentage() {
        assertThat(ShouldBeBounded.shouldBe("error rate", Relation.AT_MOST, Metric.ERROR_RATE, 0.01, 0.0417)
                        .create())
                .isEqualTo("Expecting error rate of the run to be at most 1.00 % but was 4.17 %");
    }

    @Test
    void should_say_both_bounds_of_between() {
        assertThat(ShouldBeBounded.shouldBeBetween("p99 TTFT", Metric.TTFT, 100 * MS, 200 * MS, 312.4 * MS, 600)
                        .create())
                .isEqualTo("Expecting p99 TTFT of the run to be between 100.00 ms and 200.00 ms but was 312.40 ms"
                        + " (n=600)");
    }

    @Test
    void should_show_more_decimals_only_for_the_missed_bound_of_between() {
        assertThat(ShouldBeBounded.shouldBeBetween("max TTFT", Metric.TTFT, 100 * MS, 200 * MS, 200.004 * MS, 5)
                        .create())
                .isEqualTo("Expecting max TTFT of the run to be between 100.00 ms and 200.000000 ms but was"
                        + " 200.004000 ms (n=5)");
    }

    @Test
    void should_say_there_were_no_samples() {
        Expectation expectation = Expectation.of("p99 TPOT", Relation.LESS_THAN, Metric.TPOT, 50 * MS);

        assertThat(ShouldHaveSamples.shouldHaveSamples(expectation, Metric.TPOT).create())
                .isEqualTo("Expecting p99 TPOT of the run to be less than 50.00 ms but TPOT had no samples (n=0), so"
                        + " there is nothing to compare");
    }

    @Test
    void should_list_the_computed_percentiles() {
        Expectation expectation = Expectation.of("p99.5 TTFT", Relation.LESS_THAN, Metric.TTFT, 200 * MS);

        assertThat(ShouldHavePercentile.shouldHavePercentile(expectation, 99.5, List.of(50.0, 99.0, 99.9))
                        .create())
                .isEqualTo("Expecting p99.5 TTFT of the run to be less than 200.00 ms but p99.5 was not computed for"
                        + " this run; computed percentiles: p50, p99, p99.9 (choose them with"
                        + " Goodput.RunBuilder.percentiles)");
        assertThat(ShouldHavePercentile.shouldHavePercentile(expectation, 99.5, List.of())
                        .create())
                .contains("computed percentiles: none");
    }

    @Test
    void should_say_why_a_value_was_not_measured() {
        Expectation expectation = Expectation.of("goodput", Relation.AT_LEAST, Metric.GOODPUT, 3.5);

        assertThat(ShouldBeMeasured.shouldBeMeasured(expectation, ShouldBeMeasured.NO_MEASURED_REQUESTS)
                        .create())
                .isEqualTo("Expecting goodput of the run to be at least 3.50 req/s but it was not measured: the run"
                        + " had no measured requests");
    }

    @Test
    void should_say_expected_and_actual_sample_count() {
        assertThat(ShouldHaveSampleCount.shouldHaveSampleCountAtLeast(Metric.TTFT, 600, 412)
                        .create())
                .isEqualTo("Expecting TTFT of the run to have at least 600 samples but had 412");
    }

    @Test
    void should_say_expected_and_actual_request_counts() {
        assertThat(ShouldHaveRequestCount.shouldHaveScheduledRequests(600, 412).create())
                .isEqualTo("Expecting the run to have scheduled 600 requests but it scheduled 412");
        assertThat(ShouldHaveRequestCount.shouldHaveGoodRequestsAtLeast(100, 87, 120)
                        .create())
                .isEqualTo("Expecting the run to have at least 100 good requests (succeeded and met every"
                        + " request-level objective) but had 87 of 120 measured requests");
    }

    @Test
    void should_break_down_an_unbalanced_accounting() {
        Accounting accounting = new Accounting(
                120,
                Map.of(Outcome.SUCCESS, 100L, Outcome.FAILED, 10L, Outcome.TIMED_OUT, 5L, Outcome.CANCELLED, 4L),
                Map.of(Phase.WARMUP, 10L, Phase.MEASURED, 100L, Phase.COOLDOWN, 10L),
                Map.of());

        assertThat(ShouldBeBalanced.shouldBeBalanced(accounting).create())
                .isEqualTo("Expecting the outcomes and the phases of the run each to add up to its 120 scheduled"
                        + " requests but the outcomes add up to 119 (succeeded 100, failed 10, timed out 5,"
                        + " cancelled 4) and the phases to 120 (warm-up 10, measured 100, cool-down 10)");
    }

    @Test
    void should_carry_the_client_health_reason() {
        ClientHealth health =
                new ClientHealth(false, 14.2e6, 10_000_000, "the client fell behind its schedule", Double.NaN);

        assertThat(ShouldBeTrustworthy.shouldBeTrustworthy(health).create())
                .isEqualTo(
                        "Expecting the run to be trustworthy (p99 send lag and p99 pause at most 10.00 ms) but the client fell"
                                + " behind its schedule");
    }

    @Test
    void should_list_every_verdict_and_count_the_met_ones() {
        SloVerdict violated = new SloVerdict(
                SloSpec.of(Metric.TTFT).percentile(99).atMost(Duration.ofMillis(500)),
                Verdict.VIOLATED,
                612.4 * MS,
                new ConfidenceInterval(598.1 * MS, 640 * MS, 0.95, "order statistics (binomial)"),
                600,
                600,
                null);
        SloVerdict met =
                new SloVerdict(SloSpec.of(Metric.GOODPUT).atLeast(3.5), Verdict.MET, 4.1, null, 600, Double.NaN, null);

        assertThat(ShouldHaveAllObjectivesMet.shouldHaveAllObjectivesMet(List.of(violated, met))
                        .create())
                .isEqualTo("Expecting all 2 objectives of the run to be met but 1 of 2 were met:" + NEWLINE
                        + "  p99 TTFT: measured 612.40 ms (95% CI 598.10 ms .. 640.00 ms, n=600), bound ≤ 500.00 ms:"
                        + " VIOLATED" + NEWLINE
                        + "  goodput: measured 4.10 req/s (n=600), bound ≥ 3.50 req/s: MET");
    }

    @Test
    void should_put_an_assertion_description_in_front() {
        assertThat(ShouldHaveRequestCount.shouldHaveScheduledRequests(600, 412).create(new TextDescription("nightly")))
                .isEqualTo("[nightly] Expecting the run to have scheduled 600 requests but it scheduled 412");
    }
}
