package dev.goodput.core.internal.driver;

import dev.goodput.core.internal.client.InFlightRequest;
import org.HdrHistogram.Histogram;

/**
 * The pooled gap metrics of a run, ICL and ITL, in nanosecond histograms with three significant digits
 * (relative error at most 0.1 %, memory independent of the number of samples).
 *
 * <p>ICL takes one sample per gap between consecutive content events. ITL spreads each gap evenly over the
 * tokens of the later event: a gap of {@code g} before an event of {@code k} tokens gives {@code k} samples
 * of {@code g / k} (integer nanoseconds). Requests are recorded whole, under one lock, when they end.
 */
public final class PooledGaps {

    private static final int SIGNIFICANT_DIGITS = 3;

    private final Histogram icl = new Histogram(SIGNIFICANT_DIGITS);
    private final Histogram itl = new Histogram(SIGNIFICANT_DIGITS);

    /** Adds every gap of an ended request. */
    public synchronized void record(InFlightRequest request) {
        request.forEachGap((gapNanos, tokens) -> {
            long gap = Math.max(0, gapNanos);
            icl.recordValue(gap);
            itl.recordValueWithCount(gap / tokens, tokens);
        });
    }

    /** Returns a copy of the ICL histogram. */
    public synchronized Histogram icl() {
        return icl.copy();
    }

    /** Returns a copy of the ITL histogram. */
    public synchronized Histogram itl() {
        return itl.copy();
    }
}
