package dev.goodput.core.transport.internal;

import java.util.Arrays;

/**
 * The gaps between consecutive content events of one stream, with the tokens of the later event, in growable
 * primitive arrays (a boxed list would cost several times the heap per token). The token counts are kept only
 * once an event carries other than one token: most streams send one token per event, and their in-flight heap is
 * the gaps alone. Not thread-safe: its attempt's request guards it.
 */
public final class GapLog {

    private long[] gapNanos = new long[16];
    private int[] gapTokens; // null while every event carried one token
    private int count;

    public void add(long gap, int tokens) {
        if (count == gapNanos.length) {
            gapNanos = Arrays.copyOf(gapNanos, count * 2);
            if (gapTokens != null) {
                gapTokens = Arrays.copyOf(gapTokens, count * 2);
            }
        }
        if (gapTokens == null && tokens != 1) {
            gapTokens = new int[gapNanos.length];
            Arrays.fill(gapTokens, 0, count, 1);
        }
        gapNanos[count] = gap;
        if (gapTokens != null) {
            gapTokens[count] = tokens;
        }
        count++;
    }

    /** Returns the handover of a request that ended with this log's stream. */
    public FinishedRequest finish(
            dev.goodput.core.record.RequestRecord record, boolean ignoreEos, int maxTokens, String servedModel) {
        return new FinishedRequest(record, ignoreEos, maxTokens, gapNanos, gapTokens, count, servedModel);
    }
}
