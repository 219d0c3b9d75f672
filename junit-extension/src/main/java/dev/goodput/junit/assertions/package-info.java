/**
 * AssertJ assertions on Goodput's {@link dev.goodput.core.result.RunResult}, so a performance gate reads as a sentence
 * and fails with what was expected, what was measured and the unit:
 *
 * <pre>{@code
 * assertThat(result).ttft().percentile(99).isLessThan(Duration.ofMillis(200));
 * assertThat(result).goodput().isAtLeast(3.5);
 * assertThat(result).hasNoFailedRequests().hasAllObjectivesMet();
 * }</pre>
 *
 * <p>Start with {@link dev.goodput.junit.assertions.GoodputAssertions#assertThat(dev.goodput.core.result.RunResult)}.
 * Failure messages come from the package-private {@code ShouldXxx} factories, which the tests reuse.
 */
package dev.goodput.junit.assertions;
