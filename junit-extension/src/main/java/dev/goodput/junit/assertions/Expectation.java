package dev.goodput.junit.assertions;

import dev.goodput.core.slo.Metric;

/**
 * The first half of a failure message about a statistic: what it was expected to be, with the unit.
 *
 * @param statistic the statistic's name, for example {@code "p99 TTFT"} or {@code "goodput"}
 * @param requirement what it should be, for example {@code "less than 200.00 ms"}
 */
record Expectation(String statistic, String requirement) {

    /** Returns, for example, the expectation that p99 TTFT is less than 200.00 ms. */
    static Expectation of(String statistic, Relation relation, String formattedExpected) {
        return new Expectation(statistic, relation.phrase() + " " + formattedExpected);
    }

    /** Returns the expectation that a statistic relates to a value held in the metric's unit. */
    static Expectation of(String statistic, Relation relation, Metric metric, double expected) {
        return of(statistic, relation, UnitFormat.format(metric, expected));
    }

    /** Returns the expectation that a statistic lies between two formatted bounds, both inclusive. */
    static Expectation between(String statistic, String formattedLower, String formattedUpper) {
        return new Expectation(statistic, "between " + formattedLower + " and " + formattedUpper);
    }

    /** Returns the expectation that a statistic lies between two values held in the metric's unit. */
    static Expectation between(String statistic, Metric metric, double lower, double upper) {
        return between(statistic, UnitFormat.format(metric, lower), UnitFormat.format(metric, upper));
    }

    /** Returns the sentence so far, for example {@code "Expecting p99 TTFT of the run to be less than 200.00 ms"}. */
    String text() {
        return "Expecting " + statistic + " of the run to be " + requirement;
    }
}
