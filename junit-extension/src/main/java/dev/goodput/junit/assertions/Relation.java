package dev.goodput.junit.assertions;

/** How a measured value must relate to an expected one; the phrase completes "to be ...". */
enum Relation {
    LESS_THAN("less than"),
    AT_MOST("at most"),
    GREATER_THAN("greater than"),
    AT_LEAST("at least");

    private final String phrase;

    Relation(String phrase) {
        this.phrase = phrase;
    }

    /** Returns the words of a failure message, for example {@code "at most"}. */
    String phrase() {
        return phrase;
    }

    /** Returns whether {@code actual} relates to {@code expected} as required; NaN never does. */
    boolean holds(double actual, double expected) {
        return switch (this) {
            case LESS_THAN -> actual < expected;
            case AT_MOST -> actual <= expected;
            case GREATER_THAN -> actual > expected;
            case AT_LEAST -> actual >= expected;
        };
    }
}
