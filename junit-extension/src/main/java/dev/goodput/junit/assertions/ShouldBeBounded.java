package dev.goodput.junit.assertions;

import dev.goodput.core.slo.Metric;
import org.assertj.core.error.ErrorMessageFactory;

/** Says that a measured statistic lies on the wrong side of the expected bound. */
final class ShouldBeBounded extends GoodputErrorMessage {

    /** Marks a run-level value, which has no sample count. */
    private static final long NO_SAMPLE_COUNT = -1;

    private ShouldBeBounded(String message) {
        super(message);
    }

    /**
     * Returns, for example, {@code "Expecting p99 TTFT of the run to be less than 200.00 ms but was 312.40 ms
     * (n=600)"}; values are in the metric's unit.
     */
    static ErrorMessageFactory shouldBe(
            String statistic, Relation relation, Metric metric, double expected, double actual, long sampleCount) {
        String[] formatted = UnitFormat.formatDistinctly(metric, expected, actual);
        Expectation expectation = Expectation.of(statistic, relation, formatted[0]);
        return new ShouldBeBounded(expectation.text() + " but was " + formatted[1] + samples(sampleCount));
    }

    /**
     * Returns, for example, {@code "Expecting goodput of the run to be at least 3.50 req/s but was 2.10 req/s"};
     * values are in the metric's unit.
     */
    static ErrorMessageFactory shouldBe(
            String statistic, Relation relation, Metric metric, double expected, double actual) {
        return shouldBe(statistic, relation, metric, expected, actual, NO_SAMPLE_COUNT);
    }

    /**
     * Returns, for example, {@code "Expecting p99 TTFT of the run to be between 100.00 ms and 200.00 ms but was
     * 312.40 ms (n=600)"}; values are in the metric's unit.
     */
    static ErrorMessageFactory shouldBeBetween(
            String statistic, Metric metric, double lower, double upper, double actual, long sampleCount) {
        String formattedLower;
        String formattedUpper;
        String formattedActual;
        // Only the bound the value missed is printed with more decimals when the two would look alike.
        if (actual < lower) {
            String[] formatted = UnitFormat.formatDistinctly(metric, lower, actual);
            formattedLower = formatted[0];
            formattedUpper = UnitFormat.format(metric, upper);
            formattedActual = formatted[1];
        } else {
            String[] formatted = UnitFormat.formatDistinctly(metric, upper, actual);
            formattedLower = UnitFormat.format(metric, lower);
            formattedUpper = formatted[0];
            formattedActual = formatted[1];
        }
        Expectation expectation = Expectation.between(statistic, formattedLower, formattedUpper);
        return new ShouldBeBounded(expectation.text() + " but was " + formattedActual + samples(sampleCount));
    }

    private static String samples(long sampleCount) {
        return sampleCount == NO_SAMPLE_COUNT ? "" : " (n=" + sampleCount + ")";
    }
}
