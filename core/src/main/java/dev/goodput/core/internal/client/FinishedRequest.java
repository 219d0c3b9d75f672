package dev.goodput.core.internal.client;

import dev.goodput.core.RequestRecord;
import java.util.Arrays;
import java.util.Objects;

/**
 * What a request hands over once, when it has ended: its frozen record, what was asked of its output length, and
 * the gaps between the content events of its final attempt. A value: nothing in it refers back to the live
 * request, so whoever takes it can keep it on any thread.
 */
public final class FinishedRequest {

    private final RequestRecord record;
    private final boolean ignoreEos;
    private final int maxTokens;
    private final long[] gapNanos;
    private final int[] gapTokens;

    /**
     * Copies the first {@code gapCount} gaps.
     *
     * @param ignoreEos whether the request was sent with {@code ignore_eos: true}
     * @param maxTokens the {@code max_tokens} it asked for
     * @param gapNanos the gaps between consecutive content events, in stream order
     * @param gapTokens the tokens of the later event of each gap, or {@code null} when every such event carried one
     */
    public FinishedRequest(
            RequestRecord record, boolean ignoreEos, int maxTokens, long[] gapNanos, int[] gapTokens, int gapCount) {
        this.record = Objects.requireNonNull(record, "record");
        this.ignoreEos = ignoreEos;
        this.maxTokens = maxTokens;
        this.gapNanos = Arrays.copyOf(gapNanos, gapCount);
        this.gapTokens = gapTokens == null ? null : Arrays.copyOf(gapTokens, gapCount);
    }

    /** Returns the frozen record, as the request built it. */
    public RequestRecord record() {
        return record;
    }

    /** Returns whether the request was sent with {@code ignore_eos: true}. */
    public boolean ignoreEos() {
        return ignoreEos;
    }

    /** Returns the {@code max_tokens} the request asked for. */
    public int maxTokens() {
        return maxTokens;
    }

    /** Returns how many gaps the final attempt's stream had. */
    public int gapCount() {
        return gapNanos.length;
    }

    /** Calls {@code consumer} with every gap and the tokens of the event after it, in stream order. */
    public void forEachGap(GapConsumer consumer) {
        for (int i = 0; i < gapNanos.length; i++) {
            consumer.accept(gapNanos[i], gapTokens == null ? 1 : gapTokens[i]);
        }
    }

    /** Receives one inter-event gap. */
    @FunctionalInterface
    public interface GapConsumer {
        void accept(long gapNanos, int tokens);
    }
}
