package dev.goodput.junit.assertions;

import dev.goodput.core.slo.Metric;
import dev.goodput.core.stats.Summary;

/**
 * One statistic of a latency summary: a percentile, the median, the mean or an extreme.
 *
 * @param kind which statistic
 * @param percentile the percentile for {@link Kind#PERCENTILE} and {@link Kind#MEDIAN} (50), else NaN
 */
record LatencyStatistic(Kind kind, double percentile) {

    /** Which statistic of a summary. */
    enum Kind {
        PERCENTILE,
        MEDIAN,
        MEAN,
        MIN,
        MAX
    }

    static final LatencyStatistic MEDIAN = new LatencyStatistic(Kind.MEDIAN, 50);
    static final LatencyStatistic MEAN = new LatencyStatistic(Kind.MEAN, Double.NaN);
    static final LatencyStatistic MIN = new LatencyStatistic(Kind.MIN, Double.NaN);
    static final LatencyStatistic MAX = new LatencyStatistic(Kind.MAX, Double.NaN);

    /**
     * Returns a percentile such as 99 or 99.9.
     *
     * @throws IllegalArgumentException unless the percentile is above 0 and at most 100
     */
    static LatencyStatistic percentile(double percentile) {
        if (!(percentile > 0 && percentile <= 100)) {
            throw new IllegalArgumentException("percentile must be above 0 and at most 100, was " + percentile);
        }
        // Adding 0.0 matches the key normalisation of the summaries, which store 0.0 rather than -0.0.
        return new LatencyStatistic(Kind.PERCENTILE, percentile + 0.0);
    }

    /** Returns the name in a failure message, for example {@code "p99 TTFT"} or {@code "median TPOT"}. */
    String name(Metric metric) {
        String prefix = switch (kind) {
            case PERCENTILE -> "p" + UnitFormat.formatPercentile(percentile);
            case MEDIAN -> "median";
            case MEAN -> "mean";
            case MIN -> "min";
            case MAX -> "max";
        };
        return prefix + " " + metric.displayName();
    }

    /** Returns whether the summary holds this statistic; a percentile must have been computed for the run. */
    boolean isComputedIn(Summary summary) {
        return !hasPercentile() || summary.percentiles().containsKey(percentile);
    }

    /** Returns this statistic's value in the summary, in nanoseconds; call {@link #isComputedIn} first. */
    double valueIn(Summary summary) {
        return switch (kind) {
            case PERCENTILE, MEDIAN -> summary.percentile(percentile);
            case MEAN -> summary.mean();
            case MIN -> summary.min();
            case MAX -> summary.max();
        };
    }

    /** Returns whether this statistic is read from the summary's percentiles. */
    boolean hasPercentile() {
        return kind == Kind.PERCENTILE || kind == Kind.MEDIAN;
    }
}
