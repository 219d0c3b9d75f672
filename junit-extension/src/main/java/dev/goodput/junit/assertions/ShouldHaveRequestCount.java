package dev.goodput.junit.assertions;

import org.assertj.core.error.ErrorMessageFactory;

/** Says that the run scheduled, or got right, a different number of requests than expected. */
final class ShouldHaveRequestCount extends GoodputErrorMessage {

    private ShouldHaveRequestCount(String message) {
        super(message);
    }

    /** Returns, for example, {@code "Expecting the run to have scheduled 600 requests but it scheduled 412"}. */
    static ErrorMessageFactory shouldHaveScheduledRequests(long expected, long actual) {
        return new ShouldHaveRequestCount(
                "Expecting the run to have scheduled " + expected + " requests but it scheduled " + actual);
    }

    /**
     * Returns, for example, {@code "Expecting the run to have at least 100 good requests (succeeded and met
     * every request-level objective) but had 87 of 120 measured requests"}.
     */
    static ErrorMessageFactory shouldHaveGoodRequestsAtLeast(long expected, long good, long measured) {
        return new ShouldHaveRequestCount("Expecting the run to have at least " + expected
                + " good requests (succeeded and met every request-level objective) but had " + good + " of "
                + measured + " measured requests");
    }
}
