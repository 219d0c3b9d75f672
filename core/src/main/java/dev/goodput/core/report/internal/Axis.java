package dev.goodput.core.report.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A linear axis widened to nice round ticks (1, 2 or 5 times a power of ten), about six of them. */
record Axis(double min, double max, double step) {

    static Axis of(double low, double high) {
        double span = high - low;
        if (!(span > 0)) {
            span = Math.max(1, Math.abs(high));
        }
        double raw = span / 6;
        double power = Math.pow(10, Math.floor(Math.log10(raw)));
        double fraction = raw / power;
        double step = (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power;
        double min = Math.floor(low / step) * step;
        double max = Math.ceil(high / step) * step;
        if (max <= min) {
            max = min + step;
        }
        return new Axis(min, max, step);
    }

    List<Double> ticks() {
        List<Double> ticks = new ArrayList<>();
        for (double tick = min; tick <= max + step / 2; tick += step) {
            ticks.add(Math.abs(tick) < step / 1e6 ? 0 : tick);
        }
        return ticks;
    }

    /** Formats a value with as few digits as it needs. */
    static String label(double value) {
        double abs = Math.abs(value);
        if (abs >= 100 || value == Math.rint(value)) {
            return String.format(Locale.ROOT, "%.0f", value);
        }
        return abs >= 10 ? String.format(Locale.ROOT, "%.1f", value) : String.format(Locale.ROOT, "%.2f", value);
    }
}
