package dev.goodput.junit.assertions;

import static dev.goodput.junit.assertions.GoodputAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.stats.Summary;
import java.time.Duration;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class LatencyAssertTest {

    private final RunResult run = SampleRuns.tenSuccesses().build();

    @Test
    void should_pass_when_sample_count_is_at_least_expected() {
        assertThatNoException().isThrownBy(() -> assertThat(run).ttft().hasSampleCountAtLeast(10));
    }

    @Test
    void should_fail_when_sample_count_is_below_expected() {
        assertThatThrownBy(() -> assertThat(run).ttft().hasSampleCountAtLeast(600))
                .isInstanceOf(AssertionError.class)
                .hasMessage(ShouldHaveSampleCount.shouldHaveSampleCountAtLeast(Metric.TTFT, 600, 10)
                        .create());
    }

    @Test
    void should_fail_when_a_pooled_metric_has_too_few_samples() {
        // Ten requests of ten tokens give nine gaps each.
        assertThatThrownBy(() -> assertThat(run).itl().hasSampleCountAtLeast(100))
                .isInstanceOf(AssertionError.class)
                .hasMessage("Expecting ITL of the run to have at least 100 samples but had 90");
    }

    static Stream<Arguments> navigations() {
        return Stream.of(
                navigation(Metric.TTFT, RunResultAssert::ttft),
                navigation(Metric.TTFT_FROM_SEND, RunResultAssert::ttftFromSend),
                navigation(Metric.TPOT, RunResultAssert::tpot),
                navigation(Metric.ITL, RunResultAssert::itl),
                navigation(Metric.ICL, RunResultAssert::icl),
                navigation(Metric.E2EL, RunResultAssert::e2el),
                navigation(Metric.QUEUE_TIME, RunResultAssert::queueTime),
                navigation(Metric.MAX_STALL, RunResultAssert::maxStall),
                navigation(Metric.SEND_LAG, RunResultAssert::sendLag),
                navigation(Metric.E2EL, run -> run.metric(Metric.E2EL)));
    }

    private static Arguments navigation(Metric metric, Function<RunResultAssert, LatencyAssert> navigate) {
        return Arguments.of(metric, navigate);
    }

    @ParameterizedTest
    @MethodSource("navigations")
    void should_pass_on_the_summary_of_the_navigated_metric(
            Metric metric, Function<RunResultAssert, LatencyAssert> navigate) {
        double max = run.summary(metric).max();

        assertThatNoException()
                .isThrownBy(
                        () -> navigate.apply(assertThat(run)).max().isAtMost(Duration.ofNanos((long) Math.ceil(max))));
    }

    @ParameterizedTest
    @MethodSource("navigations")
    void should_fail_naming_the_navigated_metric(Metric metric, Function<RunResultAssert, LatencyAssert> navigate) {
        Summary summary = run.summary(metric);

        assertThatThrownBy(() -> navigate.apply(assertThat(run)).max().isGreaterThan(Duration.ofHours(1)))
                .isInstanceOf(AssertionError.class)
                .hasMessage(ShouldBeBounded.shouldBe(
                                "max " + metric.displayName(),
                                Relation.GREATER_THAN,
                                metric,
                                3600e9,
                                summary.max(),
                                summary.count())
                        .create());
    }

    @Test
    void should_reject_a_run_level_metric() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> assertThat(run).metric(Metric.GOODPUT))
                .withMessage("GOODPUT is a run-level value, not a latency; use goodput() or a throughput");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> assertThat(run).metric(Metric.ERROR_RATE))
                .withMessage("ERROR_RATE is a run-level value, not a latency; use errorRate() or sloAttainment()");
    }

    @Test
    void should_fail_on_a_null_run() {
        assertThatThrownBy(() -> assertThat((RunResult) null).ttft())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting actual not to be null");
    }
}
