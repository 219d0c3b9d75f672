package dev.goodput.core.internal;

import dev.goodput.core.InvalidSettingException;
import java.time.Duration;
import java.util.Objects;

/** The range checks of single settings, each failing with an {@link InvalidSettingException} that names it. */
public final class Settings {

    private Settings() {}

    public static long atLeast(String setting, long value, long least) {
        if (value < least) {
            throw InvalidSettingException.of(setting, value, "must be at least " + least);
        }
        return value;
    }

    public static int between(String setting, int value, int least, int most) {
        if (value < least || value > most) {
            throw InvalidSettingException.of(setting, value, "must be between " + least + " and " + most);
        }
        return value;
    }

    public static double positiveRate(String setting, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw InvalidSettingException.of(setting, value, "must be a finite number of requests/s above 0");
        }
        return value;
    }

    public static double positiveFinite(String setting, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw InvalidSettingException.of(setting, value, "must be a finite value above 0");
        }
        return value;
    }

    public static Duration positive(String setting, Duration value) {
        Objects.requireNonNull(value, setting);
        if (value.isNegative() || value.isZero()) {
            throw InvalidSettingException.of(setting, value, "must be positive");
        }
        return value;
    }

    public static Duration notNegative(String setting, Duration value) {
        Objects.requireNonNull(value, setting);
        if (value.isNegative()) {
            throw InvalidSettingException.of(setting, value, "must not be negative");
        }
        return value;
    }
}
