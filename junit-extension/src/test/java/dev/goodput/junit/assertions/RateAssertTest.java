package dev.goodput.junit.assertions;

import static dev.goodput.junit.assertions.GoodputAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RateAssertTest {

    // Ten successes in a 2.8 s window: 3.57 req/s; 100 output and 200 input tokens.
    private final RunResult run = SampleRuns.tenSuccesses().build();
    private static final double REQUESTS_PER_SECOND = 10 / 2.8;

    @Test
    void should_pass_when_rate_is_at_least_expected() {
        assertThatNoException().isThrownBy(() -> assertThat(run).goodput().isAtLeast(3.5));
    }

    @Test
    void should_fail_when_rate_is_below_expected() {
        assertThatThrownBy(() -> assertThat(run).goodput().isAtLeast(4))
                .isInstanceOf(AssertionError.class)
                .hasMessage(
                        ShouldBeBounded.shouldBe("goodput", Relation.AT_LEAST, Metric.GOODPUT, 4, REQUESTS_PER_SECOND)
                                .create());
    }

    @Test
    void should_pass_when_rate_is_greater_than_expected() {
        assertThatNoException()
                .isThrownBy(() -> assertThat(run).requestThroughput().isGreaterThan(3.5));
    }

    @Test
    void should_fail_when_rate_is_not_greater_than_expected() {
        assertThatThrownBy(() -> assertThat(run).requestThroughput().isGreaterThan(REQUESTS_PER_SECOND))
                .isInstanceOf(AssertionError.class)
                .hasMessage(ShouldBeBounded.shouldBe(
                                "request throughput",
                                Relation.GREATER_THAN,
                                Metric.REQUEST_THROUGHPUT,
                                REQUESTS_PER_SECOND,
                                REQUESTS_PER_SECOND)
                        .create());
    }

    @Test
    void should_pass_when_rate_is_at_most_expected() {
        assertThatNoException()
                .isThrownBy(() -> assertThat(run).outputTokenThroughput().isAtMost(36));
    }

    @Test
    void should_fail_when_rate_is_above_expected() {
        assertThatThrownBy(() -> assertThat(run).outputTokenThroughput().isAtMost(30))
                .isInstanceOf(AssertionError.class)
                .hasMessage(
                        "Expecting output token throughput of the run to be at most 30.00 tok/s but was 35.71 tok/s");
    }

    @Test
    void should_pass_when_rate_is_less_than_expected() {
        assertThatNoException()
                .isThrownBy(() -> assertThat(run).totalTokenThroughput().isLessThan(108));
    }

    @Test
    void should_fail_when_rate_is_not_less_than_expected() {
        assertThatThrownBy(() -> assertThat(run).totalTokenThroughput().isLessThan(100))
                .isInstanceOf(AssertionError.class)
                .hasMessage(ShouldBeBounded.shouldBe(
                                "total token throughput",
                                Relation.LESS_THAN,
                                Metric.TOTAL_TOKEN_THROUGHPUT,
                                100,
                                300 / 2.8)
                        .create());
    }

    static Stream<Arguments> navigations() {
        return Stream.of(
                navigation(Metric.GOODPUT, RunResultAssert::goodput),
                navigation(Metric.REQUEST_THROUGHPUT, RunResultAssert::requestThroughput),
                navigation(Metric.OUTPUT_TOKEN_THROUGHPUT, RunResultAssert::outputTokenThroughput),
                navigation(Metric.INPUT_TOKEN_THROUGHPUT, RunResultAssert::inputTokenThroughput),
                navigation(Metric.TOTAL_TOKEN_THROUGHPUT, RunResultAssert::totalTokenThroughput));
    }

    private static Arguments navigation(Metric metric, Function<RunResultAssert, RateAssert> navigate) {
        return Arguments.of(metric, navigate);
    }

    @ParameterizedTest
    @MethodSource("navigations")
    void should_pass_on_the_navigated_rate(Metric metric, Function<RunResultAssert, RateAssert> navigate) {
        assertThatNoException().isThrownBy(() -> navigate.apply(assertThat(run)).isAtMost(run.value(metric)));
    }

    @ParameterizedTest
    @MethodSource("navigations")
    void should_fail_naming_the_navigated_rate(Metric metric, Function<RunResultAssert, RateAssert> navigate) {
        assertThatThrownBy(() -> navigate.apply(assertThat(run)).isAtLeast(1e6))
                .isInstanceOf(AssertionError.class)
                .hasMessage(ShouldBeBounded.shouldBe(
                                metric.displayName(), Relation.AT_LEAST, metric, 1e6, run.value(metric))
                        .create());
    }

    @Test
    void should_fail_when_the_run_measured_no_requests() {
        RunResult onlyWarmUp = SampleRuns.run()
                .success(Phase.WARMUP, 0, 100, 200, 3)
                .unsuccessful(Outcome.FAILED, Phase.COOLDOWN, "HTTP 500")
                .build();

        assertThatThrownBy(() -> assertThat(onlyWarmUp).goodput().isAtLeast(3.5))
                .isInstanceOf(AssertionError.class)
                .hasMessage(ShouldBeMeasured.shouldBeMeasured(
                                Expectation.of("goodput", Relation.AT_LEAST, Metric.GOODPUT, 3.5),
                                ShouldBeMeasured.NO_MEASURED_REQUESTS)
                        .create());
    }

    @Test
    void should_chain_back_to_the_run() {
        assertThatNoException()
                .isThrownBy(() -> assertThat(run)
                        .goodput()
                        .isAtLeast(3.5)
                        .returnToRun()
                        .requestThroughput()
                        .isAtLeast(3.5));
    }

    @Test
    void should_reject_a_bound_that_is_not_a_number() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> assertThat(run).goodput().isAtLeast(Double.NaN))
                .withMessage("expected goodput must be a finite number, was NaN");
    }
}
