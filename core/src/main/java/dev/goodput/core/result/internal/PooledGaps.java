package dev.goodput.core.result.internal;

import dev.goodput.core.stats.internal.SampleBlocks;
import dev.goodput.core.transport.internal.FinishedRequest;
import org.HdrHistogram.Histogram;

/**
 * The pooled gap metrics of a run, ICL and ITL, in nanosecond histograms with three significant digits
 * (relative error at most 0.1 %, memory independent of the number of samples).
 *
 * <p>ICL takes one sample per gap between consecutive content events. ITL spreads each gap evenly over the
 * tokens of the later event: a gap of {@code g} before an event of {@code k} tokens gives {@code k} samples
 * of {@code g / k} (integer nanoseconds). Not thread-safe: the {@link RunRecorder} that holds it guards it (the
 * memory benchmark uses one alone).
 */
public final class PooledGaps {

    static final int SIGNIFICANT_DIGITS = 3;

    private final Histogram icl = new Histogram(SIGNIFICANT_DIGITS);
    private final Histogram itl = new Histogram(SIGNIFICANT_DIGITS);
    private final GapBlocks iclBlocks = new GapBlocks();
    private final GapBlocks itlBlocks = new GapBlocks();

    /** Adds every gap of a finished request, also to its request's block ({@link GapBlocks}). */
    public void add(FinishedRequest request) {
        long index = request.record().index();
        GapBlocks.Block iclBlock = iclBlocks.blockOf(index);
        GapBlocks.Block itlBlock = itlBlocks.blockOf(index);
        request.forEachGap((gapNanos, tokens) -> {
            long gap = Math.max(0, gapNanos);
            icl.recordValue(gap);
            itl.recordValueWithCount(gap / tokens, tokens);
            iclBlock.add(gap, 1);
            itlBlock.add(gap / tokens, tokens);
        });
    }

    /** Returns the ICL gaps by block of requests, in schedule order. */
    public SampleBlocks iclBlocks() {
        return iclBlocks.snapshot();
    }

    /** Returns the ITL gaps by block of requests, in schedule order. */
    public SampleBlocks itlBlocks() {
        return itlBlocks.snapshot();
    }

    /** Adds this pooled ICL and ITL into the given histograms (a run's segments pooled together). */
    void addTo(Histogram iclTotal, Histogram itlTotal) {
        iclTotal.add(icl);
        itlTotal.add(itl);
    }

    /** Returns a copy of the ICL histogram. */
    public Histogram icl() {
        return icl.copy();
    }

    /** Returns a copy of the ITL histogram. */
    public Histogram itl() {
        return itl.copy();
    }
}
