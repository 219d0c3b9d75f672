package dev.goodput.core.stats.internal;

import dev.goodput.core.stats.ConfidenceInterval;

/**
 * The confidence interval of a rate over a measurement window: events (completions, tokens) counted in
 * {@value #BINS} equal bins of the window, and the bins' rates treated as samples in time order by
 * {@link BatchMeans}, so that a burst, or a server that slowed for a while, widens the interval as much as it
 * moved the rate. The rate itself is the events over the window, which is the bins' mean. Immutable.
 *
 * @param rate events per second over the window, NaN for an empty window
 * @param interval the rate's interval, ends NaN when there is no window
 * @param effectiveBins how many independent bins the interval is worth (at most {@value #BINS})
 */
public record WindowRate(double rate, ConfidenceInterval interval, double effectiveBins) {

    /** The method text of the intervals this class makes. */
    public static final String METHOD = "batch means over " + WindowRate.BINS + " time bins (Student t)";

    /** The number of bins the window is cut into. */
    public static final int BINS = 64;

    /**
     * Returns the rate of weighted events over the window {@code [startNanos, endNanos]}; an event outside it counts
     * in the bin nearest to it, so that the rate is always the events over the window (a steady-state window judges
     * the requests that started in it, some of which end after it).
     *
     * @param eventNanos when each event happened
     * @param weights each event's weight (its tokens, or 1 for a request)
     */
    public static WindowRate of(
            long[] eventNanos, double[] weights, long startNanos, long endNanos, double confidence) {
        Confidence.require(confidence);
        if (endNanos <= startNanos) {
            return new WindowRate(
                    Double.NaN, new ConfidenceInterval(Double.NaN, Double.NaN, confidence, METHOD), Double.NaN);
        }
        double binSeconds = (endNanos - startNanos) / 1e9 / BINS;
        double[] rates = new double[BINS];
        for (int i = 0; i < eventNanos.length; i++) {
            long at = Math.max(startNanos, Math.min(endNanos, eventNanos[i]));
            int bin = (int) Math.min(BINS - 1, (at - startNanos) * (double) BINS / (endNanos - startNanos));
            rates[bin] += weights[i] / binSeconds;
        }
        BatchMeans batches = BatchMeans.of(rates);
        ConfidenceInterval interval = batches.meanInterval(confidence);
        double variance = BatchMeans.sampleVariance(rates);
        // A rate is never negative: a wide interval of a short run ends at 0.
        return new WindowRate(
                batches.mean(),
                new ConfidenceInterval(Math.max(0, interval.lower()), interval.upper(), confidence, METHOD),
                batches.effectiveCount(variance));
    }
}
