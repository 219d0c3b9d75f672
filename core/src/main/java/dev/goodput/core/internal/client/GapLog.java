package dev.goodput.core.internal.client;

import java.util.Arrays;

/**
 * The gaps between consecutive content events of one stream, with the tokens of the later event, in growable
 * primitive arrays (a boxed list would cost several times the heap per token). Not thread-safe: its attempt's
 * request guards it.
 */
final class GapLog {

    private long[] gapNanos = new long[16];
    private int[] gapTokens = new int[16];
    private int count;

    void add(long gap, int tokens) {
        if (count == gapNanos.length) {
            gapNanos = Arrays.copyOf(gapNanos, count * 2);
            gapTokens = Arrays.copyOf(gapTokens, count * 2);
        }
        gapNanos[count] = gap;
        gapTokens[count] = tokens;
        count++;
    }

    /** Returns the handover of a request that ended with this log's stream. */
    FinishedRequest finish(dev.goodput.core.RequestRecord record, boolean ignoreEos, int maxTokens) {
        return new FinishedRequest(record, ignoreEos, maxTokens, gapNanos, gapTokens, count);
    }
}
