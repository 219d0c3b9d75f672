package dev.goodput.core.slo;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.internal.Units;
import dev.goodput.core.slo.internal.MetricUnits;
import dev.goodput.core.stats.ConfidenceInterval;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The verdict on one objective with the evidence behind it.
 *
 * @param objective the objective
 * @param verdict met, violated or inconclusive
 * @param measured the measured statistic in the metric's unit, or NaN when there were no samples
 * @param interval the confidence interval of the statistic, or {@code null} when the statistic has none
 *     (run-level values and maxima)
 * @param sampleCount the number of samples behind the statistic
 * @param effectiveCount how many independent samples the interval is worth: below {@code sampleCount} when
 *     successive samples are correlated, as they are under load ({@code docs/metrics.md}); NaN when the statistic
 *     has no interval
 * @param reason why an inconclusive verdict is inconclusive, else {@code null}
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record SloVerdict(
        SloSpec objective,
        Verdict verdict,
        double measured,
        ConfidenceInterval interval,
        long sampleCount,
        double effectiveCount,
        String reason) {

    public SloVerdict {
        Objects.requireNonNull(objective, "objective");
        Objects.requireNonNull(verdict, "verdict");
    }

    /** Returns whether the interval rests on fewer effective samples than samples (correlated samples). */
    public boolean isCorrelated() {
        return !Double.isNaN(effectiveCount) && effectiveCount < sampleCount;
    }

    /** Returns whether the objective was met. */
    public boolean isMet() {
        return verdict == Verdict.MET;
    }

    /**
     * Returns one line for a report or failure message, for example
     * {@code "p99 TTFT: measured 612.40 ms (95% CI 598.10 ms .. 640.00 ms, n=600, effectively 212), bound ≤ 500 ms:
     * VIOLATED"}; the effective count appears when correlation made it smaller than the sample count.
     */
    public String describe() {
        Metric metric = objective.metric();
        StringBuilder line = new StringBuilder(objective.statisticName()).append(": measured ");
        line.append(Double.isNaN(measured) ? "nothing" : MetricUnits.format(metric, measured));
        line.append(" (");
        if (interval != null) {
            line.append(Units.formatPercentile(interval.confidence() * 100)).append("% CI ");
            line.append(interval.hasLower() ? MetricUnits.format(metric, interval.lower()) : "none");
            line.append(" .. ");
            line.append(interval.hasUpper() ? MetricUnits.format(metric, interval.upper()) : "none");
            line.append(", ");
        }
        line.append("n=").append(sampleCount);
        if (isCorrelated()) {
            line.append(", effectively ").append(Math.round(effectiveCount));
        }
        line.append("), bound ");
        line.append(objective.comparison().symbol())
                .append(' ')
                .append(MetricUnits.format(metric, objective.threshold()));
        line.append(": ").append(verdict);
        if (reason != null) {
            line.append(" (").append(reason).append(')');
        }
        return line.toString();
    }
}
