package dev.goodput.junit.assertions;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.result.RunResult;
import org.apiguardian.api.API;
import org.assertj.core.annotation.CheckReturnValue;

/**
 * The entry point to Goodput's AssertJ assertions. Import it statically next to AssertJ's own:
 *
 * <pre><code class='java'> import static dev.goodput.junit.assertions.GoodputAssertions.assertThat;
 *
 * assertThat(result).ttft().percentile(99).isLessThan(Duration.ofMillis(200));
 * assertThat(result).goodput().isAtLeast(3.5);
 * assertThat(result).hasNoFailedRequests();</code></pre>
 */
@API(status = EXPERIMENTAL, since = "0.1")
@CheckReturnValue
public final class GoodputAssertions {

    private GoodputAssertions() {}

    /**
     * Creates assertions on the result of a run.
     *
     * <pre><code class='java'> // passes when p99 TTFT was 180.00 ms; fails when it was 312.40 ms with
     * // "Expecting p99 TTFT of the run to be less than 200.00 ms but was 312.40 ms (n=600)"
     * assertThat(result).ttft().percentile(99).isLessThan(Duration.ofMillis(200));</code></pre>
     *
     * @param actual the result to check
     * @return assertions on it
     */
    public static RunResultAssert assertThat(RunResult actual) {
        return new RunResultAssert(actual);
    }
}
