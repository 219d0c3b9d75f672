package dev.goodput.core.sweep.internal;

import dev.goodput.core.Goodput;
import dev.goodput.core.ProgressListener;
import dev.goodput.core.RunSpec;
import dev.goodput.core.load.Arrivals;
import dev.goodput.core.load.Load;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.sweep.MaxGoodput;
import dev.goodput.core.sweep.SweepPoint;
import dev.goodput.core.sweep.SweepProgress;
import dev.goodput.core.sweep.SweepResult;
import dev.goodput.core.sweep.SweepSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/** Runs a sweep: the automatic mode's probes, the grid, then the max-goodput search; each run whole. */
public final class SweepRunner {

    /** Samples the over-saturation slope is fitted over: 5 s at the watcher's 250 ms interval. */
    static final int SATURATION_WINDOW = 20;

    private final SweepSpec spec;
    private final Function<RunSpec, RunResult> runner;
    private final List<SweepPoint> points = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final long startNanos = System.nanoTime();
    private final long deadlineNanos;
    private int planned;

    public SweepRunner(SweepSpec spec) {
        this(spec, Goodput::run);
    }

    SweepRunner(SweepSpec spec, Function<RunSpec, RunResult> runner) {
        this.spec = spec;
        this.runner = runner;
        this.deadlineNanos = startNanos + spec.maxTotalDuration().toNanos();
    }

    public SweepResult run() {
        List<Double> grid = new ArrayList<>(spec.rates());
        planned = grid.size() + (spec.search() ? spec.maxSearchRuns() : 0);
        if (spec.automatic()) {
            planned += 2 + spec.automaticRates();
            grid = automaticGrid();
        }
        for (double rate : grid) {
            if (timeIsUp()) {
                notes.add(String.format(Locale.ROOT, "rates from %.2f req/s on were not run: %s", rate, timeUp()));
                break;
            }
            SweepPoint point = runAt(SweepPoint.Role.GRID, rate, spec.loadAt(rate));
            if (point.stoppedEarly() || point.errorRate() > spec.maxErrorRate()) {
                int skipped = grid.size() - grid.indexOf(rate) - 1;
                if (skipped > 0) {
                    notes.add(String.format(
                            Locale.ROOT,
                            "the grid stopped at %.2f req/s (%s); %d higher rate(s) skipped",
                            rate,
                            point.stoppedEarly()
                                    ? point.stopReason()
                                    : String.format(Locale.ROOT, "error rate %.3f", point.errorRate()),
                            skipped));
                }
                planned -= skipped;
                break;
            }
        }
        boolean converged = spec.search() ? search(grid.isEmpty() ? 1.0 : grid.get(0)) : false;
        Bracket bracket = Bracket.of(points, spec.attainmentTarget(), spec.maxErrorRate());
        double resolution = spec.search() ? spec.resolution() : bracketWidth(bracket);
        MaxGoodput maxGoodput = new MaxGoodput(
                bracket.passing(),
                bracket.failing(),
                spec.attainmentTarget(),
                resolution,
                converged || (!spec.search() && !Double.isNaN(bracket.failing())),
                points.stream().filter(SweepPoint::isRated).toList());
        // Every rated run, the search's included: on the grid alone the knee fell on the grid rate below a search
        // run that was still flat and met the target (7 req/s against a max goodput rate of 9, issue 33).
        List<SweepPoint> curve = points.stream()
                .filter(SweepPoint::isRated)
                .sorted(java.util.Comparator.comparingDouble(SweepPoint::offeredRate))
                .toList();
        return new SweepResult(spec, points, maxGoodput, KneeDetector.find(curve), notes);
    }

    private static double bracketWidth(Bracket bracket) {
        return Double.isNaN(bracket.failing()) ? Double.NaN : bracket.failing() - bracket.passing();
    }

