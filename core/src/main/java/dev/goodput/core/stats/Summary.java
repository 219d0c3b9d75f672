package dev.goodput.core.stats;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Collections;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apiguardian.api.API;

/**
 * A summary of one metric's samples: count, mean, population standard deviation, extremes and percentiles,
 * all in the metric's unit (nanoseconds for latencies).
 *
 * <p>Percentiles of per-request metrics are exact, interpolated linearly between closest ranks (Hyndman and
 * Fan type 7, NumPy's default). Pooled metrics come from a histogram with three significant digits. An empty
 * summary has count 0 and {@link Double#NaN} everywhere else.
 *
 * @param count number of samples
 * @param mean arithmetic mean
 * @param standardDeviation population standard deviation (divides by {@code count})
 * @param min smallest sample
 * @param max largest sample
 * @param percentiles percentile (for example 99.9) to value
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record Summary(
        long count,
        double mean,
        double standardDeviation,
        double min,
        double max,
        NavigableMap<Double, Double> percentiles) {

    public Summary {
        percentiles = Collections.unmodifiableNavigableMap(new TreeMap<>(percentiles));
    }

    /** Returns the summary of no samples. */
    public static Summary empty() {
        return new Summary(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, new TreeMap<>());
    }

    /**
     * Returns the value at the given percentile.
     *
     * @throws IllegalArgumentException if that percentile was not computed for this summary
     */
    public double percentile(double percentile) {
        Double value = percentiles.get(percentile);
        if (value == null) {
            throw new IllegalArgumentException(
                    "percentile " + percentile + " was not computed; available: " + percentiles.keySet());
        }
        return value;
    }

    /** Returns whether there are no samples. */
    public boolean isEmpty() {
        return count == 0;
    }
}
