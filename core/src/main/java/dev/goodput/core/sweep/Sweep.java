package dev.goodput.core.sweep;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.NanoClock;
import dev.goodput.core.RunSpec;
import dev.goodput.core.load.Load;
import dev.goodput.core.sweep.internal.SweepRunner;
import dev.goodput.core.transport.internal.Preflight;
import dev.goodput.core.transport.internal.Transports;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Runs one workload at several loads and finds the knee and the max goodput rate.
 *
 * <pre>{@code
 * RunSpec base = Goodput.newRun(server)
 *         .workload(WorkloadSpec.synthetic().inputTokens(64).outputTokens(64).build())
 *         .load(Load.constantRate(1).duration(Duration.ofSeconds(10)))      // each run replaces the rate
 *         .objectives(SloSpec.of(Metric.TTFT).percentile(90).atMost(Duration.ofMillis(500)))
 *         .build();
 * SweepResult sweep = Sweep.newSweep(base)
 *         .rates(2, 4, 6, 8, 10, 12)
 *         .searchMaxGoodput(0.25, 6)
 *         .run();
 * }</pre>
 *
 * <p>The grid runs first, lowest rate first; a run that fails for over-saturation or errors ends the grid (higher
 * rates would only fail harder). Then the search brackets the max goodput rate between the highest rate that
 * attained the target and the lowest that did not, and bisects until the bracket is at most the resolution wide
 * or its run budget is spent.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Sweep {

    private Sweep() {}

    /**
     * Starts building a sweep whose every run is {@code base} at another rate: the base's load must have arrivals
     * at a rate (constant, Poisson or gamma), and its limits, warm-up and request policy hold for every run.
     */
    public static Builder newSweep(RunSpec base) {
        return new Builder(base);
    }

    /**
     * Runs a sweep on real time. When the base spec's preflight is on, it is made once, before the first run (see
     * {@link dev.goodput.core.Goodput.RunBuilder#preflight(boolean)}); the runs themselves make none. The
     * sample-size check only notes a run too short for a percentile objective: a sweep judges its rates by SLO
     * attainment, not by the objectives' verdicts.
     *
     * @throws dev.goodput.core.PreflightException if the server failed the preflight; nothing was run
     */
    public static SweepResult run(SweepSpec spec) {
        RunSpec base = spec.base();
        if (base.preflight()) {
            Preflight.check(
                    base.server(),
                    base.workload().request(0),
                    NanoClock.system(),
                    Transports.named(base.transport()),
                    base.preflightLoadingWait());
        }
        return new SweepRunner(spec).run();
    }

    /** Builds a {@link SweepSpec}; every setting has a default but the rates to run (or automatic, or search). */
    public static final class Builder {
        private final RunSpec base;
        private final List<Double> rates = new ArrayList<>();
        private int automaticRates;
        private Load synchronousProbe = Load.concurrency(1).requests(20);
        private Load throughputProbe = Load.concurrency(256).requests(1000);
        private boolean search;
        private double resolution;
        private int maxSearchRuns;
        private double attainmentTarget = 0.9;
        private boolean overSaturationDetection = true;
        private Duration maxRunDuration = Duration.ofMinutes(5);
        private Duration maxTotalDuration = Duration.ofMinutes(60);
        private double maxErrorRate = 0.5;
        private SweepListener listener;

        Builder(RunSpec base) {
            this.base = Objects.requireNonNull(base, "base");
        }

        /** Runs these offered rates in requests/s, lowest first. */
        public Builder rates(double... values) {
            rates.clear();
            for (double value : values) {
                rates.add(value);
            }
            return this;
        }

        /**
         * Measures a one-at-a-time baseline rate and a saturated throughput rate, then runs {@code count} rates
         * spread evenly above the baseline up to the saturated rate, as GuideLLM's sweep does.
         */
        public Builder automatic(int count) {
            this.automaticRates = count;
            return this;
        }

        /** Sets the automatic mode's probes (default: 1 user for 20 requests; 256 users for 1000 requests). */
        public Builder automaticProbes(Load synchronous, Load throughput) {
            this.synchronousProbe = Objects.requireNonNull(synchronous, "synchronous");
            this.throughputProbe = Objects.requireNonNull(throughput, "throughput");
            return this;
        }

        /** After the grid, brackets and bisects for the max goodput rate to {@code resolution} req/s. */
        public Builder searchMaxGoodput(double resolution, int maxRuns) {
            this.search = true;
            this.resolution = resolution;
            this.maxSearchRuns = maxRuns;
            return this;
        }

        /** Sets the SLO attainment a sustainable rate must reach (default 0.9, DistServe's). */
        public Builder attainmentTarget(double value) {
            this.attainmentTarget = value;
            return this;
        }

        /** Turns the early end of over-saturated runs on or off (default on). */
        public Builder overSaturationDetection(boolean value) {
            this.overSaturationDetection = value;
            return this;
        }

        /** Sets the longest one run may take (default 5 min). */
        public Builder maxRunDuration(Duration value) {
            this.maxRunDuration = value;
            return this;
        }

        /** Sets the longest the whole sweep may take (default 60 min). */
        public Builder maxTotalDuration(Duration value) {
            this.maxTotalDuration = value;
            return this;
        }

        /** Sets the error rate above which a run fails and the grid stops (default 0.5). */
        public Builder maxErrorRate(double value) {
            this.maxErrorRate = value;
            return this;
        }

        /** Reports the sweep's progress about once a second. */
        public Builder progress(SweepListener value) {
            this.listener = value;
            return this;
        }

        /**
         * Returns the validated spec.
         *
         * @throws dev.goodput.core.InvalidSettingException naming the first setting that does not fit
         */
        public SweepSpec build() {
            return new SweepSpec(
                    base,
                    rates,
                    automaticRates,
                    synchronousProbe,
                    throughputProbe,
                    search,
                    resolution,
                    maxSearchRuns,
                    attainmentTarget,
                    overSaturationDetection,
                    maxRunDuration,
                    maxTotalDuration,
                    maxErrorRate,
                    listener);
        }

        /** Builds the spec and runs it. */
        public SweepResult run() {
            return Sweep.run(build());
        }
    }
}
