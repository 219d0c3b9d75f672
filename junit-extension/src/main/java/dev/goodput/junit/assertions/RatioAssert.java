package dev.goodput.junit.assertions;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.slo.Metric;
import org.apiguardian.api.API;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on a run-level ratio between 0 and 1: the error rate or the SLO attainment. Bounds are ratios
 * too ({@code 0.01} is 1 %); failure messages show both as percentages. Reach it from {@link RunResultAssert},
 * for example {@code assertThat(result).errorRate()}.
 *
 * <p>A ratio the run could not measure (no measured requests) fails every assertion with the reason instead
 * of comparing NaN.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class RatioAssert extends AbstractAssert<RatioAssert, Double> {

    private final Metric metric;
    private final String unmeasuredReason;
    private final RunResultAssert run;

    RatioAssert(double ratio, Metric metric, String unmeasuredReason, RunResultAssert run) {
        super(ratio, RatioAssert.class);
        this.metric = metric;
        this.unmeasuredReason = unmeasuredReason;
        this.run = run;
    }

    /**
     * Verifies that the ratio is greater than or equal to the given one.
     *
     * <pre><code class='java'> // passes when 97 % of the requests met every objective
     * assertThat(result).sloAttainment().isAtLeast(0.95);
     *
     * // fails when 90 % did:
     * // "Expecting SLO attainment of the run to be at least 95.00 % but was 90.00 %"
     * assertThat(result).sloAttainment().isAtLeast(0.95);</code></pre>
     *
     * @param expected the inclusive lower bound, between 0 and 1
     * @return this assertion object
     * @throws AssertionError if the ratio is below {@code expected} or was not measured
     * @throws IllegalArgumentException if {@code expected} is not between 0 and 1
     */
    public RatioAssert isAtLeast(double expected) {
        return compare(Relation.AT_LEAST, expected);
    }

    /**
     * Verifies that the ratio is strictly greater than the given one.
     *
     * <pre><code class='java'> // passes when 97 % of the requests met every objective
     * assertThat(result).sloAttainment().isGreaterThan(0.9);
     *
     * // fails when 90 % did:
     * // "Expecting SLO attainment of the run to be greater than 90.00 % but was 90.00 %"
     * assertThat(result).sloAttainment().isGreaterThan(0.9);</code></pre>
     *
     * @param expected the exclusive lower bound, between 0 and 1
     * @return this assertion object
     * @throws AssertionError if the ratio is not above {@code expected} or was not measured
     * @throws IllegalArgumentException if {@code expected} is not between 0 and 1
     */
    public RatioAssert isGreaterThan(double expected) {
        return compare(Relation.GREATER_THAN, expected);
    }

    /**
     * Verifies that the ratio is less than or equal to the given one.
     *
     * <pre><code class='java'> // passes when 0.5 % of the requests did not succeed
     * assertThat(result).errorRate().isAtMost(0.01);
     *
     * // fails when 4.17 % did not:
     * // "Expecting error rate of the run to be at most 1.00 % but was 4.17 %"
     * assertThat(result).errorRate().isAtMost(0.01);</code></pre>
     *
     * @param expected the inclusive upper bound, between 0 and 1
     * @return this assertion object
     * @throws AssertionError if the ratio is above {@code expected} or was not measured
     * @throws IllegalArgumentException if {@code expected} is not between 0 and 1
     */
    public RatioAssert isAtMost(double expected) {
        return compare(Relation.AT_MOST, expected);
    }

    /**
     * Verifies that the ratio is strictly less than the given one.
     *
     * <pre><code class='java'> // passes when 0.5 % of the requests did not succeed
     * assertThat(result).errorRate().isLessThan(0.01);
     *
     * // fails when 4.17 % did not:
     * // "Expecting error rate of the run to be less than 1.00 % but was 4.17 %"
     * assertThat(result).errorRate().isLessThan(0.01);</code></pre>
     *
     * @param expected the exclusive upper bound, between 0 and 1
     * @return this assertion object
     * @throws AssertionError if the ratio is not below {@code expected} or was not measured
     * @throws IllegalArgumentException if {@code expected} is not between 0 and 1
     */
    public RatioAssert isLessThan(double expected) {
        return compare(Relation.LESS_THAN, expected);
    }

    /**
     * Returns to the assertions on the whole run.
     *
     * <pre><code class='java'> assertThat(result).errorRate().isAtMost(0.01).returnToRun().hasAllObjectivesMet();</code></pre>
     *
     * @return the assertions on the run this ratio belongs to
     */
    public RunResultAssert returnToRun() {
        return run;
    }

    private RatioAssert compare(Relation relation, double expected) {
        // A bound of 5 meant as 5 % would pass every run; reject it rather than guess.
        if (!(expected >= 0 && expected <= 1)) {
            throw new IllegalArgumentException(metric.displayName() + " is a ratio between 0 and 1 (0.01 is 1 %),"
                    + " so the expected value must be too, was " + expected);
        }
        isNotNull();
        RunValueComparison.failure(metric, relation, expected, actual, unmeasuredReason)
                .ifPresent(this::throwAssertionError);
        return myself;
    }
}
