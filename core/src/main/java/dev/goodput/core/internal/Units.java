package dev.goodput.core.internal;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * Formats numbers for reports and messages. Locale-independent on purpose. A metric's value with its unit is
 * formatted by {@link dev.goodput.core.slo.internal.MetricUnits}, beside the metrics.
 */
public final class Units {

    private Units() {}

    /** Formats a percentile without a trailing {@code .0}: 99 gives {@code "99"}, 99.9 gives {@code "99.9"}. */
    public static String formatPercentile(double percentile) {
        return BigDecimal.valueOf(percentile).stripTrailingZeros().toPlainString();
    }

    /** Formats a value for a message: durations in the largest whole unit of s or ms that states them exactly. */
    public static String formatValue(Object value) {
        if (value instanceof Duration duration) {
            return formatDuration(duration);
        }
        return String.valueOf(value);
    }

    /** Formats a duration in the largest whole unit of s or ms that states it exactly. */
    public static String formatDuration(Duration duration) {
        long nanos = duration.toNanos();
        if (nanos % 1_000_000_000L == 0) {
            return nanos / 1_000_000_000L + " s";
        }
        if (nanos % 1_000_000L == 0) {
            return nanos / 1_000_000L + " ms";
        }
        return duration.toNanos() / 1e6 + " ms";
    }
}
