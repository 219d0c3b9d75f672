package dev.goodput.core.internal.client;

import dev.goodput.core.internal.sse.ChunkDecoder;
import dev.goodput.core.internal.sse.SseEvent;
import dev.goodput.core.internal.sse.StreamChunk;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The body of an HTTP error response, kept to a bounded size and turned into a request's reason: the status and
 * the server's own message. The key is redacted from the whole kept text before it is cut to
 * {@link #MAX_CHARS}, so no cut can leave part of it behind. Not thread-safe: its attempt's request guards it.
 */
final class ErrorBody {

    /** The most characters of a body a reason keeps. */
    static final int MAX_CHARS = 4096;

    private static final ChunkDecoder DECODER = new ChunkDecoder();

    private final int status;
    private final SecretRedaction redaction;
    private final int keptBytes;
    private final StringBuilder text = new StringBuilder();
    private boolean cut;

    ErrorBody(int status, SecretRedaction redaction) {
        this.status = status;
        this.redaction = redaction;
        // Room for a key that starts just before the cut, so that it is kept whole and can be found.
        this.keptBytes = MAX_CHARS + redaction.secretLength();
    }

    /** Takes one read of the body, consuming the buffer; what does not fit is dropped. */
    void append(ByteBuffer bytes) {
        int room = keptBytes - text.length();
        if (room > 0) {
            byte[] copy = new byte[Math.min(room, bytes.remaining())];
            bytes.get(copy);
            text.append(new String(copy, StandardCharsets.UTF_8));
        }
        cut |= bytes.hasRemaining();
        bytes.position(bytes.limit());
    }

    /** Returns the reason: {@code HTTP <status>}, then the server's message or the body, redacted and cut. */
    String reason() {
        String body = redaction.redactThenCut(text.toString(), cut, MAX_CHARS).strip();
        String message = body;
        if (!body.isEmpty()) {
            StreamChunk decoded = DECODER.decode(new SseEvent(null, body));
            if (decoded.kind() == StreamChunk.Kind.ERROR) {
                message = decoded.detail();
            }
        }
        return "HTTP " + status + (message.isEmpty() ? "" : ": " + message);
    }
}
