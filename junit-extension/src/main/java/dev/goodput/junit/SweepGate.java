package dev.goodput.junit;

import dev.goodput.core.RunSpec;
import dev.goodput.core.load.Arrivals;
import dev.goodput.core.load.Load;
import dev.goodput.core.slo.SloVerdict;
import dev.goodput.core.sweep.MaxGoodput;
import dev.goodput.core.sweep.Sweep;
import dev.goodput.core.sweep.SweepListener;
import dev.goodput.core.sweep.SweepPoint;
import dev.goodput.core.sweep.SweepResult;
import dev.goodput.core.sweep.SweepSpec;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;

/**
 * A {@link LoadSweep} test: the sweep's spec from the annotations, and the {@link MaxGoodputRate} verdict, whose
 * failure message lists every objective at the rate that failed, the runs and the reports.
 */
final class SweepGate {

    private SweepGate() {}

    /**
     * Returns the spec of the sweep: every run is {@code base} (the gate's workload, objectives, client settings
     * and {@link #runLoad one run's load}) at its own rate.
     */
    static SweepSpec spec(LoadSweep sweep, RunSpec base, SweepListener listener, String where) {
        AnnotationSettings names = new AnnotationSettings("@LoadSweep", where)
                .map("rates", "rates", java.util.Arrays.toString(sweep.rates()))
                .map("attainmentTarget", "attainmentTarget", sweep.attainmentTarget())
                .map("resolution", "resolution", sweep.resolution())
                .map("maxSearchRuns", "maxSearchRuns", sweep.maxSearchRuns())
                .map("maxErrorRate", "maxErrorRate", sweep.maxErrorRate())
                .map("requests", "probeRequests", sweep.probeRequests())
                .map("concurrency", "saturationUsers", sweep.saturationUsers());
        return names.apply(() -> {
            Sweep.Builder builder = Sweep.newSweep(base)
                    .rates(sweep.rates())
                    .attainmentTarget(sweep.attainmentTarget())
                    .overSaturationDetection(sweep.overSaturationDetection())
                    .maxRunDuration(names.seconds("maxRunSeconds", sweep.maxRunSeconds()))
                    .maxTotalDuration(names.seconds("maxTotalSeconds", sweep.maxTotalSeconds()))
                    .maxErrorRate(sweep.maxErrorRate())
                    .progress(listener);
            if (sweep.automatic() > 0) {
                builder.automatic(sweep.automatic())
                        .automaticProbes(
                                Load.concurrency(1).requests(sweep.probeRequests()),
                                Load.concurrency(sweep.saturationUsers()).requests(sweep.probeRequests()));
            }
            if (!Double.isNaN(sweep.resolution())) {
                builder.searchMaxGoodput(sweep.resolution(), sweep.maxSearchRuns());
            }
            return builder.build();
        });
    }

    /**
     * Returns the load of one run of the sweep, at the first rate of the grid (each run replaces the rate): constant
     * or Poisson arrivals for {@code runSeconds}, with the sweep's warm-up and drain.
     */
    static Load runLoad(LoadSweep sweep, String where) {
        AnnotationSettings names = new AnnotationSettings("@LoadSweep", where)
                .map("duration", "runSeconds", sweep.runSeconds())
                .map("warmup", "warmupSeconds", sweep.warmupSeconds())
                .map("drain", "drainSeconds", sweep.drainSeconds());
        double rate = sweep.rates().length > 0 ? sweep.rates()[0] : 1.0;
        return names.apply(() -> {
            Arrivals arrivals = sweep.poisson() ? Load.poisson(rate) : Load.constantRate(rate);
            return arrivals.duration(names.seconds("runSeconds", sweep.runSeconds()))
                    .warmup(names.seconds("warmupSeconds", sweep.warmupSeconds()))
                    .drain(names.seconds("drainSeconds", sweep.drainSeconds()));
        });
    }

    /** Returns the failure message when the max goodput rate is below the bound, else empty. */
    static Optional<String> failure(
            String name, SweepResult result, MaxGoodputRate bound, String serverSource, Path reports) {
        MaxGoodput max = result.maxGoodput();
        if (bound == null || max.rate() >= bound.atLeast()) {
            return Optional.empty();
        }
        StringBuilder message = new StringBuilder(String.format(
                Locale.ROOT,
                "%s: max goodput rate %.2f req/s is below the required %.2f req/s\n  %s\n",
                name,
                max.rate(),
                bound.atLeast(),
                max.describe()));
        Optional<SweepPoint> failing = result.curve().stream()
                .filter(p -> p.offeredRate() > max.rate())
                .filter(p -> !p.attains(max.target()))
                .min(Comparator.comparingDouble(SweepPoint::offeredRate));
        failing.ifPresent(point -> {
            message.append(String.format(
                    Locale.ROOT,
                    "at %.2f req/s offered, SLO attainment %.2f %% < %.0f %%%s; every objective there:\n",
                    point.offeredRate(),
                    point.attainment() * 100,
                    max.target() * 100,
                    point.stoppedEarly() ? " (" + point.stopReason() + ")" : ""));
            for (SloVerdict verdict : point.result().verdicts()) {
                message.append("  ").append(verdict.describe()).append('\n');
            }
        });
        message.append("runs:");
        for (SweepPoint point : result.points()) {
            message.append(String.format(
                    Locale.ROOT,
                    " %s %.2f req/s -> %.2f req/s, attainment %.1f %%%s;",
                    point.role().name().toLowerCase(Locale.ROOT),
                    point.offeredRate(),
                    point.throughput(),
                    point.attainment() * 100,
                    point.stoppedEarly() ? " (ended early)" : ""));
        }
        message.append("\nagainst ").append(serverSource).append('\n');
        message.append("reports: ").append(reports);
        return Optional.of(message.toString());
    }
}
