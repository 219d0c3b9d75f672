package dev.goodput.junit.assertions;

import java.util.Collection;
import java.util.stream.Collectors;
import org.assertj.core.error.ErrorMessageFactory;

/** Says that the percentile an assertion asks for was not among those the run computed. */
final class ShouldHavePercentile extends GoodputErrorMessage {

    private ShouldHavePercentile(String message) {
        super(message);
    }

    /**
     * Returns, for example, {@code "Expecting p99.5 TTFT of the run to be less than 200.00 ms but p99.5 was not
     * computed for this run; computed percentiles: p50, p90, p95, p99, p99.9 (choose them with
     * Goodput.RunBuilder.percentiles)"}.
     *
     * @param computed the percentiles the run computed, in ascending order
     */
    static ErrorMessageFactory shouldHavePercentile(
            Expectation expectation, double percentile, Collection<Double> computed) {
        String available = computed.isEmpty()
                ? "none"
                : computed.stream()
                        .map(value -> "p" + UnitFormat.formatPercentile(value))
                        .collect(Collectors.joining(", "));
        return new ShouldHavePercentile(expectation.text() + " but p" + UnitFormat.formatPercentile(percentile)
                + " was not computed for this run; computed percentiles: " + available
                + " (choose them with Goodput.RunBuilder.percentiles)");
    }
}
