package dev.goodput.core.sweep;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.InvalidSettingException;
import dev.goodput.core.RunSpec;
import dev.goodput.core.load.Arrivals;
import dev.goodput.core.load.Load;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Everything a sweep needs: a base run and how to vary its rate. Every run of the sweep is the base run spec with
 * its load's arrivals at the run's rate ({@link #loadAt(double)}); everything else (server, workload, objectives,
 * percentiles, confidence, client tokenizer, send-lag limit) is the base's, so a setting of the base cannot be
 * lost on the way. Build one with {@link Sweep#newSweep(RunSpec)}.
 *
 * @param base the run each point repeats at its own rate; its load's arrivals must be at a rate (constant,
 *     Poisson or gamma), whose rate each run replaces, and its objectives' request-level bounds define SLO
 *     attainment
 * @param rates the grid's rates in requests/s, ascending; empty in automatic mode
 * @param automaticRates in automatic mode, how many rates to spread between the probes; else 0
 * @param synchronousProbe the automatic mode's one-at-a-time baseline run
 * @param throughputProbe the automatic mode's saturating run
 * @param search whether to bracket and bisect for the max goodput rate after the grid
 * @param resolution the search stops once the bracket is at most this wide, in requests/s
 * @param maxSearchRuns the most runs the search adds to the grid
 * @param attainmentTarget the SLO attainment a rate must reach to count as sustainable, for example 0.9
 * @param overSaturationDetection whether to end a run early when its queue keeps growing
 * @param maxRunDuration the longest one run may take before it is ended
 * @param maxTotalDuration the longest the sweep may take; no run starts after it, a run under way is ended
 * @param maxErrorRate the error rate above which a run fails and no higher rate of the grid is tried
 * @param listener told how far the sweep has got, or {@code null}
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record SweepSpec(
        RunSpec base,
        List<Double> rates,
        int automaticRates,
        Load synchronousProbe,
        Load throughputProbe,
        boolean search,
        double resolution,
        int maxSearchRuns,
        double attainmentTarget,
        boolean overSaturationDetection,
        Duration maxRunDuration,
        Duration maxTotalDuration,
        double maxErrorRate,
        SweepListener listener) {

    public SweepSpec {
        Objects.requireNonNull(base, "base");
        if (!(base.load().arrivals() instanceof Arrivals.AtRate)) {
            throw InvalidSettingException.conflict(
                    "a sweep varies the rate of its base load, which needs arrivals at a rate (constantRate, poisson"
                            + " or gamma), was " + base.load().arrivals(),
                    "load");
        }
        Objects.requireNonNull(synchronousProbe, "synchronousProbe");
        Objects.requireNonNull(throughputProbe, "throughputProbe");
        rates = rates.stream().sorted().toList();
        for (double rate : rates) {
            if (!(rate > 0) || Double.isInfinite(rate)) {
                throw InvalidSettingException.of("rates", rate, "must be positive and finite");
            }
        }
        if (rates.isEmpty() && automaticRates < 1 && !search) {
            throw InvalidSettingException.conflict(
                    name -> "a sweep needs " + name.apply("rates")
                            + "(...), automatic(n) or searchMaxGoodput(...): it has nothing to run",
                    "rates",
                    "automatic",
                    "searchMaxGoodput");
        }
        if (!(attainmentTarget > 0 && attainmentTarget <= 1)) {
            throw InvalidSettingException.of("attainmentTarget", attainmentTarget, "must be in (0, 1]");
        }
        if (search && !(resolution > 0)) {
            throw InvalidSettingException.of("resolution", resolution, "must be positive");
        }
        if (search && maxSearchRuns < 1) {
            throw InvalidSettingException.of("maxSearchRuns", maxSearchRuns, "must be at least 1");
        }
        if (!(maxErrorRate >= 0 && maxErrorRate <= 1)) {
            throw InvalidSettingException.of("maxErrorRate", maxErrorRate, "must be in [0, 1]");
        }
        Objects.requireNonNull(maxRunDuration, "maxRunDuration");
        Objects.requireNonNull(maxTotalDuration, "maxTotalDuration");
    }

    /** Returns the load of one run at an offered rate: the base load's arrivals at that rate. */
    public Load loadAt(double requestsPerSecond) {
        Arrivals.AtRate arrivals = (Arrivals.AtRate) base.load().arrivals();
        return base.load().arrivals(arrivals.atRate(requestsPerSecond));
    }

    /** Returns whether the grid's rates are spread between two probes rather than given. */
    public boolean automatic() {
        return automaticRates > 0;
    }
}
