package dev.goodput.core.slo;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.InvalidSettingException;
import dev.goodput.core.internal.Units;
import dev.goodput.core.slo.internal.MetricUnits;
import java.time.Duration;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A service-level objective: a metric, a statistic of it and a bound, for example "p99 TTFT at most 500 ms"
 * or "goodput at least 3.5 requests/s".
 *
 * <p>Build one with {@link #of(Metric)}:
 *
 * <pre>{@code
 * SloSpec.of(Metric.TTFT).percentile(99).atMost(Duration.ofMillis(500));
 * SloSpec.of(Metric.TPOT).mean().atMost(Duration.ofMillis(40));
 * SloSpec.of(Metric.GOODPUT).atLeast(3.5);
 * }</pre>
 *
 * <p>An upper bound on a per-request latency metric ({@link Metric.Kind#REQUEST}) is also a request-level
 * criterion: a request is <em>good</em> only if its own value meets every such bound, and goodput counts
 * good requests (DistServe's definition).
 *
 * @param metric the metric the objective is about
 * @param statistic which statistic of the metric is bounded
 * @param percentile the percentile for {@link Statistic#PERCENTILE}, else NaN
 * @param comparison whether the statistic must be at most or at least the threshold
 * @param threshold the bound, in the metric's unit (nanoseconds for latencies)
 * @param trafficClass the {@link dev.goodput.core.workload.TrafficClassSpec} whose requests alone the objective
 *     judges, or {@code null} for the whole run; a class's request-level bounds judge only its own requests
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record SloSpec(
        Metric metric,
        Statistic statistic,
        double percentile,
        Comparison comparison,
        double threshold,
        String trafficClass) {

    /** Which statistic of a metric an objective bounds. */
    public enum Statistic {
        /** A percentile of a per-request or pooled metric. */
        PERCENTILE,
        /** The mean of a per-request or pooled metric. */
        MEAN,
        /** The maximum of a per-request or pooled metric. */
        MAX,
        /** The single value of a run-level metric. */
        VALUE
    }

    /** The direction of a bound. */
    public enum Comparison {
        AT_MOST("≤"),
        AT_LEAST("≥");

        private final String symbol;

        Comparison(String symbol) {
            this.symbol = symbol;
        }

        /** Returns the mathematical symbol, {@code ≤} or {@code ≥}. */
        public String symbol() {
            return symbol;
        }

        /** Returns whether {@code value} lies on the good side of {@code threshold} (bounds inclusive). */
        public boolean holds(double value, double threshold) {
            return this == AT_MOST ? value <= threshold : value >= threshold;
        }
    }

    public SloSpec {
        Objects.requireNonNull(metric, "metric");
        if (trafficClass != null && trafficClass.isBlank()) {
            trafficClass = null;
        }
        if (trafficClass != null && metric.isServerSide()) {
            throw InvalidSettingException.of(
                    "trafficClass",
                    trafficClass,
                    "cannot bound " + metric + ": the server's own metrics do not tell the classes apart");
        }
        Objects.requireNonNull(statistic, "statistic");
        Objects.requireNonNull(comparison, "comparison");
        if (metric.kind() == Metric.Kind.RUN && statistic != Statistic.VALUE) {
            throw InvalidSettingException.conflict(
                    name -> name.apply("metric") + " " + metric + " is a run-level value; it takes no " + statistic
                            + " " + name.apply("statistic"),
                    "statistic",
                    "metric");
        }
        if (metric.kind() != Metric.Kind.RUN && statistic == Statistic.VALUE) {
            throw InvalidSettingException.conflict(
                    name -> name.apply("metric") + " " + metric
                            + " has one sample per request or gap; choose a percentile, mean or max",
                    "statistic",
                    "metric");
        }
        if (statistic == Statistic.PERCENTILE) {
            if (!(percentile > 0 && percentile <= 100)) {
                throw InvalidSettingException.of("percentile", percentile, "must be above 0 and at most 100");
            }
        } else if (!Double.isNaN(percentile)) {
            throw InvalidSettingException.of("percentile", percentile, "is only for the PERCENTILE statistic");
        }
        if (!Double.isFinite(threshold) || threshold < 0) {
            throw InvalidSettingException.of("threshold", threshold, "must be a finite value of at least 0");
        }
        if (metric.unit() == Metric.Unit.RATIO && threshold > 1) {
            throw InvalidSettingException.of(
                    "threshold", threshold, "must be a ratio between 0 and 1 (" + metric + " is a ratio)");
        }
    }

    /** Starts an objective on the given metric. */
    public static Builder of(Metric metric) {
        return new Builder(Objects.requireNonNull(metric, "metric"));
    }

    /**
     * Returns whether this objective also judges single requests: an upper bound on a per-request latency.
     */
    public boolean isRequestCriterion() {
        return metric.kind() == Metric.Kind.REQUEST && comparison == Comparison.AT_MOST;
    }

    /** Returns whether this objective judges the requests of the given class: its own class's, or a whole run's. */
    public boolean appliesTo(String requestClass) {
        return trafficClass == null || trafficClass.equals(requestClass);
    }

    /** Returns a copy that judges only the requests of the named workload class. */
    public SloSpec inClass(String name) {
        return new SloSpec(metric, statistic, percentile, comparison, threshold, name);
    }

    /**
     * Returns the statistic's name, for example {@code "p99.9 TTFT"}, {@code "mean TPOT"}, {@code "goodput"}, or
     * {@code "p99 TTFT of chat"} for an objective on the class {@code chat}.
     */
    public String statisticName() {
        String name = switch (statistic) {
            case PERCENTILE -> "p" + Units.formatPercentile(percentile) + " " + metric.displayName();
            case MEAN -> "mean " + metric.displayName();
            case MAX -> "max " + metric.displayName();
            case VALUE -> metric.displayName();
        };
        return trafficClass == null ? name : name + " of " + trafficClass;
    }

    /** Returns a readable form, for example {@code "p99 TTFT ≤ 500 ms"}. */
    @Override
    public String toString() {
        return statisticName() + " " + comparison.symbol() + " " + MetricUnits.format(metric, threshold);
    }

    /** Chooses the statistic and the bound of an objective. */
    public static final class Builder {
        private final Metric metric;
        private Statistic statistic;
        private double percentile = Double.NaN;
        private String trafficClass;

        private Builder(Metric metric) {
            this.metric = metric;
            this.statistic = metric.kind() == Metric.Kind.RUN ? Statistic.VALUE : null;
        }

        /** Bounds a percentile, for example 99 or 99.9. */
        public Builder percentile(double percentile) {
            this.statistic = Statistic.PERCENTILE;
            this.percentile = percentile;
            return this;
        }

        /** Judges only the requests of the named workload class ({@link dev.goodput.core.workload.WorkloadMix}). */
        public Builder inClass(String name) {
            if (name == null || name.isBlank()) {
                throw InvalidSettingException.of("trafficClass", name, "must name a class of the workload mix");
            }
            this.trafficClass = name;
            return this;
        }

        /** Bounds the mean. */
        public Builder mean() {
            this.statistic = Statistic.MEAN;
            this.percentile = Double.NaN;
            return this;
        }

        /** Bounds the maximum. */
        public Builder max() {
            this.statistic = Statistic.MAX;
            this.percentile = Double.NaN;
            return this;
        }

        /** Finishes a latency objective with an upper bound. */
        public SloSpec atMost(Duration bound) {
            Objects.requireNonNull(bound, "bound");
            requireLatency(bound);
            return build(Comparison.AT_MOST, bound.toNanos());
        }

        /** Finishes a latency objective with a lower bound. */
        public SloSpec atLeast(Duration bound) {
            Objects.requireNonNull(bound, "bound");
            requireLatency(bound);
            return build(Comparison.AT_LEAST, bound.toNanos());
        }

        /** Finishes an objective with an upper bound in the metric's unit (nanoseconds for latencies). */
        public SloSpec atMost(double bound) {
            return build(Comparison.AT_MOST, bound);
        }

        /** Finishes an objective with a lower bound in the metric's unit (nanoseconds for latencies). */
        public SloSpec atLeast(double bound) {
            return build(Comparison.AT_LEAST, bound);
        }

        private void requireLatency(Duration bound) {
            if (!metric.isLatency()) {
                throw InvalidSettingException.conflict(
                        name -> name.apply("metric") + " " + metric + " is not a latency; a Duration bound (" + bound
                                + ") does not apply",
                        "threshold",
                        "metric");
            }
        }

        private SloSpec build(Comparison comparison, double threshold) {
            if (statistic == null) {
                throw new IllegalStateException(
                        "choose percentile(p), mean() or max() of " + metric + " before the bound");
            }
            return new SloSpec(metric, statistic, percentile, comparison, threshold, trafficClass);
        }
    }
}
