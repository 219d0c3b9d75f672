package dev.goodput.junit.assertions;

import dev.goodput.core.record.Outcome;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import org.assertj.core.error.ErrorMessageFactory;

/** Says that a run-level value cannot be compared because the run could not measure it (it is NaN). */
final class ShouldBeMeasured extends GoodputErrorMessage {

    static final String NO_MEASURED_REQUESTS = "the run had no measured requests";
    static final String EMPTY_WINDOW = "the measurement window had zero length";
    static final String ALL_CANCELLED = "every measured request was cancelled";
    static final String UNDEFINED = "the value is undefined (NaN)";

    private ShouldBeMeasured(String message) {
        super(message);
    }

    /**
     * Returns, for example, {@code "Expecting goodput of the run to be at least 3.50 req/s but it was not
     * measured: the run had no measured requests"}.
     */
    static ErrorMessageFactory shouldBeMeasured(Expectation expectation, String reason) {
        return new ShouldBeMeasured(expectation.text() + " but it was not measured: " + reason);
    }

    /** Returns why the run has no value of the given run-level metric, following core's definitions. */
    static String reasonFor(Metric metric, RunResult run) {
        long measured = run.accounting().measured();
        if (measured == 0) {
            return NO_MEASURED_REQUESTS;
        }
        if (metric.unit() == Metric.Unit.PER_SECOND && run.load().windowNanos() == 0) {
            return EMPTY_WINDOW;
        }
        // SLO attainment leaves cancelled requests out of its denominator.
        if (metric == Metric.SLO_ATTAINMENT && run.accounting().measured(Outcome.CANCELLED) == measured) {
            return ALL_CANCELLED;
        }
        return UNDEFINED;
    }
}
