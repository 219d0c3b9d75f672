package dev.goodput.core.stats.internal;

import dev.goodput.core.internal.Units;

/** Checks and formats confidence levels, so every class rejects and prints them alike. */
public final class Confidence {

    private Confidence() {}

    /**
     * Returns the confidence level if it lies strictly between 0 and 1.
     *
     * @throws IllegalArgumentException otherwise
     */
    public static double require(double confidence) {
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException(
                    "confidence must be above 0 and below 1, for example 0.95; was " + confidence);
        }
        return confidence;
    }

    /** Returns the probability left in each tail of a two-sided interval: {@code (1 - confidence) / 2}. */
    static double tail(double confidence) {
        return (1 - require(confidence)) / 2;
    }

    /** Returns the level as a percentage the way {@code SloVerdict.describe()} prints it, for example "95". */
    public static String percent(double confidence) {
        return Units.formatPercentile(confidence * 100);
    }
}
