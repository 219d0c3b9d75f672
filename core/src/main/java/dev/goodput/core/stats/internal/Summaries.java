package dev.goodput.core.stats.internal;

import dev.goodput.core.stats.Summary;
import java.util.TreeMap;

/** Builds a {@link Summary} from any {@link Distribution}, so exact and pooled summaries are built alike. */
final class Summaries {

    private Summaries() {}

    /**
     * Returns the summary of a distribution with the given percentiles. An empty distribution gives count 0
     * and NaN everywhere, with every requested percentile present and mapped to NaN.
     *
     * @throws IllegalArgumentException if a percentile is not between 0 and 100
     */
    static Summary of(Distribution samples, double... percentiles) {
        TreeMap<Double, Double> values = new TreeMap<>();
        for (double percentile : percentiles) {
            Type7Percentile.requireValid(percentile);
            // Adding 0.0 turns -0.0 into 0.0, so both spellings land on one key.
            values.put(percentile + 0.0, samples.percentile(percentile));
        }
        return new Summary(
                samples.count(), samples.mean(), samples.standardDeviation(), samples.min(), samples.max(), values);
    }
}
