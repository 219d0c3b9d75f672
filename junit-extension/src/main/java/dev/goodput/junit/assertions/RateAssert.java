package dev.goodput.junit.assertions;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.slo.Metric;
import org.apiguardian.api.API;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on a run-level rate: goodput or request throughput in requests per second, or a token throughput
 * in tokens per second. Reach it from {@link RunResultAssert}, for example {@code assertThat(result).goodput()}.
 *
 * <p>A rate the run could not measure (no measured requests, so no measurement window) fails every
 * assertion with the reason instead of comparing NaN.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class RateAssert extends AbstractAssert<RateAssert, Double> {

    private final Metric metric;
    private final String unmeasuredReason;
    private final RunResultAssert run;

    RateAssert(double rate, Metric metric, String unmeasuredReason, RunResultAssert run) {
        super(rate, RateAssert.class);
        this.metric = metric;
        this.unmeasuredReason = unmeasuredReason;
        this.run = run;
    }

    /**
     * Verifies that the rate is greater than or equal to the given one.
     *
     * <pre><code class='java'> // passes when goodput was 4.10 req/s
     * assertThat(result).goodput().isAtLeast(3.5);
     *
     * // fails when goodput was 2.10 req/s:
     * // "Expecting goodput of the run to be at least 3.50 req/s but was 2.10 req/s"
     * assertThat(result).goodput().isAtLeast(3.5);</code></pre>
     *
     * @param expected the inclusive lower bound, in requests/s or tokens/s as the metric counts
     * @return this assertion object
     * @throws AssertionError if the rate is below {@code expected} or was not measured
     */
    public RateAssert isAtLeast(double expected) {
        return compare(Relation.AT_LEAST, expected);
    }

    /**
     * Verifies that the rate is strictly greater than the given one.
     *
     * <pre><code class='java'> // passes when output token throughput was 1250.00 tok/s
     * assertThat(result).outputTokenThroughput().isGreaterThan(1000);
     *
     * // fails when output token throughput was 870.00 tok/s:
     * // "Expecting output token throughput of the run to be greater than 1000.00 tok/s but was 870.00 tok/s"
     * assertThat(result).outputTokenThroughput().isGreaterThan(1000);</code></pre>
     *
     * @param expected the exclusive lower bound, in requests/s or tokens/s as the metric counts
     * @return this assertion object
     * @throws AssertionError if the rate is not above {@code expected} or was not measured
     */
    public RateAssert isGreaterThan(double expected) {
        return compare(Relation.GREATER_THAN, expected);
    }

    /**
     * Verifies that the rate is less than or equal to the given one, for example that a rate limit held.
     *
     * <pre><code class='java'> // passes when request throughput was 9.80 req/s
     * assertThat(result).requestThroughput().isAtMost(10);
     *
     * // fails when request throughput was 12.40 req/s:
     * // "Expecting request throughput of the run to be at most 10.00 req/s but was 12.40 req/s"
     * assertThat(result).requestThroughput().isAtMost(10);</code></pre>
     *
     * @param expected the inclusive upper bound, in requests/s or tokens/s as the metric counts
     * @return this assertion object
     * @throws AssertionError if the rate is above {@code expected} or was not measured
     */
    public RateAssert isAtMost(double expected) {
        return compare(Relation.AT_MOST, expected);
    }

    /**
     * Verifies that the rate is strictly less than the given one.
     *
     * <pre><code class='java'> // passes when request throughput was 9.80 req/s
     * assertThat(result).requestThroughput().isLessThan(10);
     *
     * // fails when request throughput was 10.00 req/s:
     * // "Expecting request throughput of the run to be less than 10.00 req/s but was 10.00 req/s"
     * assertThat(result).requestThroughput().isLessThan(10);</code></pre>
     *
     * @param expected the exclusive upper bound, in requests/s or tokens/s as the metric counts
     * @return this assertion object
     * @throws AssertionError if the rate is not below {@code expected} or was not measured
     */
    public RateAssert isLessThan(double expected) {
        return compare(Relation.LESS_THAN, expected);
    }

    /**
     * Returns to the assertions on the whole run.
     *
     * <pre><code class='java'> assertThat(result).goodput().isAtLeast(3.5).returnToRun().hasNoFailedRequests();</code></pre>
     *
     * @return the assertions on the run this rate belongs to
     */
    public RunResultAssert returnToRun() {
        return run;
    }

    private RateAssert compare(Relation relation, double expected) {
        if (!Double.isFinite(expected)) {
            throw new IllegalArgumentException(
                    "expected " + metric.displayName() + " must be a finite number, was " + expected);
        }
        isNotNull();
        RunValueComparison.failure(metric, relation, expected, actual, unmeasuredReason)
                .ifPresent(this::throwAssertionError);
        return myself;
    }
}
