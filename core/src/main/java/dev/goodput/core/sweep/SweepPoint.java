package dev.goodput.core.sweep;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One run of a sweep, kept whole.
 *
 * @param role why the run was made: a probe of the automatic mode, a rate of the grid, or a step of the search
 * @param offeredRate the open-loop rate asked for in requests/s (NaN for a closed-loop probe)
 * @param result the run's full result
 * @param stopReason why the run was ended early (over-saturation, the per-run limit), or {@code null}
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record SweepPoint(Role role, double offeredRate, RunResult result, String stopReason) {

    /** Why a run was made. */
    public enum Role {
        /** The one-at-a-time baseline of the automatic mode. */
        SYNCHRONOUS_PROBE,
        /** The saturated-throughput probe of the automatic mode. */
        THROUGHPUT_PROBE,
        /** A rate of the grid (given, or spread between the probes). */
        GRID,
        /** A step of the max-goodput search. */
        SEARCH
    }

    public SweepPoint {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(result, "result");
    }

    /** Returns whether the run was ended before its load profile was done. */
    public boolean stoppedEarly() {
        return stopReason != null;
    }

    /** Returns the share of measured requests that met every request-level objective. */
    public double attainment() {
        return result.value(Metric.SLO_ATTAINMENT);
    }

    /** Returns the achieved request throughput in requests/s. */
    public double throughput() {
        return result.value(Metric.REQUEST_THROUGHPUT);
    }

    /** Returns the measured error rate. */
    public double errorRate() {
        return result.value(Metric.ERROR_RATE);
    }

    /** Returns whether this is an open-loop run at an offered rate (not a closed-loop probe). */
    public boolean isRated() {
        return !Double.isNaN(offeredRate);
    }

    /**
     * Returns whether the run meets the objectives in DistServe's sense: it ran to the end and at least {@code
     * target} of its requests met every request-level objective.
     */
    public boolean attains(double target) {
        return !stoppedEarly() && attainment() >= target;
    }
}
