package dev.goodput.junit.assertions;

import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;

/** The words failure messages use for outcomes and phases, as a reader would say them. */
final class Vocabulary {

    private Vocabulary() {}

    /** Returns, for example, {@code "timed out"}: what a request with this outcome did. */
    static String outcome(Outcome outcome) {
        return switch (outcome) {
            case SUCCESS -> "succeeded";
            case FAILED -> "failed";
            case TIMED_OUT -> "timed out";
            case CANCELLED -> "cancelled";
        };
    }

    /** Returns, for example, {@code "warm-up"}. */
    static String phase(Phase phase) {
        return switch (phase) {
            case WARMUP -> "warm-up";
            case MEASURED -> "measured";
            case COOLDOWN -> "cool-down";
        };
    }
}
