package dev.goodput.mock.internal.http;

import java.nio.ByteBuffer;

/**
 * One thread's reusable buffers for a stream write: the SSE events are encoded into {@link #events()} and
 * framed as an HTTP chunk into a direct buffer, so the per-chunk path allocates nothing and the socket write
 * needs no extra copy. A frame stays valid until the thread's next {@link #get()}.
 */
final class WriteScratch {

    private static final ThreadLocal<WriteScratch> LOCAL = ThreadLocal.withInitial(WriteScratch::new);
    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final HttpResponses.Bytes events = new HttpResponses.Bytes(4096);
    private ByteBuffer framed = ByteBuffer.allocateDirect(16 * 1024);

    private WriteScratch() {}

    /** Returns this thread's scratch with its event buffer emptied. */
    static WriteScratch get() {
        WriteScratch scratch = LOCAL.get();
        scratch.events.reset();
        return scratch;
    }

    HttpResponses.Bytes events() {
        return events;
    }

    /**
     * Returns the events as one HTTP chunk, followed by the body's terminating empty chunk if {@code last}, so a
     * stream's final events and its end leave in one write.
     */
    ByteBuffer frame(boolean last) {
        int length = events.size();
        int needed = length + 16 + HttpResponses.LAST_CHUNK.length;
        if (framed.capacity() < needed) {
            framed = ByteBuffer.allocateDirect(Math.max(needed, framed.capacity() * 2));
        }
        framed.clear();
        int digits = Math.max(1, (Integer.SIZE - Integer.numberOfLeadingZeros(length) + 3) / 4);
        for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
            framed.put(HEX[(length >>> shift) & 0xf]);
        }
        framed.put((byte) '\r').put((byte) '\n');
        framed.put(events.array(), 0, length);
        framed.put((byte) '\r').put((byte) '\n');
        if (last) {
            framed.put(HttpResponses.LAST_CHUNK);
        }
        return framed.flip();
    }
}
