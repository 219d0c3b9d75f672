package dev.goodput.junit.assertions;

import dev.goodput.core.slo.Metric;
import org.assertj.core.error.ErrorMessageFactory;

/** Says that a latency statistic cannot be compared because its metric has no samples in the run. */
final class ShouldHaveSamples extends GoodputErrorMessage {

    private ShouldHaveSamples(String message) {
        super(message);
    }

    /**
     * Returns, for example, {@code "Expecting p99 TTFT of the run to be less than 200.00 ms but TTFT had no
     * samples (n=0), so there is nothing to compare"}.
     */
    static ErrorMessageFactory shouldHaveSamples(Expectation expectation, Metric metric) {
        return new ShouldHaveSamples(expectation.text() + " but " + metric.displayName()
                + " had no samples (n=0), so there is nothing to compare");
    }
}
