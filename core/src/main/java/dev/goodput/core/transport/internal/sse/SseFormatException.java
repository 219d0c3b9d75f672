package dev.goodput.core.transport.internal.sse;

import java.io.IOException;
import java.util.Locale;

/**
 * Thrown when a server-sent event stream cannot be read safely, which today means that one event grew past
 * the parser's size limit.
 *
 * <p>It is a checked {@link IOException} on purpose: the caller reads a network stream and must turn this
 * into a failed request, not let it escape a body subscriber unnoticed.
 */
public final class SseFormatException extends IOException {

    private static final long serialVersionUID = 1L;

    private final long limitBytes;
    private final long sizeBytes;

    /**
     * Creates the exception for an event that grew past the limit.
     *
     * @param limitBytes the largest event the parser accepts, in bytes
     * @param sizeBytes how many bytes of the event had arrived when the limit was crossed
     */
    public SseFormatException(long limitBytes, long sizeBytes) {
        super(String.format(
                Locale.ROOT,
                "SSE event exceeds the limit of %d bytes: %d bytes of it arrived before the parser gave up",
                limitBytes,
                sizeBytes));
        this.limitBytes = limitBytes;
        this.sizeBytes = sizeBytes;
    }

    /** Returns the largest event the parser accepts, in bytes. */
    public long limitBytes() {
        return limitBytes;
    }

    /** Returns how many bytes of the event had arrived when the limit was crossed. */
    public long sizeBytes() {
        return sizeBytes;
    }
}
