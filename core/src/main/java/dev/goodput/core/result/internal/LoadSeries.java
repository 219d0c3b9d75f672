package dev.goodput.core.result.internal;

import static dev.goodput.core.record.RequestRecord.ABSENT;

import java.util.Arrays;

/**
 * A run's load as time series on bins sized to the run: per batch, the time-weighted mean number of requests in
 * flight (each from its dispatch to its end), the intended starts (the offered load) and the ends (the achieved
 * load). The span from the first intended start to the last intended start (after it the run only drains) is cut into about one bin per two requests (at
 * least 50, at most 2,000, so a 3-second run has as many bins as a 3-hour one with the same number of requests),
 * and five bins make a batch, as MSER-5 asks.
 *
 * @param originNanos the start of the first bin on the run's clock
 * @param batchNanos the length of a batch
 * @param inFlight the mean requests in flight per batch
 * @param arrivals the intended starts per batch
 * @param completions the ends per batch
 */
record LoadSeries(long originNanos, double batchNanos, double[] inFlight, double[] arrivals, double[] completions) {

    /** Bins per MSER batch. */
    static final int BATCH = 5;

    static final int MIN_BINS = 50;
    static final int MAX_BINS = 2_000;

    /** Returns the number of batches. */
    int batches() {
        return inFlight.length;
    }

    /** Returns the instant at which batch {@code index} starts (index == batches() gives the end). */
    long boundary(int index) {
        return originNanos + Math.round(index * batchNanos);
    }

    /**
     * Bins a run's requests. {@code dispatched[i]} may be {@link dev.goodput.core.record.RequestRecord#ABSENT} for a
     * request that was never sent: it offered load and ended, but was never in flight.
     */
    static LoadSeries of(long[] intended, long[] dispatched, long[] ended) {
        int n = intended.length;
        long origin = Arrays.stream(intended).min().orElse(0);
        // The offered load ends with the last intended start: what follows is the drain by definition, and left in
        // it would be a long tail of empty batches (one slow request can outlast the run) that MSER, looking from
        // the start, takes for the stable part.
        long last = Arrays.stream(intended).max().orElse(origin);
        long span = Math.max(1, last - origin);
        int bins = Math.min(MAX_BINS, Math.max(MIN_BINS, n / 2)) / BATCH * BATCH;
        int batches = bins / BATCH;
        double batchNanos = (double) span / batches;
        double[] arrivals = new double[batches];
        double[] completions = new double[batches];
        double[] busyNanos = new double[batches];
        for (int i = 0; i < n; i++) {
            arrivals[index(intended[i], origin, batchNanos, batches)]++;
            if (ended[i] < origin + span) {
                completions[index(ended[i], origin, batchNanos, batches)]++;
            }
            long end = Math.min(ended[i], origin + span);
            if (dispatched[i] != ABSENT && end > dispatched[i]) {
                addBusy(busyNanos, Math.max(origin, dispatched[i]) - origin, end - origin, batchNanos);
            }
        }
        double[] inFlight = new double[batches];
        for (int b = 0; b < batches; b++) {
            inFlight[b] = busyNanos[b] / batchNanos;
        }
        return new LoadSeries(origin, batchNanos, inFlight, arrivals, completions);
    }

    private static int index(long instant, long origin, double batchNanos, int batches) {
        int index = (int) ((instant - origin) / batchNanos);
        return Math.max(0, Math.min(batches - 1, index));
    }

    /** Spreads the interval [from, to) (relative to the origin) over the batches it overlaps. */
    private static void addBusy(double[] busy, long from, long to, double batchNanos) {
        int first = (int) Math.min(busy.length - 1, from / batchNanos);
        int lastIndex = (int) Math.min(busy.length - 1, to / batchNanos);
        for (int b = first; b <= lastIndex; b++) {
            double start = Math.max(from, b * batchNanos);
            double end = Math.min(to, (b + 1) * batchNanos);
            if (end > start) {
                busy[b] += end - start;
            }
        }
    }
}
