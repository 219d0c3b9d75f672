package dev.goodput.core.internal.sse;

/**
 * The fields of the event an {@link SseParser} is reading, kept apart so that the parser itself deals
 * only with bytes and lines.
 *
 * <p>The common event has one data line; its decoded string becomes the event's data without copying.
 * Only a second data line starts a builder, which is reused and dropped again when it grew large.
 */
final class EventBuilder {

    private static final int RETAINED_CAPACITY = 64 * 1024;

    /** The value of the last {@code event:} field, or {@code null}. */
    String type;

    /** Whether a bare {@code error:} field was seen. */
    boolean errorField;

    /** How many data lines the event has. */
    int dataLines;

    /** The UTF-8 size of the joined data lines, counted before decoding to enforce the size limit. */
    long dataBytes;

    private String firstLine;
    private StringBuilder joined = new StringBuilder();

    /** Adds one decoded data line; {@code dataBytesAfter} is the joined size including this line. */
    void addLine(String line, long dataBytesAfter) {
        if (dataLines == 0) {
            firstLine = line;
        } else {
            if (dataLines == 1) {
                joined.setLength(0);
                joined.append(firstLine);
            }
            joined.append('\n').append(line);
        }
        dataLines++;
        dataBytes = dataBytesAfter;
    }

    /** Returns the data lines joined with {@code '\n'}. */
    String data() {
        return dataLines == 1 ? firstLine : joined.toString();
    }

    /** Forgets the event, ready for the next one. */
    void clear() {
        type = null;
        errorField = false;
        dataLines = 0;
        dataBytes = 0;
        firstLine = null;
        if (joined.capacity() > RETAINED_CAPACITY) {
            joined = new StringBuilder();
        }
    }
}
