package dev.goodput.junit.assertions;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.stats.Summary;
import java.util.Objects;
import org.apiguardian.api.API;
import org.assertj.core.annotation.CheckReturnValue;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on the {@link RunResult} of a Goodput run. Create one with
 * {@link GoodputAssertions#assertThat(RunResult)}, then check the run as a whole (the checks are inherited from
 * {@link AbstractRunResultAssert}) or navigate to a metric:
 *
 * <pre><code class='java'> assertThat(result)
 *         .hasNoFailedRequests()
 *         .hasAllObjectivesMet()
 *         .ttft().percentile(99).isLessThan(Duration.ofMillis(200));</code></pre>
 *
 * <p>Every failure message says what was expected, what was measured and the unit.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class RunResultAssert extends AbstractRunResultAssert<RunResultAssert> {

    RunResultAssert(RunResult actual) {
        super(actual, RunResultAssert.class);
    }

    /**
     * Navigates to time to first token, measured from the intended start of each request.
     *
     * <pre><code class='java'> // passes when p99 TTFT was 180.00 ms; fails when it was 312.40 ms with
     * // "Expecting p99 TTFT of the run to be less than 200.00 ms but was 312.40 ms (n=600)"
     * assertThat(result).ttft().percentile(99).isLessThan(Duration.ofMillis(200));</code></pre>
     *
     * @return assertions on TTFT
     */
    @CheckReturnValue
    public LatencyAssert ttft() {
        return metric(Metric.TTFT);
    }

    /**
     * Navigates to time to first token measured from the send, as vLLM's benchmark defines it.
     *
     * <pre><code class='java'> // passes when p99 TTFT from send was 150.00 ms; fails when it was 240.00 ms with
     * // "Expecting p99 TTFT from send of the run to be less than 200.00 ms but was 240.00 ms (n=600)"
     * assertThat(result).ttftFromSend().percentile(99).isLessThan(Duration.ofMillis(200));</code></pre>
     *
     * @return assertions on TTFT from send
     */
    @CheckReturnValue
    public LatencyAssert ttftFromSend() {
        return metric(Metric.TTFT_FROM_SEND);
    }

    /**
     * Navigates to time per output token after the first.
     *
     * <pre><code class='java'> // passes when mean TPOT was 38.00 ms; fails when it was 52.10 ms with
     * // "Expecting mean TPOT of the run to be at most 40.00 ms but was 52.10 ms (n=600)"
     * assertThat(result).tpot().mean().isAtMost(Duration.ofMillis(40));</code></pre>
     *
     * @return assertions on TPOT
     */
    @CheckReturnValue
    public LatencyAssert tpot() {
        return metric(Metric.TPOT);
    }

    /**
     * Navigates to inter-token latency, pooled over all requests.
     *
     * <pre><code class='java'> // passes when p99 ITL was 45.00 ms; fails when it was 61.00 ms with
     * // "Expecting p99 ITL of the run to be less than 50.00 ms but was 61.00 ms (n=59400)"
     * assertThat(result).itl().percentile(99).isLessThan(Duration.ofMillis(50));</code></pre>
     *
     * @return assertions on ITL
     */
    @CheckReturnValue
    public LatencyAssert itl() {
        return metric(Metric.ITL);
    }

    /**
     * Navigates to inter-chunk latency, every gap between content events pooled over all requests.
     *
     * <pre><code class='java'> // passes when p99 ICL was 45.00 ms; fails when it was 61.00 ms with
     * // "Expecting p99 ICL of the run to be less than 50.00 ms but was 61.00 ms (n=59400)"
     * assertThat(result).icl().percentile(99).isLessThan(Duration.ofMillis(50));</code></pre>
     *
     * @return assertions on ICL
     */
    @CheckReturnValue
    public LatencyAssert icl() {
        return metric(Metric.ICL);
    }

    /**
     * Navigates to end-to-end latency, measured from the intended start of each request.
     *
     * <pre><code class='java'> // passes when p90 E2EL was 1800.00 ms; fails when it was 2600.00 ms with
     * // "Expecting p90 E2EL of the run to be less than 2000.00 ms but was 2600.00 ms (n=600)"
     * assertThat(result).e2el().percentile(90).isLessThan(Duration.ofSeconds(2));</code></pre>
     *
     * @return assertions on E2EL
     */
    @CheckReturnValue
    public LatencyAssert e2el() {
        return metric(Metric.E2EL);
    }

    /**
     * Navigates to the client-side queue time, from the intended start to the send.
     *
     * <pre><code class='java'> // passes when max queue time was 2.00 ms; fails when it was 40.00 ms with
     * // "Expecting max queue time of the run to be at most 10.00 ms but was 40.00 ms (n=600)"
     * assertThat(result).queueTime().max().isAtMost(Duration.ofMillis(10));</code></pre>
     *
     * @return assertions on queue time
     */
    @CheckReturnValue
    public LatencyAssert queueTime() {
        return metric(Metric.QUEUE_TIME);
    }

    /**
     * Navigates to each request's largest gap between content events.
     *
     * <pre><code class='java'> // passes when p99 max stall was 300.00 ms; fails when it was 2400.00 ms with
     * // "Expecting p99 max stall of the run to be less than 1000.00 ms but was 2400.00 ms (n=600)"
     * assertThat(result).maxStall().percentile(99).isLessThan(Duration.ofSeconds(1));</code></pre>
     *
     * @return assertions on max stall
     */
    @CheckReturnValue
    public LatencyAssert maxStall() {
        return metric(Metric.MAX_STALL);
    }

    /**
     * Navigates to the client's own delay in sending requests not held by a concurrency cap.
     *
     * <pre><code class='java'> // passes when p99 send lag was 1.20 ms; fails when it was 14.20 ms with
     * // "Expecting p99 send lag of the run to be at most 5.00 ms but was 14.20 ms (n=600)"
     * assertThat(result).sendLag().percentile(99).isAtMost(Duration.ofMillis(5));</code></pre>
     *
     * @return assertions on send lag
     */
    @CheckReturnValue
    public LatencyAssert sendLag() {
        return metric(Metric.SEND_LAG);
    }

    /**
     * Navigates to any per-request or pooled latency metric.
     *
     * <pre><code class='java'> // passes when p99 TTFT was 180.00 ms; fails when it was 312.40 ms with
     * // "Expecting p99 TTFT of the run to be less than 200.00 ms but was 312.40 ms (n=600)"
     * assertThat(result).metric(Metric.TTFT).percentile(99).isLessThan(Duration.ofMillis(200));</code></pre>
     *
     * @param metric a metric of kind {@link Metric.Kind#REQUEST} or {@link Metric.Kind#POOLED}
     * @return assertions on that metric
     * @throws IllegalArgumentException for a run-level metric, which has its own navigation method
     */
    @CheckReturnValue
    public LatencyAssert metric(Metric metric) {
        Objects.requireNonNull(metric, "metric");
        if (metric.kind() == Metric.Kind.RUN) {
            throw new IllegalArgumentException(metric + " is a run-level value, not a latency; use "
                    + (metric.unit() == Metric.Unit.RATIO
                            ? "errorRate() or sloAttainment()"
                            : "goodput() or a throughput"));
        }
        isNotNull();
        // A hand-made result may leave a metric out; to an assertion that is a metric without samples.
        Summary summary = actual.summaries().getOrDefault(metric, Summary.empty());
        return propagateDescription(new LatencyAssert(summary, metric, this));
    }

    /**
     * Navigates to goodput: requests per second that succeeded and met every request-level objective.
     *
     * <pre><code class='java'> // passes when goodput was 4.10 req/s; fails when it was 2.10 req/s with
     * // "Expecting goodput of the run to be at least 3.50 req/s but was 2.10 req/s"
     * assertThat(result).goodput().isAtLeast(3.5);</code></pre>
     *
     * @return assertions on goodput in requests/s
     */
    @CheckReturnValue
    public RateAssert goodput() {
        return rate(Metric.GOODPUT);
    }

    /**
     * Navigates to request throughput: successful requests per second.
     *
     * <pre><code class='java'> // passes when request throughput was 5.20 req/s; fails when it was 4.00 req/s with
     * // "Expecting request throughput of the run to be at least 5.00 req/s but was 4.00 req/s"
     * assertThat(result).requestThroughput().isAtLeast(5);</code></pre>
     *
     * @return assertions on request throughput in requests/s
     */
    @CheckReturnValue
    public RateAssert requestThroughput() {
        return rate(Metric.REQUEST_THROUGHPUT);
    }

    /**
     * Navigates to output token throughput: tokens generated per second by successful requests.
     *
     * <pre><code class='java'> // passes when it was 1250.00 tok/s; fails when it was 870.00 tok/s with
     * // "Expecting output token throughput of the run to be at least 1000.00 tok/s but was 870.00 tok/s"
     * assertThat(result).outputTokenThroughput().isAtLeast(1000);</code></pre>
     *
     * @return assertions on output token throughput in tokens/s
     */
    @CheckReturnValue
    public RateAssert outputTokenThroughput() {
        return rate(Metric.OUTPUT_TOKEN_THROUGHPUT);
    }

    /**
     * Navigates to input token throughput: prompt tokens per second of successful requests.
     *
     * <pre><code class='java'> // passes when it was 5100.00 tok/s; fails when it was 3900.00 tok/s with
     * // "Expecting input token throughput of the run to be at least 4000.00 tok/s but was 3900.00 tok/s"
     * assertThat(result).inputTokenThroughput().isAtLeast(4000);</code></pre>
     *
     * @return assertions on input token throughput in tokens/s
     */
    @CheckReturnValue
    public RateAssert inputTokenThroughput() {
        return rate(Metric.INPUT_TOKEN_THROUGHPUT);
    }

    /**
     * Navigates to total token throughput: input plus output tokens per second.
     *
     * <pre><code class='java'> // passes when it was 6350.00 tok/s; fails when it was 4770.00 tok/s with
     * // "Expecting total token throughput of the run to be at least 5000.00 tok/s but was 4770.00 tok/s"
     * assertThat(result).totalTokenThroughput().isAtLeast(5000);</code></pre>
     *
     * @return assertions on total token throughput in tokens/s
     */
    @CheckReturnValue
    public RateAssert totalTokenThroughput() {
        return rate(Metric.TOTAL_TOKEN_THROUGHPUT);
    }

    /**
     * Navigates to the error rate: measured requests that did not succeed, divided by all measured requests.
     *
     * <pre><code class='java'> // passes when it was 0.50 %; fails when it was 4.17 % with
     * // "Expecting error rate of the run to be at most 1.00 % but was 4.17 %"
     * assertThat(result).errorRate().isAtMost(0.01);</code></pre>
     *
     * @return assertions on the error rate, a ratio between 0 and 1
     */
    @CheckReturnValue
    public RatioAssert errorRate() {
        return ratio(Metric.ERROR_RATE);
    }

    /**
     * Navigates to SLO attainment: good requests divided by measured requests that ended.
     *
     * <pre><code class='java'> // passes when it was 97.00 %; fails when it was 90.00 % with
     * // "Expecting SLO attainment of the run to be at least 95.00 % but was 90.00 %"
     * assertThat(result).sloAttainment().isAtLeast(0.95);</code></pre>
     *
     * @return assertions on SLO attainment, a ratio between 0 and 1
     */
    @CheckReturnValue
    public RatioAssert sloAttainment() {
        return ratio(Metric.SLO_ATTAINMENT);
    }

    private RateAssert rate(Metric metric) {
        isNotNull();
        double value = actual.value(metric);
        String reason = ShouldBeMeasured.reasonFor(metric, actual);
        return propagateDescription(new RateAssert(value, metric, reason, this));
    }

    private RatioAssert ratio(Metric metric) {
        isNotNull();
        double value = actual.value(metric);
        String reason = ShouldBeMeasured.reasonFor(metric, actual);
        return propagateDescription(new RatioAssert(value, metric, reason, this));
    }

    /** Lets {@code assertThat(result).as("nightly").ttft()...} keep "[nightly]" in its failure messages. */
    private <A extends AbstractAssert<A, ?>> A propagateDescription(A child) {
        return info.hasDescription() ? child.describedAs(info.description()) : child;
    }
}