    private List<Double> automaticGrid() {
        SweepPoint synchronous = runAt(SweepPoint.Role.SYNCHRONOUS_PROBE, Double.NaN, spec.synchronousProbe());
        SweepPoint throughput = runAt(SweepPoint.Role.THROUGHPUT_PROBE, Double.NaN, spec.throughputProbe());
        double low = synchronous.throughput();
        double high = throughput.throughput();
        List<Double> rates = new ArrayList<>();
        if (!(low > 0) || !(high > low)) {
            notes.add(String.format(
                    Locale.ROOT,
                    "automatic mode found no range to sweep: baseline %.2f req/s, saturated %.2f req/s",
                    low,
                    high));
            return rates;
        }
        int count = spec.automaticRates();
        for (int i = 1; i <= count; i++) {
            rates.add(low + (high - low) * i / count);
        }
        return rates;
    }

    /** Brackets and bisects; returns whether the bracket closed to the resolution. */
    private boolean search(double start) {
        for (int run = 0; run < spec.maxSearchRuns(); run++) {
            Bracket bracket = Bracket.of(points, spec.attainmentTarget(), spec.maxErrorRate());
            if (bracket.closed(spec.resolution())) {
                return true;
            }
            double next = bracket.next(start);
            if (bracket.passing() == 0 && next < spec.resolution()) {
                notes.add("the search stopped: no rate down to the resolution attained the target");
                return false;
            }
            if (timeIsUp()) {
                notes.add("the search stopped: " + timeUp());
                return false;
            }
            runAt(SweepPoint.Role.SEARCH, next, spec.loadAt(next));
        }
        boolean closed =
                Bracket.of(points, spec.attainmentTarget(), spec.maxErrorRate()).closed(spec.resolution());
        if (!closed) {
            notes.add("the search spent its " + spec.maxSearchRuns() + " runs before the bracket closed");
        }
        planned = points.size();
        return closed;
    }

    private SweepPoint runAt(SweepPoint.Role role, double rate, Load load) {
        OverSaturationDetector detector =
                spec.overSaturationDetection() && load.arrivals() instanceof Arrivals.AtRate atRate
                        ? new OverSaturationDetector(atRate.rate(), SATURATION_WINDOW, 1_000_000_000L)
                        : null;
        String label = Double.isNaN(rate)
                ? role.name().toLowerCase(Locale.ROOT).replace('_', ' ') + " (" + load + ")"
                : String.format(Locale.ROOT, "rate %.2f req/s", rate);
        RunLimits limits = new RunLimits(spec.maxRunDuration(), deadlineNanos, System::nanoTime, detector);
        // The sweep made the preflight once, before its first run; a run's objectives define its good requests,
        // and the sweep judges rates by attainment, so a short run at a low rate is noted, not refused.
        RunSpec run = spec.base()
                .withLoad(load)
                .withProgress(forward(label))
                .withWatcher(limits)
                .withPreflight(false)
                .withFailOnTooFewSamples(false);
        RunResult result = runner.apply(run);
        SweepPoint point =
                new SweepPoint(role, rate, result, limits.stopReason().orElse(null));
        points.add(point);
        return point;
    }

    private ProgressListener forward(String label) {
        if (spec.listener() == null) {
            return null;
        }
        long[] lastReport = {0};
        return progress -> {
            long now = System.nanoTime();
            if (now - lastReport[0] < 1_000_000_000L && !progress.finished()) {
                return;
            }
            lastReport[0] = now;
            long elapsed = now - startNanos;
            int done = points.size();
            long perRun = done == 0 ? 0 : elapsed / done;
            long remaining = Math.min(
                    Math.max(0, perRun * (planned - done) - progress.elapsedNanos()), Math.max(0, deadlineNanos - now));
            spec.listener()
                    .onProgress(
                            new SweepProgress(label, done, Math.max(planned, done + 1), progress, elapsed, remaining));
        };
    }

    private boolean timeIsUp() {
        return System.nanoTime() - deadlineNanos > 0;
    }

    private String timeUp() {
        return "the sweep reached its overall time limit of "
                + spec.maxTotalDuration().toSeconds() + " s";
    }
}
