package dev.goodput.core.transport.internal;

import dev.goodput.core.internal.redaction.SecretRedaction;
import dev.goodput.core.internal.redaction.TextCut;
import dev.goodput.core.transport.internal.sse.ChunkDecoder;
import dev.goodput.core.transport.internal.sse.SseEvent;
import dev.goodput.core.transport.internal.sse.StreamChunk;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The body of an HTTP error response, kept to a bounded size and turned into a request's reason: the status and
 * the server's own message. The key is redacted from the whole kept text before it is cut to
 * {@link #MAX_CHARS} ({@link SecretRedaction#cut}), so no cut can leave part of it behind. Not thread-safe: its attempt's request guards it.
 */
public final class ErrorBody {

    /** The most characters of a body a reason keeps. */
    static final int MAX_CHARS = TextCut.ERROR_BODY.chars();

    private final int status;
    private final SecretRedaction redaction;
    private final ChunkDecoder decoder;
    private final int keptBytes;
    private final StringBuilder text = new StringBuilder();

    public ErrorBody(int status, SecretRedaction redaction) {
        this.status = status;
        this.redaction = redaction;
        this.decoder = new ChunkDecoder(redaction);
        // Room for a key that starts just before the cut, so that it is kept whole and can be found.
        this.keptBytes = MAX_CHARS + redaction.secretLength();
    }

    /** Takes one read of the body, consuming the buffer; what does not fit is dropped. */
    public void append(ByteBuffer bytes) {
        int room = keptBytes - text.length();
        if (room > 0) {
            byte[] copy = new byte[Math.min(room, bytes.remaining())];
            bytes.get(copy);
            text.append(new String(copy, StandardCharsets.UTF_8));
        }
        bytes.position(bytes.limit());
    }

    /** Returns the reason: {@code HTTP <status>}, then the server's message or the body, redacted and cut. */
    public String reason() {
        String body = redaction.cut(text.toString(), TextCut.ERROR_BODY).strip();
        String message = body;
        if (!body.isEmpty()) {
            StreamChunk decoded = decoder.decode(new SseEvent(null, body));
            if (decoded.kind() == StreamChunk.Kind.ERROR) {
                message = decoded.detail();
            }
        }
        return "HTTP " + status + (message.isEmpty() ? "" : ": " + message);
    }
}
