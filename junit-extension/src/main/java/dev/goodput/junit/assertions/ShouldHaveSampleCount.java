package dev.goodput.junit.assertions;

import dev.goodput.core.slo.Metric;
import org.assertj.core.error.ErrorMessageFactory;

/** Says that a metric has fewer samples than a trustworthy statistic needs. */
final class ShouldHaveSampleCount extends GoodputErrorMessage {

    private ShouldHaveSampleCount(String message) {
        super(message);
    }

    /** Returns, for example, {@code "Expecting TTFT of the run to have at least 600 samples but had 412"}. */
    static ErrorMessageFactory shouldHaveSampleCountAtLeast(Metric metric, long expected, long actual) {
        return new ShouldHaveSampleCount("Expecting " + metric.displayName() + " of the run to have at least "
                + expected + " samples but had " + actual);
    }
}
