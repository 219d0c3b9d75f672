package dev.goodput.core.bench.coverage;

import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.stats.internal.ExactDistribution;
import java.time.Duration;

/**
 * A statistic the harness judges: a percentile or the mean of a per-request metric (TTFT or TPOT), or goodput
 * (good requests per second, good meaning a TTFT of at most a per-request bound).
 *
 * @param name how tables name it
 * @param metric the metric
 * @param percentile the percentile, or NaN for the mean (and for goodput)
 */
public record Statistic(String name, Metric metric, double percentile) {

    public static Statistic percentile(Metric metric, double percentile) {
        return new Statistic("p" + (int) percentile + " " + metric.displayName(), metric, percentile);
    }

    public static Statistic mean(Metric metric) {
        return new Statistic("mean " + metric.displayName(), metric, Double.NaN);
    }

    public static Statistic goodput() {
        return new Statistic("goodput", Metric.GOODPUT, Double.NaN);
    }

    public boolean isGoodput() {
        return metric == Metric.GOODPUT;
    }

    /** Returns the statistic of per-request samples (not for goodput). */
    public double of(double[] samples) {
        ExactDistribution distribution = ExactDistribution.of(samples);
        return Double.isNaN(percentile) ? distribution.mean() : distribution.percentile(percentile);
    }

    /**
     * Returns an objective on this statistic whose bound the truth {@code violates} (or meets) by 10 %: for a
     * latency ({@code ≤}) 0.9 or 1.1 times the truth; for goodput ({@code ≥}) 1.1 or 0.9 times.
     */
    public SloSpec objective(double truth, boolean violates) {
        return objective(truth, violates == isGoodput() ? 1.1 : 0.9);
    }

    /**
     * Returns an objective with the bound {@code factor} times the truth: at most that for a latency, at least that
     * for goodput.
     */
    public SloSpec objective(double truth, double factor) {
        if (isGoodput()) {
            return SloSpec.of(Metric.GOODPUT).atLeast(truth * factor);
        }
        SloSpec.Builder builder = SloSpec.of(metric);
        builder = Double.isNaN(percentile) ? builder.mean() : builder.percentile(percentile);
        return builder.atMost(Duration.ofNanos(Math.round(truth * factor)));
    }

    /** Returns whether the truth violates a bound of {@code factor} times itself. */
    public boolean violatedBy(double factor) {
        return isGoodput() ? factor > 1 : factor < 1;
    }
}
