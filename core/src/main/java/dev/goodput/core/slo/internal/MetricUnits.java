package dev.goodput.core.slo.internal;

import dev.goodput.core.slo.Metric;
import java.util.Locale;

/** Formats metric values with their units for reports and messages. Locale-independent on purpose. */
public final class MetricUnits {

    private MetricUnits() {}

    /** Formats a value held in the metric's unit, for example {@code "412.30 ms"} or {@code "3.50 req/s"}. */
    public static String format(Metric metric, double value) {
        if (Double.isNaN(value)) {
            return "n/a";
        }
        return switch (metric.unit()) {
            case NANOSECONDS -> String.format(Locale.ROOT, "%.2f ms", value / 1_000_000.0);
            case PER_SECOND -> String.format(Locale.ROOT, "%.2f %s", value, perSecondUnit(metric));
            case RATIO -> String.format(Locale.ROOT, "%.2f %%", value * 100);
            case COUNT -> String.format(Locale.ROOT, "%.0f", value);
            case JOULES_PER_TOKEN -> String.format(Locale.ROOT, "%.3f J/token", value);
            case PRICE_PER_MILLION_TOKENS -> String.format(Locale.ROOT, "%.2f per M tokens", value);
        };
    }

    /** Returns the unit label of a per-second metric. */
    public static String perSecondUnit(Metric metric) {
        return switch (metric) {
            case OUTPUT_TOKEN_THROUGHPUT, INPUT_TOKEN_THROUGHPUT, TOTAL_TOKEN_THROUGHPUT -> "tok/s";
            default -> "req/s";
        };
    }
}
