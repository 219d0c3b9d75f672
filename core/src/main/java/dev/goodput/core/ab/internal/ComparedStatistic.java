package dev.goodput.core.ab.internal;

import dev.goodput.core.internal.Units;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.stats.Summary;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One statistic an A/B run compares block by block: a percentile (0 to 100) or the mean of a per-request or pooled
 * metric, or a run-level rate ({@code percentile} NaN for both of the latter).
 *
 * @param name the name shown, for example {@code "TTFT p90"}
 * @param metric the metric
 * @param percentile the percentile, NaN for a mean or a rate
 */
public record ComparedStatistic(String name, Metric metric, double percentile) {

    /** The latencies every A/B run compares, each at p50, p90 (ITL at p50 only) and its mean. */
    static final List<Metric> KEY_LATENCIES = List.of(Metric.TTFT, Metric.TPOT, Metric.ITL, Metric.E2EL);

    /**
     * The percentiles compared for each key latency. Not p99: a block of a few dozen requests has no p99 of its own
     * (it is the block's maximum), while p90 still has several samples above it.
     */
    static final List<Double> KEY_PERCENTILES = List.of(50.0, 90.0);

    /**
     * Returns what an A/B run compares: the key latencies at p50, p90 (ITL at p50 only) and their means, goodput and output token
     * throughput, then each objective's own statistic when it is not among them already.
     */
    public static List<ComparedStatistic> forObjectives(List<SloSpec> objectives) {
        Set<ComparedStatistic> compared = new LinkedHashSet<>();
        for (Metric metric : KEY_LATENCIES) {
            for (double percentile : KEY_PERCENTILES) {
                // A block's p90 of pooled gaps is the machine's pauses more than the server's steps: on a 2-core
                // runner with a CPU hog its A/A noise floor was 14-91 %, against 1-3 % for ITL p50 and mean.
                if (metric != Metric.ITL || percentile == 50) {
                    compared.add(percentile(metric, percentile));
                }
            }
            compared.add(mean(metric));
        }
        compared.add(rate(Metric.GOODPUT));
        compared.add(rate(Metric.OUTPUT_TOKEN_THROUGHPUT));
        for (SloSpec objective : objectives) {
            Metric metric = objective.metric();
            if (metric.kind() == Metric.Kind.RUN) {
                if (metric.unit() == Metric.Unit.PER_SECOND || metric.unit() == Metric.Unit.RATIO) {
                    compared.add(rate(metric));
                }
            } else if (objective.statistic() == SloSpec.Statistic.PERCENTILE) {
                compared.add(percentile(metric, objective.percentile()));
            } else if (objective.statistic() == SloSpec.Statistic.MEAN) {
                compared.add(mean(metric));
            }
        }
        return List.copyOf(compared);
    }

    /** Returns the percentiles a block's summaries must hold for these statistics. */
    public static List<Double> percentilesNeeded(List<ComparedStatistic> statistics) {
        Set<Double> needed = new LinkedHashSet<>();
        for (ComparedStatistic statistic : statistics) {
            if (!Double.isNaN(statistic.percentile())) {
                needed.add(statistic.percentile());
            }
        }
        return List.copyOf(needed);
    }

    static ComparedStatistic percentile(Metric metric, double percentile) {
        return new ComparedStatistic(
                metric.displayName() + " p" + Units.formatPercentile(percentile), metric, percentile);
    }

    static ComparedStatistic mean(Metric metric) {
        return new ComparedStatistic(metric.displayName() + " mean", metric, Double.NaN);
    }

    static ComparedStatistic rate(Metric metric) {
        return new ComparedStatistic(metric.displayName(), metric, Double.NaN);
    }

    /** Returns whether this is a run-level value rather than a statistic of per-request samples. */
    public boolean isRunValue() {
        return metric.kind() == Metric.Kind.RUN;
    }

    /** Returns whether a decrease is an improvement: latencies, error rates; not rates of work done. */
    public boolean lowerIsBetter() {
        return !isRunValue() || metric == Metric.ERROR_RATE;
    }

    /**
     * Returns this statistic of one block, in milliseconds for latencies and in the metric's own unit otherwise;
     * NaN when the block has no value.
     */
    public double of(RunResult block) {
        if (isRunValue()) {
            return block.value(metric);
        }
        Summary summary = block.summary(metric);
        if (summary == null || summary.isEmpty()) {
            return Double.NaN;
        }
        double value = Double.isNaN(percentile)
                ? summary.mean()
                : summary.percentiles().getOrDefault(percentile, Double.NaN);
        return metric.unit() == Metric.Unit.NANOSECONDS ? value / 1e6 : value;
    }
}
