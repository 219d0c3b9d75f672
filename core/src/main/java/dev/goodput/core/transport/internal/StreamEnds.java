package dev.goodput.core.transport.internal;

/**
 * What the end of a stream means, as the metric definitions say: which ends are successes, the reason of each
 * that is not, and how long the server asked a client to wait before trying again.
 */
public final class StreamEnds {

    /** The reason of a stream that ended with {@code [DONE]} but carried no generated text. */
    static final String NO_TEXT_AT_DONE = "the stream ended with [DONE] without generating any text";

    private StreamEnds() {}

    /**
     * Returns why a stream that ended with {@code [DONE]} failed, or {@code null} when it succeeded.
     *
     * @param serverOutputTokens the server's output count, or -1 when it sent none
     */
    public static String detailAtDone(
            int contentEvents, String finishReason, boolean requireStreamEnd, int serverOutputTokens) {
        if (contentEvents == 0) {
            // A real engine can generate tokens without text: special tokens, or bytes of a character it never
            // completed. There is still no first token to time, but the reason says what happened.
            return serverOutputTokens > 0
                    ? NO_TEXT_AT_DONE + " (the server counted " + serverOutputTokens
                            + " output tokens, none with text: special tokens, or bytes of an unfinished character)"
                    : NO_TEXT_AT_DONE;
        }
        if (requireStreamEnd && finishReason == null) {
            return "the stream ended with [DONE] but no choice carried a finish_reason";
        }
        return null;
    }

    /** Returns why a body that closed before any {@code [DONE]} failed, or {@code null} when that is allowed. */
    public static String detailWithoutDone(
            String contentType, int contentEvents, String finishReason, boolean requireStreamEnd) {
        if (contentType != null && !contentType.startsWith("text/event-stream")) {
            return "the response was " + contentType + ", not an event stream (text/event-stream)";
        }
        if (!requireStreamEnd && contentEvents > 0) {
            return null;
        }
        return "the stream ended without [DONE] after " + contentEvents + " content events"
                + (finishReason == null ? " and without a finish_reason" : "");
    }

    /** Returns a {@code Retry-After} header in whole seconds, or -1 when absent or an HTTP date. */
    public static long retryAfterSeconds(String header) {
        if (header == null) {
            return -1;
        }
        try {
            return Math.max(0, Long.parseLong(header.trim()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
