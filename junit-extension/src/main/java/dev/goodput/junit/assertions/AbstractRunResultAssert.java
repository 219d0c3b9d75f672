package dev.goodput.junit.assertions;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunResult;
import java.util.List;
import java.util.function.Predicate;
import org.apiguardian.api.API;
import org.assertj.core.api.AbstractAssert;

/**
 * The checks on a {@link RunResult} as a whole: outcomes, accounting, client health and objectives. The
 * navigation to single metrics lives in {@link RunResultAssert}; extend this class to add checks of your own
 * while keeping these.
 *
 * @param <SELF> the type of the concrete assertion, returned by every check for chaining
 */
@API(status = EXPERIMENTAL, since = "0.1")
public abstract class AbstractRunResultAssert<SELF extends AbstractRunResultAssert<SELF>>
        extends AbstractAssert<SELF, RunResult> {

    /**
     * Creates the checks on a result.
     *
     * @param actual the result to check, or {@code null} to have every check fail saying so
     * @param selfType the class of the concrete assertion
     */
    protected AbstractRunResultAssert(RunResult actual, Class<?> selfType) {
        super(actual, selfType);
    }

    /**
     * Verifies that no request of the run failed (HTTP error, error in the stream, lost connection), warm-up
     * and cool-down included.
     *
     * <pre><code class='java'> // passes when every request succeeded; fails when two failed with
     * // "Expecting the run to have no failed requests but 2 of 120 requests failed, for example:
     * //   request 5 (measured): HTTP 500
     * //   request 17 (warm-up): connection reset"
     * assertThat(result).hasNoFailedRequests();</code></pre>
     *
     * @return this assertion object
     * @throws AssertionError if a request failed; the message shows up to five of them
     */
    public SELF hasNoFailedRequests() {
        return hasNoRequests(Outcome.FAILED);
    }

    /**
     * Verifies that no request of the run hit a configured timeout, warm-up and cool-down included.
     *
     * <pre><code class='java'> // passes when no request timed out; fails when one did with
     * // "Expecting the run to have no timed-out requests but 1 of 120 requests timed out, for example:
     * //   request 9 (measured): no first token within 30 s"
     * assertThat(result).hasNoTimedOutRequests();</code></pre>
     *
     * @return this assertion object
     * @throws AssertionError if a request timed out; the message shows up to five of them
     */
    public SELF hasNoTimedOutRequests() {
        return hasNoRequests(Outcome.TIMED_OUT);
    }

    /**
     * Verifies that no request was still queued or in flight when the run ended its drain period.
     *
     * <pre><code class='java'> // passes when every request ended in time; fails when one did not with
     * // "Expecting the run to have no cancelled requests but 1 of 120 requests were cancelled, for example:
     * //   request 119 (cool-down): still in flight when the drain period ended"
     * assertThat(result).hasNoCancelledRequests();</code></pre>
     *
     * @return this assertion object
     * @throws AssertionError if a request was cancelled; the message shows up to five of them
     */
    public SELF hasNoCancelledRequests() {
        return hasNoRequests(Outcome.CANCELLED);
    }

    /**
     * Verifies that every request of the run succeeded, warm-up and cool-down included.
     *
     * <pre><code class='java'> // passes when every request succeeded; fails otherwise with, for example,
     * // "Expecting all 120 requests of the run to succeed but 2 did not (1 failed, 1 timed out), for example:
     * //   request 5 (measured, failed): HTTP 500
     * //   request 9 (measured, timed out): no first token within 30 s"
     * assertThat(result).allRequestsSucceeded();</code></pre>
     *
     * @return this assertion object
     * @throws AssertionError if a request did not succeed; the message shows up to five of them
     */
    public SELF allRequestsSucceeded() {
        List<RequestRecord> unsuccessful = requestsWhere(record -> !record.isSuccess());
        if (!unsuccessful.isEmpty()) {
            throwAssertionError(ShouldHaveOnlySuccessfulRequests.shouldAllSucceed(
                    unsuccessful, actual.records().size()));
        }
        return myself;
    }

    /**
     * Verifies that the load schedule created exactly the given number of requests, warm-up and cool-down
     * included.
     *
     * <pre><code class='java'> // passes when the profile scheduled 600 requests; fails when it stopped early with
     * // "Expecting the run to have scheduled 600 requests but it scheduled 412"
     * assertThat(result).hasScheduledRequests(600);</code></pre>
     *
     * @param expected the number of requests the schedule should have created
     * @return this assertion object
     * @throws AssertionError if the schedule created a different number
     */
    public SELF hasScheduledRequests(long expected) {
        isNotNull();
        long scheduled = actual.accounting().scheduled();
        if (scheduled != expected) {
            throwAssertionError(ShouldHaveRequestCount.shouldHaveScheduledRequests(expected, scheduled));
        }
        return myself;
    }

    /**
     * Verifies that the accounting is complete: the requests by outcome and by phase each add up to the
     * scheduled count, so no request was lost or counted twice.
     *
     * <pre><code class='java'> // passes for every result Goodput computes; fails for a broken one with
     * // "Expecting the outcomes and the phases of the run each to add up to its 120 scheduled requests but the
     * // outcomes add up to 119 (succeeded 100, failed 10, timed out 5, cancelled 4) and the phases to 120
     * // (warm-up 10, measured 100, cool-down 10)"
     * assertThat(result).isBalanced();</code></pre>
     *
     * @return this assertion object
     * @throws AssertionError if the outcomes or the phases do not add up
     */
    public SELF isBalanced() {
        isNotNull();
        if (!actual.accounting().isBalanced()) {
            throwAssertionError(ShouldBeBalanced.shouldBeBalanced(actual.accounting()));
        }
        return myself;
    }

    /**
     * Verifies that the load generator kept up with its schedule (p99 send lag within the limit), so the
     * server was really offered the load the profile describes.
     *
     * <pre><code class='java'> // passes when p99 send lag was 1.20 ms; fails when it was 14.20 ms with
     * // "Expecting the run to be trustworthy (p99 send lag and p99 pause at most 10.00 ms) but the client fell behind its
     * // schedule: p99 send lag 14.20 ms exceeds 10.00 ms, so the server was offered less load than the
     * // profile asked for"
     * assertThat(result).isTrustworthy();</code></pre>
     *
     * @return this assertion object
     * @throws AssertionError if the client fell behind; the message carries the reason
     */
    public SELF isTrustworthy() {
        isNotNull();
        if (!actual.clientHealth().trustworthy()) {
            throwAssertionError(ShouldBeTrustworthy.shouldBeTrustworthy(actual.clientHealth()));
        }
        return myself;
    }

    /**
     * Verifies that every objective of the run was met; an inconclusive verdict is not met. A run without
     * objectives passes.
     *
     * <pre><code class='java'> // passes when both objectives were met; fails otherwise with, for example,
     * // "Expecting all 2 objectives of the run to be met but 1 of 2 were met:
     * //   p99 TTFT: measured 612.40 ms (95% CI 598.10 ms .. 640.00 ms, n=600), bound ≤ 500.00 ms: VIOLATED
     * //   goodput: measured 4.10 req/s (n=600), bound ≥ 3.50 req/s: MET"
     * assertThat(result).hasAllObjectivesMet();</code></pre>
     *
     * @return this assertion object
     * @throws AssertionError if an objective was violated or inconclusive; the message lists every verdict
     */
    public SELF hasAllObjectivesMet() {
        isNotNull();
        if (!actual.allMet()) {
            throwAssertionError(ShouldHaveAllObjectivesMet.shouldHaveAllObjectivesMet(actual.verdicts()));
        }
        return myself;
    }

    /**
     * Verifies that at least the given number of measured requests were good: they succeeded and met every
     * request-level objective.
     *
     * <pre><code class='java'> // passes when 112 requests were good; fails when 87 were with
     * // "Expecting the run to have at least 100 good requests (succeeded and met every request-level
     * // objective) but had 87 of 120 measured requests"
     * assertThat(result).hasGoodRequestsAtLeast(100);</code></pre>
     *
     * @param expected the smallest acceptable number of good requests
     * @return this assertion object
     * @throws AssertionError if fewer requests were good
     */
    public SELF hasGoodRequestsAtLeast(long expected) {
        isNotNull();
        if (actual.goodRequests() < expected) {
            throwAssertionError(ShouldHaveRequestCount.shouldHaveGoodRequestsAtLeast(
                    expected, actual.goodRequests(), actual.accounting().measured()));
        }
        return myself;
    }

    private SELF hasNoRequests(Outcome outcome) {
        List<RequestRecord> matching = requestsWhere(record -> record.outcome() == outcome);
        if (!matching.isEmpty()) {
            throwAssertionError(ShouldHaveOnlySuccessfulRequests.shouldHaveNoRequests(
                    outcome, matching, actual.records().size()));
        }
        return myself;
    }

    private List<RequestRecord> requestsWhere(Predicate<RequestRecord> condition) {
        isNotNull();
        return actual.records().stream().filter(condition).toList();
    }
}
