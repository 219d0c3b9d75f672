package dev.goodput.junit.assertions;

import dev.goodput.core.slo.Metric;
import java.util.Optional;
import org.assertj.core.error.ErrorMessageFactory;

/** Compares a run-level value with a bound, shared by {@link RateAssert} and {@link RatioAssert}. */
final class RunValueComparison {

    private RunValueComparison() {}

    /**
     * Returns the failure of comparing a run-level value, or nothing when the value relates as required.
     *
     * @param actual the value, NaN when the run could not measure it
     * @param unmeasuredReason why the value is NaN, for the message
     */
    static Optional<ErrorMessageFactory> failure(
            Metric metric, Relation relation, double expected, double actual, String unmeasuredReason) {
        String name = metric.displayName();
        if (Double.isNaN(actual)) {
            Expectation expectation = Expectation.of(name, relation, metric, expected);
            return Optional.of(ShouldBeMeasured.shouldBeMeasured(expectation, unmeasuredReason));
        }
        if (!relation.holds(actual, expected)) {
            return Optional.of(ShouldBeBounded.shouldBe(name, relation, metric, expected, actual));
        }
        return Optional.empty();
    }
}
