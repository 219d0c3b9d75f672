package dev.goodput.junit.assertions;

import static dev.goodput.junit.assertions.GoodputAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.Accounting;
import dev.goodput.core.result.ClientHealth;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunResultAssertTest {

    private final RunResult allSucceeded = SampleRuns.tenSuccesses().build();

    /** Successes 0 and 4, then a failure, a timeout and a cancellation in different phases. */
    private final RunResult mixed = SampleRuns.run()
            .success(100, 1000, 10)
            .unsuccessful(Outcome.FAILED, Phase.WARMUP, "connection reset")
            .unsuccessful(Outcome.TIMED_OUT, Phase.MEASURED, "no first token within 30 s")
            .unsuccessful(Outcome.CANCELLED, Phase.COOLDOWN, "still in flight when the drain period ended")
            .success(100, 1000, 10)
            .unsuccessful(Outcome.FAILED, Phase.MEASURED, "HTTP 500")
            .build();

    @Test
    void should_pass_when_no_request_failed() {
        assertThatNoException()
                .isThrownBy(() -> assertThat(allSucceeded)
                        .hasNoFailedRequests()
                        .hasNoTimedOutRequests()
                        .hasNoCancelledRequests()
                        .allRequestsSucceeded());
    }

    @Test
    void should_fail_listing_the_failed_requests() {
        assertThatThrownBy(() -> assertThat(mixed).hasNoFailedRequests())
                .isInstanceOf(AssertionError.class)
                .hasMessage(ShouldHaveOnlySuccessfulRequests.shouldHaveNoRequests(
                                Outcome.FAILED, List.of(record(1), record(5)), 6)
                        .create());
    }

    @Test
    void should_fail_listing_the_timed_out_requests() {
        assertThatThrownBy(() -> assertThat(mixed).hasNoTimedOutRequests())
                .isInstanceOf(AssertionError.class)
                .hasMessage(String.join(
                        System.lineSeparator(),
                        "Expecting the run to have no timed-out requests but 1 of 6 requests timed out, for example:",
                        "  request 2 (measured): no first token within 30 s"));
    }

    @Test
    void should_fail_listing_the_cancelled_requests() {
        assertThatThrownBy(() -> assertThat(mixed).hasNoCancelledRequests())
                .isInstanceOf(AssertionError.class)
                .hasMessage(
                        ShouldHaveOnlySuccessfulRequests.shouldHaveNoRequests(Outcome.CANCELLED, List.of(record(3)), 6)
                                .create());
    }

    @Test
    void should_fail_listing_every_kind_of_unsuccessful_request() {
        assertThatThrownBy(() -> assertThat(mixed).allRequestsSucceeded())
                .isInstanceOf(AssertionError.class)
                .hasMessage(String.join(
                        System.lineSeparator(),
                        "Expecting all 6 requests of the run to succeed but 4 did not (2 failed, 1 timed out,"
                                + " 1 cancelled), for example:",
                        "  request 1 (warm-up, failed): connection reset",
                        "  request 2 (measured, timed out): no first token within 30 s",
                        "  request 3 (cool-down, cancelled): still in flight when the drain period ended",
                        "  request 5 (measured, failed): HTTP 500"));
    }

    @Test
    void should_fail_with_five_examples_and_a_count_of_the_rest() {
        SampleRuns.Builder builder = SampleRuns.run();
        for (int i = 0; i < 8; i++) {
            builder.unsuccessful(Outcome.FAILED, Phase.MEASURED, "HTTP 50" + i);
        }
        RunResult run = builder.build();

        assertThatThrownBy(() -> assertThat(run).allRequestsSucceeded())
                .isInstanceOf(AssertionError.class)
                .hasMessage(ShouldHaveOnlySuccessfulRequests.shouldAllSucceed(run.records(), 8)
                        .create())
                .hasMessageEndingWith(
                        "  request 4 (measured, failed): HTTP 504" + System.lineSeparator() + "  ... and 3 more");
    }

    @Test
    void should_shorten_a_long_error_detail() {
        RunResult run = SampleRuns.run()
                .unsuccessful(Outcome.FAILED, Phase.MEASURED, "x".repeat(500))
                .build();

        assertThatThrownBy(() -> assertThat(run).hasNoFailedRequests())
                .isInstanceOf(AssertionError.class)
                .hasMessageEndingWith("  request 0 (measured): " + "x".repeat(200) + "...");
    }

    @Test
    void should_pass_when_the_schedule_created_the_expected_requests() {
        assertThatNoException().isThrownBy(() -> assertThat(allSucceeded).hasScheduledRequests(10));
    }

    @Test
    void should_fail_when_the_schedule_created_a_different_number() {
        assertThatThrownBy(() -> assertThat(allSucceeded).hasScheduledRequests(600))
                .isInstanceOf(AssertionError.class)
                .hasMessage(ShouldHaveRequestCount.shouldHaveScheduledRequests(600, 10)
                        .create());
    }

    @Test
    void should_pass_when_the_accounting_adds_up() {
        assertThatNoException().isThrownBy(() -> assertThat(mixed).isBalanced());
    }

    @Test
    void should_fail_when_the_accounting_does_not_add_up() {
        Accounting counted = mixed.accounting();
        Accounting broken = new Accounting(7, counted.byOutcome(), counted.byPhase(), counted.measuredByOutcome());
        RunResult run = withAccountingAndHealth(mixed, broken, mixed.clientHealth());

        assertThatThrownBy(() -> assertThat(run).isBalanced())
                .isInstanceOf(AssertionError.class)
                .hasMessage(ShouldBeBalanced.shouldBeBalanced(broken).create());
    }

    @Test
    void should_pass_when_the_client_kept_up() {
        assertThatNoException().isThrownBy(() -> assertThat(allSucceeded).isTrustworthy());
    }

    @Test
    void should_fail_with_the_reason_when_the_client_fell_behind() {
        // Client health is judged from 10 sent requests on (p90 below 100): 3 of 10 left 40 ms late.
        SampleRuns.Builder builder = SampleRuns.run().sendLagLimit(Duration.ofMillis(10));
        for (int i = 0; i < 10; i++) {
            builder.success(Phase.MEASURED, i < 7 ? 0 : 40, 100, 200, 3);
        }
        RunResult late = builder.build();

        assertThatThrownBy(() -> assertThat(late).isTrustworthy())
                .isInstanceOf(AssertionError.class)
                .hasMessage(ShouldBeTrustworthy.shouldBeTrustworthy(late.clientHealth())
                        .create())
                .hasMessageContaining(late.clientHealth().reason());
    }

    @Test
    void should_fail_with_the_send_lag_when_the_health_gives_no_reason() {
        ClientHealth health = new ClientHealth(false, 14.2e6, 10_000_000, null, Double.NaN);
        RunResult run = withAccountingAndHealth(allSucceeded, allSucceeded.accounting(), health);

        assertThatThrownBy(() -> assertThat(run).isTrustworthy())
                .isInstanceOf(AssertionError.class)
                .hasMessage(
                        "Expecting the run to be trustworthy (p99 send lag and p99 pause at most 10.00 ms) but p99 send lag"
                                + " was 14.20 ms");
    }

    @Test
    void should_pass_when_every_objective_was_met() {
        // Ten requests decide what they can: a rate far below the measured one, and no error at all.
        RunResult run = SampleRuns.tenSuccesses()
                .objectives(
                        SloSpec.of(Metric.GOODPUT).atLeast(0.5),
                        SloSpec.of(Metric.ERROR_RATE).atMost(0))
                .build();

        assertThatNoException().isThrownBy(() -> assertThat(run).hasAllObjectivesMet());
    }

    @Test
    void should_pass_when_there_are_no_objectives() {
        assertThatNoException().isThrownBy(() -> assertThat(allSucceeded).hasAllObjectivesMet());
    }

    @Test
    void should_fail_listing_every_verdict_when_an_objective_was_not_met() {
        RunResult run = SampleRuns.tenSuccesses()
                .objectives(
                        SloSpec.of(Metric.GOODPUT).atLeast(50),
                        SloSpec.of(Metric.ERROR_RATE).atMost(0),
                        SloSpec.of(Metric.REQUEST_THROUGHPUT).atLeast(100))
                .build();

        assertThatThrownBy(() -> assertThat(run).hasAllObjectivesMet())
                .isInstanceOf(AssertionError.class)
                .hasMessage(ShouldHaveAllObjectivesMet.shouldHaveAllObjectivesMet(run.verdicts())
                        .create())
                .hasMessageStartingWith("Expecting all 3 objectives of the run to be met but 1 of 3 were met:")
                .hasMessageContaining(run.verdicts().get(0).describe())
                .hasMessageContaining(run.verdicts().get(1).describe())
                .hasMessageContaining(run.verdicts().get(2).describe());
    }

    @Test
    void should_pass_when_enough_requests_were_good() {
        assertThatNoException().isThrownBy(() -> assertThat(allSucceeded).hasGoodRequestsAtLeast(10));
    }

    @Test
    void should_fail_when_too_few_requests_were_good() {
        RunResult run = SampleRuns.tenSuccesses()
                .objectives(SloSpec.of(Metric.TTFT).percentile(99).atMost(Duration.ofMillis(300)))
                .build();

        assertThatThrownBy(() -> assertThat(run).hasGoodRequestsAtLeast(9))
                .isInstanceOf(AssertionError.class)
                .hasMessage(ShouldHaveRequestCount.shouldHaveGoodRequestsAtLeast(9, 3, 10)
                        .create());
    }

    @Test
    void should_fail_on_a_null_run() {
        assertThatThrownBy(() -> assertThat((RunResult) null).hasNoFailedRequests())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting actual not to be null");
    }

    private RequestRecord record(int index) {
        return mixed.records().get(index);
    }

    private static RunResult withAccountingAndHealth(RunResult run, Accounting accounting, ClientHealth health) {
        return new RunResult(
                run.spec(),
                run.environment(),
                run.records(),
                accounting,
                run.load(),
                run.summaries(),
                run.values(),
                run.verdicts(),
                run.goodRequests(),
                run.tokens(),
                health,
                run.failures(),
                run.serverMetrics(),
                run.classes(),
                run.notes(),
                run.stopReason(),
                run.runLength());
    }
}
