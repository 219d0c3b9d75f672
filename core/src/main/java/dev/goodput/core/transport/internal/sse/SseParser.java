package dev.goodput.core.transport.internal.sse;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * An incremental parser of a {@code text/event-stream} body that follows the WHATWG server-sent events
 * algorithm and hands each event to an {@link SseListener} with the time of the read that completed it.
 *
 * <p>Bytes may be split anywhere between calls to {@link #feed(byte[], int, int, long)}: inside a line,
 * between the CR and LF of a CRLF, inside a multi-byte UTF-8 character. Lines end in LF, CRLF or CR. A
 * leading byte order mark is skipped. {@code data:} lines (one leading space stripped) are joined with
 * {@code '\n'}, {@code event:} sets the type, lines starting with {@code ':'} are comments, {@code id:},
 * {@code retry:} and unknown fields are ignored, a line without a colon is a field with an empty value,
 * and an empty line dispatches the event unless it had no data line. Two departures from the spec serve
 * the servers Goodput measures: a bare {@code error:} field (older llama.cpp builds send {@code error:
 * {json}} instead of {@code data:}) is read like a data line and makes the event's type {@code "error"},
 * and {@link #finish(long)} dispatches an event whose final blank line never came.
 *
 * <p>Every event completed by one call gets that call's {@code receivedNanos}: the parser never invents
 * a finer time than the network read gave. Memory stays bounded by the size limit: a line or an event's
 * data larger than it throws {@link SseFormatException}. Any other byte sequence is accepted without an
 * exception; invalid UTF-8 decodes to U+FFFD.
 *
 * <p>An empty {@code event:} value counts as no type. An exception thrown by the listener propagates,
 * and the rest of that input is not parsed. Not thread-safe: one parser reads one stream, fed from one
 * thread at a time.
 */
public final class SseParser {

    /** The default size limit of one event, 32 MiB. */
    public static final int DEFAULT_MAX_EVENT_BYTES = 32 * 1024 * 1024;

    private static final int INITIAL_LINE_CAPACITY = 1024;
    private static final int RETAINED_CAPACITY = 64 * 1024;
    private static final int COPY_CHUNK_BYTES = 16 * 1024;
    private static final String ERROR_TYPE = "error";

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final long LINE_FEEDS = ONES * '\n';
    private static final long CARRIAGE_RETURNS = ONES * '\r';

    private final SseListener listener;
    private final int maxEventBytes;
    private final EventBuilder event = new EventBuilder();

    /** The start of a line that has not ended yet; complete lines are read in place from the input. */
    private byte[] pendingLine = new byte[INITIAL_LINE_CAPACITY];

    private int pendingLength;
    /** Whether the previous input ended with a CR, so that an LF opening the next input ends nothing. */
    private boolean skipLineFeed;

    private boolean atStreamStart = true;
    /** Used only for buffers whose array is not accessible (direct or read-only). */
    private byte[] copyBuffer;

    private SseFormatException failure;

    /** Creates a parser with the {@linkplain #DEFAULT_MAX_EVENT_BYTES default size limit}. */
    public SseParser(SseListener listener) {
        this(listener, DEFAULT_MAX_EVENT_BYTES);
    }

    /**
     * Creates a parser.
     *
     * @param listener receives the events
     * @param maxEventBytes the largest line, and the largest joined data of one event, in bytes
     */
    public SseParser(SseListener listener, int maxEventBytes) {
        if (maxEventBytes < 1) {
            throw new IllegalArgumentException("maxEventBytes must be at least 1, was " + maxEventBytes);
        }
        this.listener = Objects.requireNonNull(listener, "listener");
        this.maxEventBytes = maxEventBytes;
    }

    /**
     * Parses the remaining bytes of a buffer and consumes them (its position moves to its limit).
     *
     * @param bytes the bytes of one network read
     * @param receivedNanos the time of that read, given to every event it completes
     * @throws SseFormatException if an event grows past the size limit, and on every call after that
     */
    public void feed(ByteBuffer bytes, long receivedNanos) throws SseFormatException {
        if (bytes.hasArray()) {
            int position = bytes.position();
            int length = bytes.remaining();
            bytes.position(bytes.limit());
            feed(bytes.array(), bytes.arrayOffset() + position, length, receivedNanos);
            return;
        }
        if (copyBuffer == null) {
            copyBuffer = new byte[COPY_CHUNK_BYTES];
        }
        while (bytes.hasRemaining()) {
            int length = Math.min(copyBuffer.length, bytes.remaining());
            bytes.get(copyBuffer, 0, length);
            feed(copyBuffer, 0, length, receivedNanos);
        }
    }

    /**
     * Parses {@code length} bytes of {@code bytes} starting at {@code offset}. The array is not kept.
     *
     * @param receivedNanos the time of the read these bytes came from, given to every event they complete
     * @throws SseFormatException if an event grows past the size limit, and on every call after that
     */
    public void feed(byte[] bytes, int offset, int length, long receivedNanos) throws SseFormatException {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        throwIfFailed();
        int position = offset;
        int end = offset + length;
        if (skipLineFeed && position < end) {
            skipLineFeed = false;
            if (bytes[position] == '\n') {
                position++;
            }
        }
        while (position < end) {
            int lineEnd = indexOfLineEnd(bytes, position, end);
            if (lineEnd == end) {
                appendPending(bytes, position, end);
                return;
            }
            int next = lineEnd + 1;
            if (bytes[lineEnd] == '\r') {
                if (next == end) {
                    skipLineFeed = true;
                } else if (bytes[next] == '\n') {
                    next++;
                }
            }
            if (pendingLength == 0) {
                checkSize(lineEnd - position);
                processLine(bytes, position, lineEnd, receivedNanos);
            } else {
                appendPending(bytes, position, lineEnd);
                int pending = pendingLength;
                pendingLength = 0;
                processLine(pendingLine, 0, pending, receivedNanos);
                releaseLargePendingLine();
            }
            position = next;
        }
    }

    /**
     * Ends the stream: reads a last line that had no line end and dispatches a last event that had no
     * blank line after it. The spec would drop that event; a measuring tool must not, because {@code
     * data: [DONE]} followed by the connection closing is still the end of a complete response. The
     * parser is then ready for a new stream.
     *
     * @param receivedNanos the time the stream ended, given to the event dispatched here, if any
     * @throws SseFormatException if the parser failed earlier
     */
    public void finish(long receivedNanos) throws SseFormatException {
        throwIfFailed();
        skipLineFeed = false;
        if (pendingLength > 0) {
            int pending = pendingLength;
            pendingLength = 0;
            processLine(pendingLine, 0, pending, receivedNanos);
            releaseLargePendingLine();
        }
        atStreamStart = true;
        dispatch(receivedNanos);
    }

    /**
     * Returns the index of the first CR or LF in the range, or {@code to}. Reads eight bytes at a time
     * with the classic "has a zero byte" trick: the scan is most of the parser's work on long data lines.
     */
    static int indexOfLineEnd(byte[] bytes, int from, int to) {
        int i = from;
        for (; i <= to - Long.BYTES; i += Long.BYTES) {
            long word = (long) LONGS.get(bytes, i);
            long lineFeeds = word ^ LINE_FEEDS;
            long carriageReturns = word ^ CARRIAGE_RETURNS;
            long zeros = ((lineFeeds - ONES) & ~lineFeeds) | ((carriageReturns - ONES) & ~carriageReturns);
            zeros &= HIGH_BITS;
            if (zeros != 0) {
                // Borrows only flag bytes above a real match, so the lowest flag is exact (little-endian).
                return i + (Long.numberOfTrailingZeros(zeros) >>> 3);
            }
        }
        for (; i < to; i++) {
            byte b = bytes[i];
            if (b == '\n' || b == '\r') {
                return i;
            }
        }
        return to;
    }

    private void processLine(byte[] bytes, int start, int end, long receivedNanos) throws SseFormatException {
        if (atStreamStart) {
            atStreamStart = false;
            if (end - start >= 3
                    && bytes[start] == (byte) 0xEF
                    && bytes[start + 1] == (byte) 0xBB
                    && bytes[start + 2] == (byte) 0xBF) {
                start += 3;
            }
        }
        if (start == end) {
            dispatch(receivedNanos);
            return;
        }
        if (bytes[start] == ':') {
            return;
        }
        int colon = start;
        while (colon < end && bytes[colon] != ':') {
            colon++;
        }
        int valueStart = colon;
        if (colon < end) {
            valueStart++;
            if (valueStart < end && bytes[valueStart] == ' ') {
                valueStart++;
            }
        }
        int nameLength = colon - start;
        if (nameLength == 4 && isName(bytes, start, 'd', 'a', 't', 'a')) {
            addData(bytes, valueStart, end);
        } else if (nameLength == 5 && bytes[start + 4] == 't' && isName(bytes, start, 'e', 'v', 'e', 'n')) {
            event.type =
                    end == valueStart ? null : new String(bytes, valueStart, end - valueStart, StandardCharsets.UTF_8);
        } else if (nameLength == 5 && bytes[start + 4] == 'r' && isName(bytes, start, 'e', 'r', 'r', 'o')) {
            event.errorField = true;
            addData(bytes, valueStart, end);
        }
        // id, retry and unknown fields change nothing Goodput measures.
    }

    private static boolean isName(byte[] bytes, int start, char c0, char c1, char c2, char c3) {
        return bytes[start] == c0 && bytes[start + 1] == c1 && bytes[start + 2] == c2 && bytes[start + 3] == c3;
    }

    private void addData(byte[] bytes, int start, int end) throws SseFormatException {
        long size = event.dataBytes + (event.dataLines > 0 ? 1 : 0) + (end - start);
        checkSize(size);
        event.addLine(bytes, start, end, size);
    }

    private void dispatch(long receivedNanos) {
        if (event.dataLines == 0) {
            event.clear();
            return;
        }
        String type = event.errorField ? ERROR_TYPE : event.type;
        byte[] data = event.data();
        event.clear();
        listener.onEvent(SseEvent.ofUtf8(type, data), receivedNanos);
    }

    private void appendPending(byte[] bytes, int start, int end) throws SseFormatException {
        int length = end - start;
        checkSize((long) pendingLength + length);
        int needed = pendingLength + length;
        if (needed > pendingLine.length) {
            int grown = (int) Math.min(Math.max(needed, 2L * pendingLine.length), maxEventBytes);
            pendingLine = Arrays.copyOf(pendingLine, grown);
        }
        System.arraycopy(bytes, start, pendingLine, pendingLength, length);
        pendingLength = needed;
    }

    private void releaseLargePendingLine() {
        if (pendingLine.length > RETAINED_CAPACITY) {
            pendingLine = new byte[INITIAL_LINE_CAPACITY];
        }
    }

    private void checkSize(long size) throws SseFormatException {
        if (size > maxEventBytes) {
            failure = new SseFormatException(maxEventBytes, size);
            pendingLine = new byte[0];
            pendingLength = 0;
            event.clear();
            throw failure;
        }
    }

    private void throwIfFailed() throws SseFormatException {
        if (failure != null) {
            throw failure;
        }
    }
}
