package dev.goodput.core;

import java.time.Duration;
import java.util.Objects;

/** The range checks of single settings, each failing with an {@link InvalidSettingException} that names it. */
final class Settings {

    private Settings() {}

    static long atLeast(String setting, long value, long least) {
        if (value < least) {
            throw InvalidSettingException.of(setting, value, "must be at least " + least);
        }
        return value;
    }

    static int between(String setting, int value, int least, int most) {
        if (value < least || value > most) {
            throw InvalidSettingException.of(setting, value, "must be between " + least + " and " + most);
        }
        return value;
    }

    static double positiveRate(String setting, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw InvalidSettingException.of(setting, value, "must be a finite number of requests/s above 0");
        }
        return value;
    }

    static double positiveFinite(String setting, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw InvalidSettingException.of(setting, value, "must be a finite value above 0");
        }
        return value;
    }

    static Duration positive(String setting, Duration value) {
        Objects.requireNonNull(value, setting);
        if (value.isNegative() || value.isZero()) {
            throw InvalidSettingException.of(setting, value, "must be positive");
        }
        return value;
    }

    static Duration notNegative(String setting, Duration value) {
        Objects.requireNonNull(value, setting);
        if (value.isNegative()) {
            throw InvalidSettingException.of(setting, value, "must not be negative");
        }
        return value;
    }

    /** Formats a value for a message: durations in the largest whole unit of s or ms that states them exactly. */
    static String format(Object value) {
        if (value instanceof Duration duration) {
            return format(duration);
        }
        return String.valueOf(value);
    }

    static String format(Duration duration) {
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
