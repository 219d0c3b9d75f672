package dev.goodput.core.transport.internal.sse;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One server-sent event as the parser dispatched it.
 *
 * <p>The parser hands over the data as the UTF-8 bytes it read; the string is decoded only when asked for. The
 * decoder reads an ASCII event's JSON straight from those bytes (see {@link ChunkDecoder}), which spares two copies
 * of every chunk: into a string, and from the string into the JSON parser's characters. Events are equal when their
 * type and data are.
 */
public final class SseEvent {

    private final String type;
    private final byte[] utf8;
    private String data;

    /**
     * An event whose data is already a string.
     *
     * @param type the value of the last {@code event:} field, or {@code "error"} for a bare {@code error:} field
     *     (older llama.cpp builds), or {@code null} when the event named no type
     * @param data the {@code data:} lines joined with {@code '\n'}, or the value of a bare {@code error:} field
     */
    public SseEvent(String type, String data) {
        this.type = type;
        this.data = data;
        this.utf8 = null;
    }

    private SseEvent(String type, byte[] utf8) {
        this.type = type;
        this.utf8 = utf8;
    }

    /** An event whose data is these UTF-8 bytes, which the event keeps and nobody else changes. */
    static SseEvent ofUtf8(String type, byte[] utf8) {
        return new SseEvent(type, Objects.requireNonNull(utf8, "utf8"));
    }

    /** The event's type, or {@code null}. */
    public String type() {
        return type;
    }

    /** The event's data; invalid UTF-8 decodes to U+FFFD. */
    public String data() {
        String decoded = data;
        if (decoded == null && utf8 != null) {
            decoded = new String(utf8, StandardCharsets.UTF_8);
            data = decoded; // a benign race: every thread decodes the same string
        }
        return decoded;
    }

    /**
     * The data's bytes when the event came from the parser and every byte is ASCII, so that they mean exactly what
     * {@link #data()} means, character for character; otherwise {@code null}. The array is not to be changed.
     */
    byte[] asciiBytes() {
        if (utf8 == null) {
            return null;
        }
        for (byte b : utf8) {
            if (b < 0) {
                return null;
            }
        }
        return utf8;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SseEvent event
                && Objects.equals(type, event.type)
                && Objects.equals(data(), event.data());
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, data());
    }

    @Override
    public String toString() {
        return "SseEvent[type=" + type + ", data=" + data() + "]";
    }
}
