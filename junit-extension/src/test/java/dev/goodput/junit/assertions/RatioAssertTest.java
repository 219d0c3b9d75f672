package dev.goodput.junit.assertions;

import static dev.goodput.junit.assertions.GoodputAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RatioAssertTest {

    /** Eight successes with TTFT 100..800 ms, one failure, one timeout; TTFT at most 500 ms makes 5 good. */
    private final RunResult run = eightOfTenSucceeded();

    private static RunResult eightOfTenSucceeded() {
        SampleRuns.Builder run = SampleRuns.run();
        for (int i = 1; i <= 8; i++) {
            run.success(i * 100L, i * 100L + 900, 10);
        }
        return run.unsuccessful(Outcome.FAILED, Phase.MEASURED, "HTTP 500")
                .unsuccessful(Outcome.TIMED_OUT, Phase.MEASURED, "no first token within 30 s")
                .objectives(SloSpec.of(Metric.TTFT).percentile(99).atMost(Duration.ofMillis(500)))
                .build();
    }

    @Test
    void should_pass_when_ratio_is_at_most_expected() {
        assertThatNoException().isThrownBy(() -> assertThat(run).errorRate().isAtMost(0.2));
    }

    @Test
    void should_fail_when_ratio_is_above_expected() {
        assertThatThrownBy(() -> assertThat(run).errorRate().isAtMost(0.01))
                .isInstanceOf(AssertionError.class)
                .hasMessage(ShouldBeBounded.shouldBe("error rate", Relation.AT_MOST, Metric.ERROR_RATE, 0.01, 0.2)
                        .create());
    }

    @Test
    void should_pass_when_ratio_is_less_than_expected() {
        assertThatNoException().isThrownBy(() -> assertThat(run).errorRate().isLessThan(0.25));
    }

    @Test
    void should_fail_when_ratio_is_not_less_than_expected() {
        assertThatThrownBy(() -> assertThat(run).errorRate().isLessThan(0.2))
                .isInstanceOf(AssertionError.class)
                .hasMessage("Expecting error rate of the run to be less than 20.00 % but was 20.00 %");
    }

    @Test
    void should_pass_when_ratio_is_at_least_expected() {
        assertThatNoException().isThrownBy(() -> assertThat(run).sloAttainment().isAtLeast(0.5));
    }

    @Test
    void should_fail_when_ratio_is_below_expected() {
        assertThatThrownBy(() -> assertThat(run).sloAttainment().isAtLeast(0.95))
                .isInstanceOf(AssertionError.class)
                .hasMessage(
                        ShouldBeBounded.shouldBe("SLO attainment", Relation.AT_LEAST, Metric.SLO_ATTAINMENT, 0.95, 0.5)
                                .create());
    }

    @Test
    void should_pass_when_ratio_is_greater_than_expected() {
        assertThatNoException().isThrownBy(() -> assertThat(run).sloAttainment().isGreaterThan(0.49));
    }

    @Test
    void should_fail_when_ratio_is_not_greater_than_expected() {
        assertThatThrownBy(() -> assertThat(run).sloAttainment().isGreaterThan(0.5))
                .isInstanceOf(AssertionError.class)
                .hasMessage(ShouldBeBounded.shouldBe(
                                "SLO attainment", Relation.GREATER_THAN, Metric.SLO_ATTAINMENT, 0.5, 0.5)
                        .create());
    }

    @Test
    void should_fail_when_the_run_measured_no_requests() {
        RunResult onlyWarmUp =
                SampleRuns.run().success(Phase.WARMUP, 0, 100, 200, 3).build();

        assertThatThrownBy(() -> assertThat(onlyWarmUp).errorRate().isAtMost(0.01))
                .isInstanceOf(AssertionError.class)
                .hasMessage(ShouldBeMeasured.shouldBeMeasured(
                                Expectation.of("error rate", Relation.AT_MOST, Metric.ERROR_RATE, 0.01),
                                ShouldBeMeasured.NO_MEASURED_REQUESTS)
                        .create());
    }

    @Test
    void should_fail_when_every_measured_request_was_cancelled() {
        RunResult allCancelled = SampleRuns.run()
                .unsuccessful(Outcome.CANCELLED, Phase.MEASURED, "still queued when the drain period ended")
                .unsuccessful(Outcome.CANCELLED, Phase.MEASURED, "still queued when the drain period ended")
                .build();

        assertThatThrownBy(() -> assertThat(allCancelled).sloAttainment().isAtLeast(0.9))
                .isInstanceOf(AssertionError.class)
                .hasMessage("Expecting SLO attainment of the run to be at least 90.00 % but it was not measured:"
                        + " every measured request was cancelled");
    }

    @Test
    void should_chain_back_to_the_run() {
        assertThatNoException()
                .isThrownBy(() -> assertThat(run)
                        .errorRate()
                        .isAtMost(0.2)
                        .returnToRun()
                        .sloAttainment()
                        .isAtLeast(0.5));
    }

    @Test
    void should_reject_a_bound_outside_0_to_1() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> assertThat(run).errorRate().isAtMost(5))
                .withMessage("error rate is a ratio between 0 and 1 (0.01 is 1 %), so the expected value must be too,"
                        + " was 5.0");
    }
}
