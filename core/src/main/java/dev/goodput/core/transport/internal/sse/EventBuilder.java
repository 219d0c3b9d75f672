package dev.goodput.core.transport.internal.sse;

import java.util.Arrays;

/**
 * The fields of the event an {@link SseParser} is reading, kept apart so that the parser itself deals
 * only with bytes and lines.
 *
 * <p>The data is kept as the UTF-8 bytes read; the event decodes them when its string is asked for. The
 * common event has one data line, copied once into an array of its exact size that becomes the event's. Only a
 * second data line starts the joined buffer, which is reused and dropped again when it grew large.
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

    private byte[] firstLine;
    /** Made at the first event with two data lines: most streams never need it, and it is per in-flight request. */
    private byte[] joined;

    private int joinedLength;

    /**
     * Adds one data line, the bytes {@code [start, end)}; {@code dataBytesAfter} is the joined size including this
     * line, already checked against the size limit.
     */
    void addLine(byte[] bytes, int start, int end, long dataBytesAfter) {
        if (dataLines == 0) {
            firstLine = Arrays.copyOfRange(bytes, start, end);
        } else {
            if (dataLines == 1) {
                joinedLength = 0;
                append(firstLine, 0, firstLine.length, false);
            }
            append(bytes, start, end, true);
        }
        dataLines++;
        dataBytes = dataBytesAfter;
    }

    private void append(byte[] bytes, int start, int end, boolean afterLineFeed) {
        int length = end - start + (afterLineFeed ? 1 : 0);
        if (joined == null) {
            joined = new byte[Math.max(256, length)];
        } else if (joinedLength + length > joined.length) {
            joined = Arrays.copyOf(joined, Math.max(joinedLength + length, 2 * joined.length));
        }
        if (afterLineFeed) {
            joined[joinedLength++] = '\n';
            length--;
        }
        System.arraycopy(bytes, start, joined, joinedLength, length);
        joinedLength += length;
    }

    /** Returns the data lines joined with {@code '\n'}, as UTF-8 bytes the caller may keep. */
    byte[] data() {
        return dataLines == 1 ? firstLine : Arrays.copyOf(joined, joinedLength);
    }

    /** Forgets the event, ready for the next one. */
    void clear() {
        type = null;
        errorField = false;
        dataLines = 0;
        dataBytes = 0;
        firstLine = null;
        joinedLength = 0;
        if (joined != null && joined.length > RETAINED_CAPACITY) {
            joined = null;
        }
    }
}
