package dev.goodput.core.bench;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The receipt stamp of each content chunk of one response, and its response id, found by scanning the raw bytes
 * for the chunk openings the simulated server writes. Copies each read into one reused array after the few bytes of
 * the previous read that could start an opening this read completes, so that the benchmark adds little CPU and no
 * allocation per read to the client it measures. One thread at a time.
 */
final class ChunkStamps {

    private static final byte[] ID = "\"id\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CHAT_CONTENT =
            "{\"index\":0,\"delta\":{\"content\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TEXT = "{\"index\":0,\"text\":\"".getBytes(StandardCharsets.US_ASCII);

    /** The response id, once read. */
    String id;

    /** Receipt stamps of the content chunks, in order; the first {@link #count} are set. */
    long[] stamps;

    int count;

    /** The bytes carried over from the previous read, then the current read: reused, grown when needed. */
    private byte[] window = new byte[1024];

    private int carried;

    ChunkStamps(int expectedChunks) {
        stamps = new long[Math.min(expectedChunks + 8, 64)]; // grown as chunks come
    }

    /** Scans one read, received at {@code nanos}; the buffer's position is left alone. */
    void scan(ByteBuffer read, long nanos) {
        int total = carried + read.remaining();
        if (total > window.length) {
            window = Arrays.copyOf(window, Math.max(total, 2 * window.length));
        }
        read.get(read.position(), window, carried, read.remaining());
        byte[] bytes = window;
        int i = 0;
        while (i < total) {
            byte b = bytes[i];
            if (b == '"' && id == null && i + ID.length <= total && matches(bytes, i, ID)) {
                int start = i + ID.length;
                int close = start;
                while (close < total && bytes[close] != '"') {
                    close++;
                }
                if (close == total) {
                    break; // the id is cut: read it again with the next read
                }
                id = new String(bytes, start, close - start, StandardCharsets.US_ASCII);
                i = close;
            } else if (i + CHAT_CONTENT.length > total) {
                break; // too close to the end to tell: carried over to the next read
            } else if (b == '{' && (matches(bytes, i, CHAT_CONTENT) || matches(bytes, i, TEXT))) {
                add(nanos);
            }
            i++;
        }
        carried = total - i;
        System.arraycopy(bytes, i, bytes, 0, carried);
    }

    private static boolean matches(byte[] bytes, int at, byte[] pattern) {
        for (int k = 0; k < pattern.length; k++) {
            if (bytes[at + k] != pattern[k]) {
                return false;
            }
        }
        return true;
    }

    private void add(long nanos) {
        if (count == stamps.length) {
            stamps = Arrays.copyOf(stamps, count * 2);
        }
        stamps[count++] = nanos;
    }
}
