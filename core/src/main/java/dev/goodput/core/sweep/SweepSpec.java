package dev.goodput.core.sweep;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.Load;
import dev.goodput.core.Objective;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.WorkloadSpec;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.DoubleFunction;
import org.apiguardian.api.API;

/**
 * Everything a sweep needs. Build one with {@link Sweep#newSweep(ServerEndpoint)}.
 *
 * @param server the server under test
 * @param workload what every run sends
 * @param objectives the objectives every run is judged on; their request-level bounds define SLO attainment
 * @param loadAtRate the load profile of one run at an offered rate
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
        ServerEndpoint server,
        WorkloadSpec workload,
        List<Objective> objectives,
        DoubleFunction<Load> loadAtRate,
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
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(loadAtRate, "loadAtRate");
        objectives = List.copyOf(objectives);
        rates = rates.stream().sorted().toList();
        for (double rate : rates) {
            if (!(rate > 0) || Double.isInfinite(rate)) {
                throw new IllegalArgumentException("sweep rates must be positive and finite, was " + rate);
            }
        }
        if (rates.isEmpty() && automaticRates < 1 && !search) {
            throw new IllegalArgumentException(
                    "a sweep needs rates(...), automatic(n) or searchMaxGoodput(...): it has nothing to run");
        }
        if (!(attainmentTarget > 0 && attainmentTarget <= 1)) {
            throw new IllegalArgumentException("attainmentTarget must be in (0, 1], was " + attainmentTarget);
        }
        if (search && !(resolution > 0)) {
            throw new IllegalArgumentException("the search's resolution must be positive, was " + resolution);
        }
        if (search && maxSearchRuns < 1) {
            throw new IllegalArgumentException("the search needs at least 1 run, was " + maxSearchRuns);
        }
        if (!(maxErrorRate >= 0 && maxErrorRate <= 1)) {
            throw new IllegalArgumentException("maxErrorRate must be in [0, 1], was " + maxErrorRate);
        }
        Objects.requireNonNull(maxRunDuration, "maxRunDuration");
        Objects.requireNonNull(maxTotalDuration, "maxTotalDuration");
        loadAtRate.apply(1.0).validate();
    }

    /** Returns whether the grid's rates are spread between two probes rather than given. */
    public boolean automatic() {
        return automaticRates > 0;
    }
}
