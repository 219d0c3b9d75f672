package dev.goodput.junit.assertions;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.slo.Metric;
import dev.goodput.core.stats.Summary;
import java.time.Duration;
import java.util.Objects;
import org.apiguardian.api.API;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on one statistic of a latency metric, such as p99 TTFT or mean TPOT, against {@link Duration}
 * bounds. Reach it from {@link LatencyAssert}: {@code assertThat(result).ttft().percentile(99)}.
 *
 * <p>A statistic that cannot be compared fails with the reason instead of comparing NaN: a metric without
 * samples says so, and a percentile the run did not compute lists the percentiles it did.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class LatencyStatisticAssert extends AbstractAssert<LatencyStatisticAssert, Summary> {

    private final Metric metric;
    private final LatencyStatistic statistic;
    private final LatencyAssert latency;

    LatencyStatisticAssert(Summary summary, Metric metric, LatencyStatistic statistic, LatencyAssert latency) {
        super(summary, LatencyStatisticAssert.class);
        this.metric = metric;
        this.statistic = statistic;
        this.latency = latency;
    }

    /**
     * Verifies that the statistic is strictly less than the given duration.
     *
     * <pre><code class='java'> // passes when p99 TTFT was 180.00 ms
     * assertThat(result).ttft().percentile(99).isLessThan(Duration.ofMillis(200));
     *
     * // fails when p99 TTFT was 312.40 ms:
     * // "Expecting p99 TTFT of the run to be less than 200.00 ms but was 312.40 ms (n=600)"
     * assertThat(result).ttft().percentile(99).isLessThan(Duration.ofMillis(200));</code></pre>
     *
     * @param bound the exclusive upper bound, not negative
     * @return this assertion object
     * @throws AssertionError if the statistic is not less than {@code bound}, has no samples, or is a
     *     percentile the run did not compute
     */
    public LatencyStatisticAssert isLessThan(Duration bound) {
        return compare(Relation.LESS_THAN, bound);
    }

    /**
     * Verifies that the statistic is less than or equal to the given duration.
     *
     * <pre><code class='java'> // passes when mean TPOT was 40.00 ms
     * assertThat(result).tpot().mean().isAtMost(Duration.ofMillis(40));
     *
     * // fails when mean TPOT was 52.10 ms:
     * // "Expecting mean TPOT of the run to be at most 40.00 ms but was 52.10 ms (n=600)"
     * assertThat(result).tpot().mean().isAtMost(Duration.ofMillis(40));</code></pre>
     *
     * @param bound the inclusive upper bound, not negative
     * @return this assertion object
     * @throws AssertionError if the statistic is above {@code bound} or cannot be compared
     */
    public LatencyStatisticAssert isAtMost(Duration bound) {
        return compare(Relation.AT_MOST, bound);
    }

    /**
     * Verifies that the statistic is strictly greater than the given duration, for example to catch a
     * mock server that answers implausibly fast.
     *
     * <pre><code class='java'> // passes when min E2EL was 95.00 ms
     * assertThat(result).e2el().min().isGreaterThan(Duration.ofMillis(50));
     *
     * // fails when min E2EL was 0.40 ms:
     * // "Expecting min E2EL of the run to be greater than 50.00 ms but was 0.40 ms (n=600)"
     * assertThat(result).e2el().min().isGreaterThan(Duration.ofMillis(50));</code></pre>
     *
     * @param bound the exclusive lower bound, not negative
     * @return this assertion object
     * @throws AssertionError if the statistic is not greater than {@code bound} or cannot be compared
     */
    public LatencyStatisticAssert isGreaterThan(Duration bound) {
        return compare(Relation.GREATER_THAN, bound);
    }

    /**
     * Verifies that the statistic is greater than or equal to the given duration.
     *
     * <pre><code class='java'> // passes when median TTFT was 120.00 ms
     * assertThat(result).ttft().median().isAtLeast(Duration.ofMillis(100));
     *
     * // fails when median TTFT was 80.00 ms:
     * // "Expecting median TTFT of the run to be at least 100.00 ms but was 80.00 ms (n=600)"
     * assertThat(result).ttft().median().isAtLeast(Duration.ofMillis(100));</code></pre>
     *
     * @param bound the inclusive lower bound, not negative
     * @return this assertion object
     * @throws AssertionError if the statistic is below {@code bound} or cannot be compared
     */
    public LatencyStatisticAssert isAtLeast(Duration bound) {
        return compare(Relation.AT_LEAST, bound);
    }

    /**
     * Verifies that the statistic lies between the given durations, both inclusive.
     *
     * <pre><code class='java'> // passes when p50 ITL was 21.00 ms
     * assertThat(result).itl().percentile(50).isBetween(Duration.ofMillis(15), Duration.ofMillis(25));
     *
     * // fails when p50 ITL was 31.70 ms:
     * // "Expecting p50 ITL of the run to be between 15.00 ms and 25.00 ms but was 31.70 ms (n=59400)"
     * assertThat(result).itl().percentile(50).isBetween(Duration.ofMillis(15), Duration.ofMillis(25));</code></pre>
     *
     * @param lower the inclusive lower bound, not negative
     * @param upper the inclusive upper bound, not below {@code lower}
     * @return this assertion object
     * @throws AssertionError if the statistic lies outside the bounds or cannot be compared
     * @throws IllegalArgumentException if {@code upper} is below {@code lower}
     */
    public LatencyStatisticAssert isBetween(Duration lower, Duration upper) {
        double lowerNanos = nanos(lower, "lower");
        double upperNanos = nanos(upper, "upper");
        if (upperNanos < lowerNanos) {
            throw new IllegalArgumentException("upper bound " + upper + " is below lower bound " + lower);
        }
        String name = statistic.name(metric);
        double value = measured(Expectation.between(name, metric, lowerNanos, upperNanos));
        if (value < lowerNanos || value > upperNanos) {
            throwAssertionError(
                    ShouldBeBounded.shouldBeBetween(name, metric, lowerNanos, upperNanos, value, actual.count()));
        }
        return myself;
    }

    /**
     * Returns to the assertions on the whole metric, to check another of its statistics.
     *
     * <pre><code class='java'> assertThat(result).ttft()
     *         .percentile(50).isLessThan(Duration.ofMillis(100))
     *         .returnToLatency()
     *         .percentile(99).isLessThan(Duration.ofMillis(200));</code></pre>
     *
     * @return the assertions on the metric this statistic belongs to
     */
    public LatencyAssert returnToLatency() {
        return latency;
    }

    private LatencyStatisticAssert compare(Relation relation, Duration bound) {
        double expected = nanos(bound, "bound");
        String name = statistic.name(metric);
        double value = measured(Expectation.of(name, relation, metric, expected));
        if (!relation.holds(value, expected)) {
            throwAssertionError(ShouldBeBounded.shouldBe(name, relation, metric, expected, value, actual.count()));
        }
        return myself;
    }

    /** Returns the statistic in nanoseconds, or fails saying why the run has none to compare. */
    private double measured(Expectation expectation) {
        isNotNull();
        if (!statistic.isComputedIn(actual)) {
            throwAssertionError(ShouldHavePercentile.shouldHavePercentile(
                    expectation, statistic.percentile(), actual.percentiles().keySet()));
        }
        double value = actual.isEmpty() ? Double.NaN : statistic.valueIn(actual);
        if (Double.isNaN(value)) {
            throwAssertionError(ShouldHaveSamples.shouldHaveSamples(expectation, metric));
        }
        return value;
    }

    /** Converts without {@link Duration#toNanos()}, which overflows past 292 years. */
    private static double nanos(Duration duration, String name) {
        Objects.requireNonNull(duration, name);
        if (duration.isNegative()) {
            throw new IllegalArgumentException("a latency " + name + " cannot be negative, was " + duration);
        }
        return duration.getSeconds() * 1e9 + duration.getNano();
    }
}
