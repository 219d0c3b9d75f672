package dev.goodput.junit.assertions;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.slo.Metric;
import dev.goodput.core.stats.Summary;
import org.apiguardian.api.API;
import org.assertj.core.annotation.CheckReturnValue;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on the summary of one latency metric of a run, such as TTFT or TPOT. Reach it from
 * {@link RunResultAssert}, for example {@code assertThat(result).ttft()}, then choose a statistic:
 * {@link #percentile(double)}, {@link #median()}, {@link #mean()}, {@link #min()} or {@link #max()}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class LatencyAssert extends AbstractAssert<LatencyAssert, Summary> {

    private final Metric metric;
    private final RunResultAssert run;

    LatencyAssert(Summary summary, Metric metric, RunResultAssert run) {
        super(summary, LatencyAssert.class);
        this.metric = metric;
        this.run = run;
    }

    /**
     * Navigates to a percentile of the metric. The run must have computed it: Goodput computes p50, p90, p95,
     * p99 and p99.9 by default ({@code Goodput.RunBuilder.percentiles} chooses others), plus the median and the
     * percentile of every percentile objective.
     *
     * <pre><code class='java'> // passes when p99 TTFT was 180.00 ms
     * assertThat(result).ttft().percentile(99).isLessThan(Duration.ofMillis(200));
     *
     * // fails when the run computed the default percentiles only:
     * // "Expecting p99.5 TTFT of the run to be less than 200.00 ms but p99.5 was not computed for this run;
     * // computed percentiles: p50, p90, p95, p99, p99.9 (choose them with Goodput.RunBuilder.percentiles)"
     * assertThat(result).ttft().percentile(99.5).isLessThan(Duration.ofMillis(200));</code></pre>
     *
     * @param percentile the percentile, above 0 and at most 100, for example 99 or 99.9
     * @return assertions on that percentile
     * @throws IllegalArgumentException if the percentile is not above 0 and at most 100
     */
    @CheckReturnValue
    public LatencyStatisticAssert percentile(double percentile) {
        return statistic(LatencyStatistic.percentile(percentile));
    }

    /**
     * Navigates to the median, the 50th percentile, of the metric.
     *
     * <pre><code class='java'> // passes when median TTFT was 90.00 ms
     * assertThat(result).ttft().median().isLessThan(Duration.ofMillis(100));
     *
     * // fails when median TTFT was 130.00 ms:
     * // "Expecting median TTFT of the run to be less than 100.00 ms but was 130.00 ms (n=600)"
     * assertThat(result).ttft().median().isLessThan(Duration.ofMillis(100));</code></pre>
     *
     * @return assertions on the median
     */
    @CheckReturnValue
    public LatencyStatisticAssert median() {
        return statistic(LatencyStatistic.MEDIAN);
    }

    /**
     * Navigates to the arithmetic mean of the metric.
     *
     * <pre><code class='java'> // passes when mean TPOT was 38.00 ms
     * assertThat(result).tpot().mean().isAtMost(Duration.ofMillis(40));
     *
     * // fails when mean TPOT was 52.10 ms:
     * // "Expecting mean TPOT of the run to be at most 40.00 ms but was 52.10 ms (n=600)"
     * assertThat(result).tpot().mean().isAtMost(Duration.ofMillis(40));</code></pre>
     *
     * @return assertions on the mean
     */
    @CheckReturnValue
    public LatencyStatisticAssert mean() {
        return statistic(LatencyStatistic.MEAN);
    }

    /**
     * Navigates to the smallest sample of the metric.
     *
     * <pre><code class='java'> // passes when min E2EL was 95.00 ms
     * assertThat(result).e2el().min().isGreaterThan(Duration.ofMillis(50));
     *
     * // fails when min E2EL was 0.40 ms:
     * // "Expecting min E2EL of the run to be greater than 50.00 ms but was 0.40 ms (n=600)"
     * assertThat(result).e2el().min().isGreaterThan(Duration.ofMillis(50));</code></pre>
     *
     * @return assertions on the minimum
     */
    @CheckReturnValue
    public LatencyStatisticAssert min() {
        return statistic(LatencyStatistic.MIN);
    }

    /**
     * Navigates to the largest sample of the metric.
     *
     * <pre><code class='java'> // passes when max E2EL was 3100.00 ms
     * assertThat(result).e2el().max().isLessThan(Duration.ofSeconds(5));
     *
     * // fails when max E2EL was 7200.00 ms:
     * // "Expecting max E2EL of the run to be less than 5000.00 ms but was 7200.00 ms (n=600)"
     * assertThat(result).e2el().max().isLessThan(Duration.ofSeconds(5));</code></pre>
     *
     * @return assertions on the maximum
     */
    @CheckReturnValue
    public LatencyStatisticAssert max() {
        return statistic(LatencyStatistic.MAX);
    }

    /**
     * Verifies that the metric has at least the given number of samples, so that its tail percentiles rest
     * on enough data.
     *
     * <pre><code class='java'> // passes when 600 requests succeeded
     * assertThat(result).ttft().hasSampleCountAtLeast(500);
     *
     * // fails when 412 requests succeeded:
     * // "Expecting TTFT of the run to have at least 500 samples but had 412"
     * assertThat(result).ttft().hasSampleCountAtLeast(500);</code></pre>
     *
     * @param expected the smallest acceptable number of samples
     * @return this assertion object
     * @throws AssertionError if the metric has fewer samples
     */
    public LatencyAssert hasSampleCountAtLeast(long expected) {
        isNotNull();
        if (actual.count() < expected) {
            throwAssertionError(ShouldHaveSampleCount.shouldHaveSampleCountAtLeast(metric, expected, actual.count()));
        }
        return myself;
    }

    /**
     * Returns to the assertions on the whole run.
     *
     * <pre><code class='java'> assertThat(result)
     *         .ttft().percentile(99).isLessThan(Duration.ofMillis(200))
     *         .returnToLatency()
     *         .returnToRun()
     *         .hasNoFailedRequests();</code></pre>
     *
     * @return the assertions on the run this metric belongs to
     */
    public RunResultAssert returnToRun() {
        return run;
    }

    private LatencyStatisticAssert statistic(LatencyStatistic statistic) {
        isNotNull();
        LatencyStatisticAssert child = new LatencyStatisticAssert(actual, metric, statistic, this);
        return info.hasDescription() ? child.describedAs(info.description()) : child;
    }
}
