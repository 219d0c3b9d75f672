package dev.goodput.core.internal.redaction;

import com.fasterxml.jackson.core.ErrorReportConfiguration;

/**
 * Every place Goodput shortens a text that may carry a secret, with its length in characters: what a server sent
 * (an error body, an event, a metrics page), what a user's file holds (a dataset line) and what reports quote of a
 * request's reason. Listed here, in one place, so that the planted-key test can put a key across each of them.
 * The junit-extension's assertions (which may not use the core's internals) shorten a request's reason at 200
 * characters too; the reason was redacted whole when the run recorded it.
 */
public enum TextCut {
    /** An HTTP error body kept as a request's reason. */
    ERROR_BODY(4_096, Marker.NONE),
    /** A server's error message in an error event or an error body. */
    SERVER_ERROR_MESSAGE(1_000, Marker.DOTS_AND_LENGTH),
    /** The excerpt of an event's data that a malformed event or an error event without a message quotes. */
    EVENT_EXCERPT(120, Marker.DOTS_AND_LENGTH),
    /** The excerpt of a metrics page's line that a parse failure quotes. */
    METRICS_LINE(120, Marker.DOTS),
    /** The excerpt of a JSON parser's message on an event that is not valid JSON. */
    JSON_PROBLEM(80, Marker.DOTS_AND_LENGTH),
    /** The token Jackson quotes in its own message on invalid JSON, before Goodput sees it. */
    JACKSON_TOKEN(ErrorReportConfiguration.DEFAULT_MAX_ERROR_TOKEN_LENGTH, Marker.NONE),
    /** The excerpt of a dataset or trace line that is not what its format asks. */
    DATASET_LINE(80, Marker.DOTS_WITHIN),
    /** A failure reason in the console summary and the reports' failure tables. */
    FAILURE_REASON(300, Marker.DOTS_WITHIN), // FailureBreakdown.SHORT_TEXT, which FailureBreakdownTest holds equal
    /** The first failure reason on the report index. */
    TOP_FAILURE(200, Marker.DOTS_WITHIN),
    /** A history entry's text in a message about the history file. */
    HISTORY_TEXT(120, Marker.DOTS);

    private final int chars;
    private final Marker marker;

    TextCut(int chars, Marker marker) {
        this.chars = chars;
        this.marker = marker;
    }

    /** Returns the most characters the cut keeps. */
    public int chars() {
        return chars;
    }

    /** Returns how a cut text shows that it was cut. */
    public Marker marker() {
        return marker;
    }

    /** How a cut text shows that it was cut. */
    public enum Marker {
        /** Nothing: the reader knows the text is bounded. */
        NONE(0),
        /** {@code ...} after the kept characters. */
        DOTS(0),
        /** {@code ...} as the last 3 of the kept characters. */
        DOTS_WITHIN(3),
        /** {@code ... (<length> chars)} after the kept characters. */
        DOTS_AND_LENGTH(0);

        private final int charsWithin;

        Marker(int charsWithin) {
            this.charsWithin = charsWithin;
        }

        /** Returns how many of the cut's characters the marker takes. */
        int charsWithin() {
            return charsWithin;
        }

        /** Returns the marker for a text of {@code length} characters before its cut. */
        String after(int length) {
            return switch (this) {
                case NONE -> "";
                case DOTS, DOTS_WITHIN -> "...";
                case DOTS_AND_LENGTH -> "... (" + length + " chars)";
            };
        }
    }
}
