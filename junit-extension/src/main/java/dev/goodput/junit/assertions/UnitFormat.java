package dev.goodput.junit.assertions;

import dev.goodput.core.slo.Metric;
import java.math.BigDecimal;
import java.util.Locale;

/**
 * Formats metric values with their units, with the same output as the reports of goodput-core, so a failure
 * message and a report show the same number the same way. It is a copy because this module's API must not
 * depend on core internals; {@code UnitFormatTest} pins the output to core's.
 */
final class UnitFormat {

    /** The decimals of every report. */
    static final int REPORT_DECIMALS = 2;

    /** The decimals used when two different values would otherwise print the same. */
    static final int PRECISE_DECIMALS = 6;

    private UnitFormat() {}

    /** Formats a value held in the metric's unit, for example {@code "412.30 ms"} or {@code "3.50 req/s"}. */
    static String format(Metric metric, double value) {
        return format(metric, value, REPORT_DECIMALS);
    }

    /** Formats a value held in the metric's unit with the given number of decimals. */
    static String format(Metric metric, double value, int decimals) {
        if (Double.isNaN(value)) {
            return "n/a";
        }
        String number = "%." + decimals + "f";
        return switch (metric.unit()) {
            case NANOSECONDS -> String.format(Locale.ROOT, number + " ms", value / 1_000_000.0);
            case PER_SECOND -> String.format(Locale.ROOT, number + " %s", value, perSecondUnit(metric));
            case RATIO -> String.format(Locale.ROOT, number + " %%", value * 100);
            case COUNT -> String.format(Locale.ROOT, decimals > REPORT_DECIMALS ? number : "%.0f", value);
            case JOULES_PER_TOKEN -> String.format(Locale.ROOT, "%." + (decimals + 1) + "f J/token", value);
            case PRICE_PER_MILLION_TOKENS -> String.format(Locale.ROOT, number + " per M tokens", value);
        };
    }

    /**
     * Formats an expected and an actual value alike, with more decimals when the report's two would print two
     * different values the same (for example an actual 200.004 ms against a bound of 200 ms).
     */
    static String[] formatDistinctly(Metric metric, double expected, double actual) {
        String formattedExpected = format(metric, expected);
        String formattedActual = format(metric, actual);
        if (formattedExpected.equals(formattedActual) && Double.compare(expected, actual) != 0) {
            formattedExpected = format(metric, expected, PRECISE_DECIMALS);
            formattedActual = format(metric, actual, PRECISE_DECIMALS);
        }
        return new String[] {formattedExpected, formattedActual};
    }

    /** Returns the unit label of a per-second metric. */
    static String perSecondUnit(Metric metric) {
        return switch (metric) {
            case OUTPUT_TOKEN_THROUGHPUT, INPUT_TOKEN_THROUGHPUT, TOTAL_TOKEN_THROUGHPUT -> "tok/s";
            default -> "req/s";
        };
    }

    /** Formats a percentile without a trailing {@code .0}: 99 gives {@code "99"}, 99.9 gives {@code "99.9"}. */
    static String formatPercentile(double percentile) {
        return BigDecimal.valueOf(percentile).stripTrailingZeros().toPlainString();
    }
}
